package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.Scheduler;
import dev.tailor.core.io.AtomicFiles;
import dev.tailor.core.metrics.PointResult;
import dev.tailor.core.model.DemandProfile;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.load.report.Report;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.ArrivalProcess;
import dev.tailor.sim.arrival.RequestOrder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tailor fidelity}: how far to trust the simulator. For every measured point of a replay's
 * report it simulates the same profile, policy, rate, arrival sequence and query order, and prints
 * the simulated P50 and P99 beside the measured ones, with their relative error.
 */
@Command(
    name = "fidelity",
    mixinStandardHelpOptions = true,
    description = {
      "Simulate every measured point of a replay's report with the same profile, policy, rate,"
          + " arrival seed and query order, and print simulated and measured P50 and P99 side"
          + " by side with their error (also written to the report as fidelity.md).",
      "The profile must be of the replayed queries (the same trace and --limit), as the demo's"
          + " is; --duration and --warmup must be the replay's."
    })
final class FidelityCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--report",
      required = true,
      paramLabel = "DIR",
      description = "A replay's report directory (with points/*.json).")
  Path report;

  @Option(
      names = "--profile",
      required = true,
      paramLabel = "FILE",
      description = "The demand profile of the replayed queries.")
  Path profile;

  @Option(
      names = "--duration",
      defaultValue = "15s",
      description = "The replay's point length (default ${DEFAULT-VALUE}).")
  String duration;

  @Option(
      names = "--warmup",
      defaultValue = "3s",
      description = "The replay's warm-up (default ${DEFAULT-VALUE}).")
  String warmup;

  @Option(
      names = "--arrivals",
      defaultValue = "poisson",
      description = "The replay's arrival process (default ${DEFAULT-VALUE}).")
  String arrivals;

  @Option(
      names = "--cores",
      description = "Simulated threads (default: the cores the profile was taken on).")
  Integer cores;

  @Option(
      names = "--quantum",
      defaultValue = "5ms",
      description =
          "The policies' tick, as the replay's scheduler had it (default ${DEFAULT-VALUE}).")
  String quantum;

  @Override
  public Integer call() throws Exception {
    long durationNanos = Durations.parseNanos(duration);
    long warmupNanos = Durations.parseNanos(warmup);
    long quantumNanos = Durations.parseNanos(quantum);
    List<PointResult> measured = measuredPoints();
    if (measured.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(), report.resolve("points") + ": no measured point to compare");
    }
    DemandProfile demand = DemandProfile.read(profile);
    int workers = cores != null ? cores : demand.environment().cores();
    // The unit model is the runtime's and needs unit times; the fluid one is the tables'.
    List<Simulator.WorkModel> models =
        demand.requests().stream().allMatch(DemandProfile.Request::hasUnitTimes)
            ? List.of(Simulator.WorkModel.FLUID, Simulator.WorkModel.UNITS)
            : List.of(Simulator.WorkModel.FLUID);
    List<Row> rows = new ArrayList<>();
    PrintWriter err = spec.commandLine().getErr();
    for (PointResult real : measured) {
      ArrivalProcess process = ArrivalProcess.parse(arrivals, real.offeredRps(), real.seed());
      if (!process.toString().equals(real.arrivals())) {
        throw new ParameterException(
            spec.commandLine(),
            String.format(
                "%s at %s rps: the replay's arrivals were %s, --arrivals %s gives %s",
                real.policy(), real.offeredRps(), real.arrivals(), arrivals, process));
      }
      long[] offsets = process.schedule(durationNanos);
      int warm = 0;
      while (warm < offsets.length && offsets[warm] < warmupNanos) {
        warm++;
      }
      int[] order = RequestOrder.shuffled(offsets.length, demand.requests().size(), real.seed());
      Simulator.Labels labels =
          new Simulator.Labels(real.offeredRps(), real.arrivals(), real.seed(), real.corpus());
      PointResult[] sims = new PointResult[models.size()];
      for (int m = 0; m < sims.length; m++) {
        Simulator.Config config =
            new Simulator.Config(
                workers,
                quantumNanos,
                Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
                true,
                warm,
                Math.max(1_000, offsets.length),
                List.of(),
                models.get(m));
        sims[m] =
            new Simulator(demand, PolicyRegistry.of(real.policy()), config)
                .run(offsets, order, labels);
        if (sims[m].sent() != real.sent() && !real.saturated()) {
          err.printf(
              "warning: %s at %s rps: %d requests measured but %d simulated; were --duration and"
                  + " --warmup the replay's?%n",
              real.policy(), real.offeredRps(), real.sent(), sims[m].sent());
        }
      }
      rows.add(new Row(real, sims));
    }
    String table = table(rows, workers, models);
    Path file = report.resolve(Report.FIDELITY);
    Path tmp = AtomicFiles.sibling(file, "fidelity");
    Files.writeString(tmp, table);
    AtomicFiles.moveIntoPlace(tmp, file);
    PrintWriter out = spec.commandLine().getOut();
    out.print(table);
    out.printf("written to %s%n", file);
    out.flush();
    return 0;
  }

  private List<PointResult> measuredPoints() throws IOException {
    Path points = report.resolve("points");
    if (!Files.isDirectory(points)) {
      throw new ParameterException(
          spec.commandLine(), points + ": not a directory; is " + report + " a replay's report?");
    }
    List<PointResult> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(points)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        PointResult p = PointResult.read(f);
        if (!p.environment().startsWith("simulated")) {
          out.add(p);
        }
      }
    }
    out.sort(
        Comparator.comparingDouble(PointResult::offeredRps).thenComparing(PointResult::policy));
    return out;
  }

  private String table(List<Row> rows, int workers, List<Simulator.WorkModel> models) {
    StringBuilder md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "Simulator fidelity: profile %s simulated on %d cores against the measured points"
                + " of %s.%nError = (simulated - measured) / measured. Work models: fluid is"
                + " Few-to-Many's (the tables' model), units the runtime's.%n%n",
            profile.getFileName(),
            workers,
            report));
    StringBuilder header = new StringBuilder("| policy | load (rps) |");
    StringBuilder rule = new StringBuilder("|---|---|");
    for (String pct : List.of("P50", "P99")) {
      header.append(' ').append(pct).append(" measured (ms) |");
      rule.append("---|");
      for (Simulator.WorkModel m : models) {
        String name = m.name().toLowerCase(Locale.ROOT);
        header.append(' ').append(pct).append(' ').append(name).append(" (ms) | error |");
        rule.append("---|---|");
      }
    }
    md.append(header).append('\n').append(rule).append('\n');
    for (Row r : rows) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %.0f |",
              Report.displayName(r.real.policy()),
              r.real.offeredRps()));
      for (String pct : List.of("p50", "p99")) {
        md.append(' ').append(ms(r.real, pct)).append(" |");
        for (PointResult sim : r.sims) {
          md.append(' ').append(ms(sim, pct)).append(" | ");
          md.append(error(r.real, sim, pct)).append(" |");
        }
      }
      md.append('\n');
    }
    return md.toString();
  }

  private static String ms(PointResult p, String pct) {
    return p.saturated() ? "sat." : String.format(Locale.ROOT, "%.2f", p.latencyAt(pct) / 1e6);
  }

  private static String error(PointResult real, PointResult sim, String pct) {
    if (real.saturated() || sim.saturated()) {
      return "-";
    }
    double measured = real.latencyAt(pct);
    return String.format(Locale.ROOT, "%+.0f%%", 100 * (sim.latencyAt(pct) - measured) / measured);
  }

  private record Row(PointResult real, PointResult[] sims) {}
}
