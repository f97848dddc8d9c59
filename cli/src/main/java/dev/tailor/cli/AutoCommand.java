package dev.tailor.cli;

import dev.tailor.auto.AutoPolicy;
import dev.tailor.auto.AutoSettings;
import dev.tailor.auto.AutoStatus;
import dev.tailor.core.policy.DegreeCap;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.Median;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Simulates {@code auto} beside fixed policies on the same arrivals: at steady loads, or across a
 * shift of the query mix halfway through the run.
 */
@Command(
    name = "auto",
    mixinStandardHelpOptions = true,
    description = {
      "Simulate auto, starting with no table, beside other policies on the same arrivals, and print"
          + " each one's P99 (median and range over the seeds) and what auto's rebuilds chose.",
      "With --shift-to, the first half of each run draws its requests from --profile and the"
          + " second from the other profile, and the P99 of every window of requests is printed."
    })
final class AutoCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--profile", required = true, paramLabel = "FILE", description = "The profile.")
  Path profile;

  @Option(
      names = "--shift-to",
      paramLabel = "FILE",
      description = "A second profile the second half of each run draws from.")
  Path shiftTo;

  @Mixin CalibrationOption calibration;

  @Option(names = "--cores", defaultValue = "16", description = "Simulated threads.")
  int cores;

  @Option(
      names = "--max-degree",
      defaultValue = "8",
      description = "Degree cap of every policy, auto's included (default ${DEFAULT-VALUE}).")
  int maxDegree;

  @Option(
      names = "--model",
      defaultValue = "units",
      description = "Work model: units or fluid (default ${DEFAULT-VALUE}).")
  String model;

  @Option(names = "--rps", required = true, split = ",", description = "Arrival rates.")
  List<Double> rps;

  @Option(names = "--seeds", defaultValue = "3", description = "Seeds per load.")
  int seeds;

  @Option(
      names = "--requests",
      defaultValue = "20000",
      description = "Requests per run, the first tenth a warm-up (default ${DEFAULT-VALUE}).")
  int requests;

  @Option(
      names = "--settings",
      defaultValue = "requests=2000,period=0s",
      description =
          "auto's settings (max-degree is added, and rebuilds run on the simulator's thread); the"
              + " default rebuilds every 2000 requests, so the first rebuild ends with the"
              + " warm-up.")
  String settings;

  @Option(
      names = "--compare",
      defaultValue = "seq,fixed:2,fixed:4,steal-first,wq-linear:8",
      description =
          "Policies to run on the same arrivals; {rps} in a file name is the load (default"
              + " ${DEFAULT-VALUE}).")
  String compare;

  @Option(
      names = "--window",
      defaultValue = "2000",
      description = "Requests per window of the shift's P99 over time.")
  int window;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    DemandProfile first = DemandProfile.read(profile);
    DemandProfile second = shiftTo == null ? null : DemandProfile.read(shiftTo);
    DemandProfile all = second == null ? first : concat(first, second);
    Calibration c = calibration.load(first, err);
    Simulator.WorkModel workModel = Simulator.WorkModel.valueOf(model.toUpperCase(Locale.ROOT));
    List<String> specs = PolicyRegistry.standard().split(compare);
    String autoArgs = settings + ",max-degree=" + maxDegree;
    AutoSettings autoSettings =
        Usage.check(spec, "--settings: ", () -> AutoSettings.parse(autoArgs));
    out.printf(
        "auto:%s, rebuilding inline, against %s; %d cores, degree cap %d, %s model, %d requests a"
            + " run (the first %d a warm-up), %d seeds%s%n%n",
        autoArgs,
        specs,
        cores,
        maxDegree,
        model,
        requests,
        requests / 10,
        seeds,
        c == null ? "" : ", calibrated");
    for (double rate : rps) {
      double[] autoP99 = new double[seeds];
      double[][] others = new double[specs.size()][seeds];
      double[] autoAfter = new double[seeds];
      double[][] othersAfter = new double[specs.size()][seeds];
      List<String> notes = new ArrayList<>();
      List<double[]> autoWindows = new ArrayList<>();
      List<double[][]> otherWindows = new ArrayList<>();
      for (int s = 0; s < seeds; s++) {
        PointPlan point = plan(first, second, rate, s + 1);
        Simulator.Config config =
            new Simulator.Config(
                    cores,
                    Simulator.Config.of(cores, requests).quantumNanos(),
                    Simulator.Config.of(cores, requests).longThresholdNanos(),
                    point.warmupRequests(),
                    100_000,
                    List.of(),
                    workModel)
                .withCalibration(c);
        long[] latency = new long[requests];
        long[] arrivals = new long[requests];
        long firstRebuild;
        try (AutoPolicy auto = AutoPolicy.forSimulation(autoSettings)) {
          Simulator sim = new Simulator(all, auto, config);
          sim.completionListener(
              (id, arrival, end) -> {
                latency[(int) id] = end - arrival;
                arrivals[(int) id] = arrival;
              });
          PointResult r = sim.run(point, "auto");
          autoP99[s] = r.saturated() ? Double.POSITIVE_INFINITY : r.latencyAt("p99");
          autoWindows.add(windows(latency));
          AutoStatus status = auto.status();
          firstRebuild = status.firstRebuildNanos();
          notes.add(describe(status));
        }
        // The requests that arrived after auto's first rebuild that compared candidates: those
        // the goal is about, and the same requests (by arrival) of every other policy.
        int from = requests;
        for (int i = 0; i < requests; i++) {
          if (firstRebuild >= 0 && arrivals[i] >= firstRebuild) {
            from = i;
            break;
          }
        }
        autoAfter[s] = p99From(latency, from);
        double[][] ow = new double[specs.size()][];
        for (int k = 0; k < specs.size(); k++) {
          long[] lat = new long[requests];
          String sp = specs.get(k).replace("{rps}", BaselineText.rate(rate));
          try (Policy p = DegreeCap.of(PolicyRegistry.of(sp), maxDegree)) {
            Simulator sim = new Simulator(all, p, config);
            sim.completionListener((id, arrival, end) -> lat[(int) id] = end - arrival);
            PointResult r = sim.run(point, "auto");
            others[k][s] = r.saturated() ? Double.POSITIVE_INFINITY : r.latencyAt("p99");
          }
          othersAfter[k][s] = p99From(lat, from);
          ow[k] = windows(lat);
        }
        otherWindows.add(ow);
      }
      out.printf(
          "## %s rps%n%n| policy | P99 ms, median [range] | / best other | P99 ms after auto's"
              + " first rebuild | / best other |%n|---|---|---|---|---|%n",
          BaselineText.rate(rate));
      double best = Double.POSITIVE_INFINITY;
      String bestName = "";
      for (int k = 0; k < specs.size(); k++) {
        if (Median.of(others[k]) < best) {
          best = Median.of(others[k]);
          bestName = specs.get(k);
        }
      }
      double bestAfter = Double.POSITIVE_INFINITY;
      String bestAfterName = "";
      for (int k = 0; k < specs.size(); k++) {
        if (Median.of(othersAfter[k]) < bestAfter) {
          bestAfter = Median.of(othersAfter[k]);
          bestAfterName = specs.get(k);
        }
      }
      out.printf(
          "| auto | %s | %.2f (%s) | %s | %.2f (%s) |%n",
          cell(autoP99),
          Median.of(autoP99) / best,
          bestName,
          cell(autoAfter),
          Median.of(autoAfter) / bestAfter,
          bestAfterName);
      for (int k = 0; k < specs.size(); k++) {
        out.printf(
            "| %s | %s | %.2f | %s | %.2f |%n",
            specs.get(k),
            cell(others[k]),
            Median.of(others[k]) / best,
            cell(othersAfter[k]),
            Median.of(othersAfter[k]) / bestAfter);
      }
      out.println();
      for (int s = 0; s < seeds; s++) {
        out.printf("seed %d: %s%n", s + 1, notes.get(s));
      }
      if (second != null) {
        out.printf(
            "%nP99 (ms) of each window of %d requests by arrival, seed 1 (the mix shifts at"
                + " request %d):%n%n| window | auto |",
            window, requests / 2);
        for (String sp : specs) {
          out.printf(" %s |", sp);
        }
        out.printf("%n|---|---|%s%n", "---|".repeat(specs.size()));
        double[] a = autoWindows.get(0);
        for (int w = 0; w < a.length; w++) {
          out.printf("| %d-%d | %.2f |", w * window, (w + 1) * window - 1, a[w] / 1e6);
          for (int k = 0; k < specs.size(); k++) {
            out.printf(" %.2f |", otherWindows.get(0)[k][w] / 1e6);
          }
          out.println();
        }
      }
      out.println();
      out.flush();
    }
    return 0;
  }

  private PointPlan plan(DemandProfile first, DemandProfile second, double rate, long seed) {
    SweepPlan sweep = SweepPlan.counted("poisson", seed, requests);
    PointPlan a = sweep.point(rate, first.requests().size());
    if (second == null) {
      return a;
    }
    PointPlan b =
        SweepPlan.counted("poisson", seed + 1000, requests).point(rate, second.requests().size());
    int[] order = a.order().clone();
    for (int i = requests / 2; i < order.length; i++) {
      order[i] = first.requests().size() + b.order()[i];
    }
    return new PointPlan(
        a.offeredRps(), a.arrivals(), a.seed(), a.offsetsNanos(), order, a.warmupRequests());
  }

  private double[] windows(long[] latency) {
    double[] p99 = new double[latency.length / window];
    for (int w = 0; w < p99.length; w++) {
      p99[w] = p99(latency, w * window, (w + 1) * window);
    }
    return p99;
  }

  /** The nearest-rank P99 of the latencies of requests {@code from} on; NaN if none. */
  private static double p99From(long[] latency, int from) {
    return p99(latency, from, latency.length);
  }

  /** The nearest-rank P99 of the latencies of requests {@code from} to {@code to}; NaN if none. */
  private static double p99(long[] latency, int from, int to) {
    if (from >= to) {
      return Double.NaN;
    }
    long[] part = Arrays.copyOfRange(latency, from, to);
    Arrays.sort(part);
    return part[(int) Math.ceil(0.99 * part.length) - 1];
  }

  private static DemandProfile concat(DemandProfile a, DemandProfile b) {
    List<DemandProfile.Request> both = new ArrayList<>(a.requests());
    both.addAll(b.requests());
    return DemandProfile.of(a.environment(), a.settings(), true, both);
  }

  private static String describe(AutoStatus s) {
    AutoStatus.Verdict v = s.last();
    return String.format(
        Locale.ROOT,
        "%d rebuilds (%d swapped, %d kept, %d skipped, %d failed), %d rolled back, %d shifts, first compared at"
            + " %.3f s, serving %s at the end; CPU %.2f s a rebuild; reservoir %d samples, %d"
            + " KiB%s",
        s.rebuilds(),
        s.swaps(),
        s.kept(),
        s.skipped(),
        s.failures(),
        s.rollbacks(),
        s.shifts(),
        s.firstRebuildNanos() / 1e9,
        s.liveSpec(),
        s.rebuilds() == 0 ? 0 : s.cpuNanos() / 1e9 / s.rebuilds(),
        s.samplesHeld(),
        s.reservoirBytes() / 1024,
        v == null
            ? ""
            : "; last: "
                + v.reason()
                + "; median "
                + ms(v.medianNanos())
                + " ms, speedup "
                + v.speedups()
                + " ("
                + v.trials().stream()
                    .map(t -> t.spec() + " " + ms(t.p99Nanos()))
                    .reduce((x, y) -> x + ", " + y)
                    .orElse("")
                + ")");
  }

  private static String cell(double[] v) {
    double[] c = v.clone();
    Arrays.sort(c);
    return String.format(
        Locale.ROOT, "%s [%s-%s]", ms(c[c.length / 2]), ms(c[0]), ms(c[c.length - 1]));
  }

  private static String ms(double nanos) {
    return Double.isInfinite(nanos) ? "sat." : String.format(Locale.ROOT, "%.2f", nanos / 1e6);
  }

  /** The rate as the reports print it. */
  private static final class BaselineText {
    static String rate(double rps) {
      return rps == Math.rint(rps) ? String.valueOf((long) rps) : String.valueOf(rps);
    }
  }
}
