package dev.tailor.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.Durations;
import dev.tailor.core.json.JsonFile;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.table.Digests;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TargetTable;
import dev.tailor.core.table.ThresholdTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.model.Workload;
import dev.tailor.tables.FmTableBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tailor tables}: build, show and validate the policies' tables. */
@Command(
    name = "tables",
    mixinStandardHelpOptions = true,
    description = "Build, show and validate the tables the table-driven policies read.",
    subcommands = {
      TablesCommand.Build.class,
      TablesTuneCommand.class,
      TablesCommand.Show.class,
      TablesCommand.Validate.class
    })
final class TablesCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code tables build KIND}. */
  @Command(
      name = "build",
      mixinStandardHelpOptions = true,
      description = "Build a table from a demand profile.",
      subcommands = {BuildFm.class, TablesBuildTpcCommand.class, TablesBuildTcCommand.class})
  static final class Build implements Runnable {
    @Spec CommandSpec spec;

    @Override
    public void run() {
      spec.commandLine().usage(spec.commandLine().getOut());
    }
  }

  /** {@code tables build fm}: the Few-to-Many interval table. */
  @Command(
      name = "fm",
      mixinStandardHelpOptions = true,
      description = {
        "Build a Few-to-Many interval table: for each load, the schedule (the time at each degree)"
            + " with the lowest tail that the load allows. Under the throughput rule (default) a"
            + " row is built for the arrival rate that produces its load and keeps the busy"
            + " thread time within --utilization of the cores; under --mode paper, the paper's"
            + " Fig. 7 search keeps q*A(S) within --target-parallelism.",
        "The table records its inputs and the profile's SHA-256; the file is replaced atomically,"
            + " so a running policy watching it swaps to it."
      })
  static final class BuildFm implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin FmTableOptions grid;

    @Option(
        names = "--target-parallelism",
        paramLabel = "T",
        description =
            "Paper mode: threads the requests may keep busy on average (slightly above the"
                + " cores).")
    Double targetParallelism;

    @Option(
        names = "--utilization",
        defaultValue = "1.0",
        paramLabel = "RHO",
        description =
            "Throughput mode: the share of the cores the busy thread time may fill (default"
                + " ${DEFAULT-VALUE}).")
    double utilization;

    @Option(
        names = "--queue-factor",
        defaultValue = "1.3",
        paramLabel = "QS",
        description =
            "Throughput mode: requests in the system per request in service, >= 1 (default"
                + " ${DEFAULT-VALUE}; ./tailor tables tune chooses it).")
    double queueFactor;

    @Override
    public Integer call() throws IOException {
      PrintWriter err = spec.commandLine().getErr();
      IntervalTable.Rule rule;
      try {
        if (grid.paper(spec)) {
          if (targetParallelism == null) {
            throw new ParameterException(
                spec.commandLine(), "--mode paper needs --target-parallelism");
          }
          rule = IntervalTable.Rule.paper(targetParallelism);
        } else {
          if (targetParallelism != null) {
            throw new ParameterException(
                spec.commandLine(),
                "--target-parallelism is the paper's rule: add --mode paper, or use"
                    + " --utilization and --queue-factor");
          }
          rule = IntervalTable.Rule.throughput(utilization, queueFactor);
        }
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage(), e);
      }
      FmTableBuilder.Options options = grid.options(spec, rule);
      // A bad profile or grid propagates to TailorCommand, which prints its message (naming the
      // file and the field) after "tailor tables build:".
      DemandProfile demand = DemandProfile.read(grid.profile);
      IntervalTable table =
          new FmTableBuilder(options)
              .build(Workload.of(demand), grid.profile.toString(), Digests.sha256(grid.profile));
      table.write(grid.out);
      PrintWriter o = spec.commandLine().getOut();
      Show.print(table, o);
      o.flush();
      err.printf(
          "built %s: %d rows from %d requests%s in %.1f s%n",
          grid.out,
          table.rows().size(),
          demand.requests().size(),
          grid.bins > 0 ? " in " + grid.bins + " bins" : "",
          table.buildSeconds());
      err.flush();
      return 0;
    }
  }

  /** {@code tables show FILE}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Print a table's inputs and rows readably.")
  static final class Show implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The table.")
    Path file;

    @Override
    public Integer call() throws IOException {
      PrintWriter out = spec.commandLine().getOut();
      out.printf("%s%n", file);
      switch (kind(file)) {
        case TargetTable.KIND -> print(TargetTable.read(file), out);
        case ThresholdTable.KIND -> print(ThresholdTable.read(file), out);
        default -> print(IntervalTable.read(file), out);
      }
      out.flush();
      return 0;
    }

    static void print(TargetTable t, PrintWriter out) {
      TargetTable.Inputs in = t.inputs();
      TargetTable.Groups g = t.groups();
      out.printf(
          "tpc-target table built %s in %.1f s from %s (%s)%n",
          t.builtAt(), t.buildSeconds(), in.profile(), in.profileDigest());
      out.printf(
          "  %d requests; predictions: %s%s%n",
          in.requests(),
          in.predictions(),
          in.model() == null ? "" : " by " + in.model() + " (" + in.modelDigest() + ")");
      out.printf(
          "  %d cores, P = %d; weighted %s at %s rps (weights %s); step %s; %d seed(s), %s"
              + " work%n",
          in.cores(),
          in.maxDegree(),
          in.quantile() == 0.99 ? "p99" : "p99.9",
          numbers(in.ratesRps()),
          numbers(in.weights()),
          ms(in.stepNanos()),
          in.seeds(),
          in.workModel());
      out.printf(
          "  groups: short < %s <= medium < %s <= long (also the long flag's threshold)%n",
          ms(g.mediumFromNanos()), ms(g.longFromNanos()));
      out.printf(
          "  speedups: short %s; medium %s; long %s%n",
          curve(g.shortCurve(), in.maxDegree()),
          curve(g.mediumCurve(), in.maxDegree()),
          curve(g.longCurve(), in.maxDegree()));
      TargetTable.Search s = t.search();
      out.printf(
          "  search: %d steps, %d tables simulated; weighted tail %.3f ms -> %.3f ms%n",
          s.iterations(), s.measurements(), s.initialTailNanos() / 1e6, s.finalTailNanos() / 1e6);
      out.printf("%n  %-14s %12s%n", in.loadMetric().label(), "target");
      int from = 0;
      for (TargetTable.Row r : t.rows()) {
        boolean last = r.upToLongThreads() == TargetTable.INFINITE;
        String loads =
            last
                ? from + " and more"
                : from == r.upToLongThreads()
                    ? Integer.toString(from)
                    : from + ".." + r.upToLongThreads();
        out.printf("  %-14s %12s%n", loads, ms(r.targetNanos()));
        from = last ? from : r.upToLongThreads() + 1;
      }
    }

    static void print(ThresholdTable t, PrintWriter out) {
      ThresholdTable.Inputs in = t.inputs();
      out.printf(
          "tc-threshold table built %s in %.3f s from %s%s%n",
          t.builtAt(),
          t.buildSeconds(),
          in.source(),
          in.sourceDigest() == null ? "" : " (" + in.sourceDigest() + ")");
      out.printf(
          "  %d requests in %d %s bins, mean work %s; target %s at %s rps on %d cores"
              + " (utilization %.2f cores, %.0f%%)%n",
          in.requests(),
          in.bins(),
          in.binning(),
          ms(in.meanWorkNanos()),
          ms(in.targetNanos()),
          trim(in.rps()),
          in.cores(),
          in.utilization(),
          100 * in.utilization() / in.cores());
      out.printf("%n  %-16s %14s %16s%n", "active requests", "threshold", "expected misses");
      List<ThresholdTable.Row> rows = t.rows();
      int from = 0;
      for (int i = 0; i < rows.size(); i++) {
        ThresholdTable.Row r = rows.get(i);
        boolean last = i == rows.size() - 1;
        // Consecutive loads with the same threshold share a line.
        if (!last && rows.get(i + 1).thresholdNanos() == r.thresholdNanos()) {
          continue;
        }
        String loads =
            last
                ? rows.get(from).activeRequests() + " and more"
                : from == i
                    ? Integer.toString(r.activeRequests())
                    : rows.get(from).activeRequests() + ".." + r.activeRequests();
        out.printf(
            "  %-16s %14s %16.2f%n",
            loads, ms(r.thresholdNanos()), rows.get(from).expectedMisses());
        from = i + 1;
      }
    }

    private static String ms(long nanos) {
      return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }

    private static String curve(SpeedupCurve c, int maxDegree) {
      StringBuilder b = new StringBuilder();
      for (int d = 1; d <= maxDegree; d++) {
        b.append(d == 1 ? "" : " ").append(String.format(Locale.ROOT, "%.2f", c.at(d)));
      }
      return b.toString();
    }

    private static String numbers(double[] values) {
      StringBuilder b = new StringBuilder();
      for (double v : values) {
        b.append(b.isEmpty() ? "" : ",").append(trim(v));
      }
      return b.toString();
    }

    static void print(IntervalTable t, PrintWriter out) {
      IntervalTable.Inputs in = t.inputs();
      IntervalTable.Rule rule = in.rule();
      out.printf(
          "fm-interval table built %s in %.1f s from %s (%s)%n",
          t.builtAt(), t.buildSeconds(), in.profile(), in.profileDigest());
      out.printf(
          "  %d requests%s; %d cores; rule: %s; degrees %s; step %s, horizon %s; phi %s%n",
          in.requests(),
          in.bins() > 0 ? " in " + in.bins() + " bins" : "",
          in.cores(),
          rule,
          Arrays.toString(in.degrees()),
          Durations.format(in.stepNanos()),
          Durations.format(in.horizonNanos()),
          trim(in.phi()));
      if (in.tuning() != null) {
        out.printf("  %s%n", in.tuning());
      }
      if (rule.isPaper()) {
        out.printf(
            "%n  %5s  %-56s %10s %10s %6s %7s%n", "load", "schedule", "tail", "mean", "A", "q*A");
      } else {
        out.printf(
            "%n  %5s  %-56s %10s %10s %6s %9s %6s%n",
            "load", "schedule", "tail", "mean", "A", "rate", "util");
      }
      for (IntervalTable.Row r : t.rows()) {
        if (rule.isPaper()) {
          out.printf(
              "  %5d  %-56s %8.1fms %8.1fms %6.2f %7.2f%s%n",
              r.load(),
              r.schedule().pairs(),
              r.tailNanos() / 1e6,
              r.meanNanos() / 1e6,
              r.parallelism(),
              r.load() * r.parallelism(),
              r.load() * r.parallelism() > rule.targetParallelism() * (1 + 1e-9)
                  ? "  (over target: nothing fits)"
                  : "");
        } else {
          // The share of the cores the row's busy time fills at its rate: <= the utilization,
          // except where no schedule keeps up (the leanest, and the queue grows).
          double util = r.arrivalRate() * r.parallelism() * r.meanNanos() / 1e9 / in.cores();
          out.printf(
              "  %5d  %-56s %8.2fms %8.2fms %6.2f %7.1f/s %5.0f%%%n",
              r.load(),
              r.schedule().pairs(),
              r.tailNanos() / 1e6,
              r.meanNanos() / 1e6,
              r.parallelism(),
              r.arrivalRate(),
              100 * util);
        }
      }
      out.printf("  loads above %d read the last row%n", t.rows().size());
    }

    private static String trim(double v) {
      return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
  }

  /** {@code tables validate FILE}. */
  @Command(
      name = "validate",
      mixinStandardHelpOptions = true,
      description = {
        "Check a table file; on a problem, name the field and exit 1.",
        "With --profile, also check that the table was built from that profile (its SHA-256)."
      })
  static final class Validate implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The table.")
    Path file;

    @Option(
        names = "--profile",
        paramLabel = "FILE",
        description = "The profile the table should have been built from.")
    Path profile;

    @Override
    public Integer call() throws IOException {
      String kind;
      int rows;
      String builtAt;
      String profileDigest;
      if (kind(file).equals(TargetTable.KIND)) {
        TargetTable t = TargetTable.read(file);
        kind = TargetTable.KIND;
        rows = t.rows().size();
        builtAt = t.builtAt();
        profileDigest = t.inputs().profileDigest();
      } else if (kind(file).equals(ThresholdTable.KIND)) {
        ThresholdTable t = ThresholdTable.read(file);
        kind = ThresholdTable.KIND;
        rows = t.rows().size();
        builtAt = t.builtAt();
        profileDigest =
            t.inputs().sourceDigest() != null ? t.inputs().sourceDigest() : t.inputs().source();
      } else {
        IntervalTable t = IntervalTable.read(file);
        kind = IntervalTable.KIND;
        rows = t.rows().size();
        builtAt = t.builtAt();
        profileDigest = t.inputs().profileDigest();
      }
      if (profile != null) {
        String digest = Digests.sha256(profile);
        if (!digest.equals(profileDigest)) {
          throw new IOException(
              file
                  + ": inputs.profileDigest: built from "
                  + profileDigest
                  + ", but "
                  + profile
                  + " is "
                  + digest);
        }
      }
      spec.commandLine()
          .getOut()
          .printf(
              "%s: valid %s table, %d rows, built %s from %s%n",
              file, kind, rows, builtAt, profileDigest);
      spec.commandLine().getOut().flush();
      return 0;
    }
  }

  /**
   * The kind a table file says it is ({@code tpc-target}, {@code tc-threshold}, ...), or empty;
   * anything but a target or threshold table is read as an interval table, whose reader names what
   * is wrong with it.
   */
  static String kind(Path file) throws IOException {
    JsonNode root = JsonFile.readTree(file);
    return root.isObject() ? root.path("kind").asText() : "";
  }
}
