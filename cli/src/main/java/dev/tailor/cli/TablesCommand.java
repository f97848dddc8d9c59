package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.model.DemandProfile;
import dev.tailor.core.table.Digests;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.sim.model.Workload;
import dev.tailor.tables.FmTableBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
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
      subcommands = {BuildFm.class})
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
        "Build a Few-to-Many interval table: for each load, the schedule (wait, then the time at"
            + " each degree) with the lowest tail, then mean, among those keeping at most the"
            + " target parallelism busy (the paper's Fig. 7 search).",
        "The table records its inputs and the profile's SHA-256; the file is replaced atomically,"
            + " so a running policy watching it swaps to it."
      })
  static final class BuildFm implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--profile", required = true, paramLabel = "FILE", description = "The profile.")
    Path profile;

    @Option(
        names = "--cores",
        required = true,
        paramLabel = "C",
        description = "Cores of the machine the table is for.")
    int cores;

    @Option(
        names = "--target-parallelism",
        required = true,
        paramLabel = "T",
        description = "Threads the requests may keep busy on average (slightly above the cores).")
    double targetParallelism;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The table JSON.")
    Path out;

    @Option(
        names = "--max-degree",
        defaultValue = "4",
        paramLabel = "N",
        description = "Highest degree (default ${DEFAULT-VALUE}).")
    int maxDegree;

    @Option(
        names = "--degrees",
        split = ",",
        paramLabel = "D",
        description = "Only these degrees, e.g. 1,3 (default: 1..N).")
    int[] degrees;

    @Option(
        names = "--step",
        defaultValue = "10ms",
        paramLabel = "DURATION",
        description = "The grid's step (default ${DEFAULT-VALUE}).")
    String step;

    @Option(
        names = "--horizon",
        paramLabel = "DURATION",
        description = "The largest interval (default: the longest request's time).")
    String horizon;

    @Option(
        names = "--phi",
        defaultValue = "0.99",
        description = "The tail's quantile (default ${DEFAULT-VALUE}).")
    double phi;

    @Option(
        names = "--loads",
        defaultValue = "1..32",
        paramLabel = "1..Q",
        description = "The rows: loads 1 to Q (default ${DEFAULT-VALUE}).")
    String loads;

    @Option(
        names = "--bin",
        defaultValue = "0",
        paramLabel = "N",
        description = "Search over N demand bins instead of every request (default: every one).")
    int bins;

    @Option(
        names = "--threads",
        paramLabel = "N",
        description = "Search threads (default: this machine's processors).")
    Integer threads;

    @Override
    public Integer call() throws IOException {
      PrintWriter err = spec.commandLine().getErr();
      FmTableBuilder.Options options;
      try {
        options =
            new FmTableBuilder.Options(
                cores,
                targetParallelism,
                maxDegree,
                degrees,
                duration("--step", step),
                horizon == null ? 0 : duration("--horizon", horizon),
                phi,
                loads(),
                bins,
                threads != null ? threads : Runtime.getRuntime().availableProcessors());
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage(), e);
      }
      // A bad profile or grid propagates to TailorCommand, which prints its message (naming the
      // file and the field) after "tailor tables build:".
      DemandProfile demand = DemandProfile.read(profile);
      IntervalTable table =
          new FmTableBuilder(options)
              .build(Workload.of(demand), profile.toString(), Digests.sha256(profile));
      table.write(out);
      PrintWriter o = spec.commandLine().getOut();
      Show.print(table, o);
      o.flush();
      err.printf(
          "built %s: %d rows from %d requests%s in %.1f s%n",
          out,
          table.rows().size(),
          demand.requests().size(),
          bins > 0 ? " in " + bins + " bins" : "",
          table.buildSeconds());
      err.flush();
      return 0;
    }

    private long duration(String option, String text) {
      try {
        return Durations.parseNanos(text);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage(), e);
      }
    }

    /** {@code 1..Q} or {@code Q}. */
    private int loads() {
      String t = loads.trim();
      String q = t.startsWith("1..") ? t.substring(3) : t;
      try {
        int v = Integer.parseInt(q);
        if (v >= 1) {
          return v;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new ParameterException(
          spec.commandLine(), "--loads: expected 1..Q or Q with Q >= 1, got '" + loads + "'");
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
      IntervalTable table = IntervalTable.read(file);
      PrintWriter out = spec.commandLine().getOut();
      out.printf("%s%n", file);
      print(table, out);
      out.flush();
      return 0;
    }

    static void print(IntervalTable t, PrintWriter out) {
      IntervalTable.Inputs in = t.inputs();
      out.printf(
          "fm-interval table built %s in %.1f s from %s (%s)%n",
          t.builtAt(), t.buildSeconds(), in.profile(), in.profileDigest());
      out.printf(
          "  %d requests%s; %d cores, target parallelism %s; degrees %s; step %s, horizon %s;"
              + " phi %s%n",
          in.requests(),
          in.bins() > 0 ? " in " + in.bins() + " bins" : "",
          in.cores(),
          trim(in.targetParallelism()),
          Arrays.toString(in.degrees()),
          Durations.format(in.stepNanos()),
          Durations.format(in.horizonNanos()),
          trim(in.phi()));
      out.printf(
          "%n  %5s  %-56s %10s %10s %6s %7s%n", "load", "schedule", "tail", "mean", "A", "q*A");
      for (IntervalTable.Row r : t.rows()) {
        out.printf(
            "  %5d  %-56s %8.1fms %8.1fms %6.2f %7.2f%s%n",
            r.load(),
            r.schedule().pairs(),
            r.tailNanos() / 1e6,
            r.meanNanos() / 1e6,
            r.parallelism(),
            r.load() * r.parallelism(),
            r.load() * r.parallelism() > in.targetParallelism() * (1 + 1e-9)
                ? "  (over target: nothing fits)"
                : "");
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
      IntervalTable t = IntervalTable.read(file);
      if (profile != null) {
        String digest = Digests.sha256(profile);
        if (!digest.equals(t.inputs().profileDigest())) {
          throw new IOException(
              file
                  + ": inputs.profileDigest: built from "
                  + t.inputs().profileDigest()
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
              file, IntervalTable.KIND, t.rows().size(), t.builtAt(), t.inputs().profileDigest());
      spec.commandLine().getOut().flush();
      return 0;
    }
  }
}
