package dev.tailor.cli;

import dev.tailor.core.table.Digests;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.model.Workload;
import dev.tailor.tables.FmTableBuilder;
import dev.tailor.tables.TableFile;
import dev.tailor.tables.TableText;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
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
final class TablesCommand extends GroupCommand {

  /** {@code tables build KIND}. */
  @Command(
      name = "build",
      mixinStandardHelpOptions = true,
      description = "Build a table from a demand profile.",
      subcommands = {BuildFm.class, TablesBuildTpcCommand.class, TablesBuildTcCommand.class})
  static final class Build extends GroupCommand {}

  /** {@code tables build fm}: the Few-to-Many interval table. */
  @Command(
      name = "fm",
      mixinStandardHelpOptions = true,
      description = {
        "Build a Few-to-Many interval table: for each load, the schedule (the time at each degree)"
            + " with the lowest tail that the load allows. Under the throughput rule (default) a"
            + " row is built for the arrival rate that produces its load and keeps the busy"
            + " thread time within --utilization of the cores; under --mode paper, the paper's"
            + " Fig. 7 search keeps q*A(S) within --target-parallelism."
      })
  static final class BuildFm implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin FmTableOptions grid;

    @Option(
        names = "--target-parallelism",
        paramLabel = "T",
        description = "Paper mode: threads the requests may keep busy on average.")
    Double targetParallelism;

    @Option(
        names = "--utilization",
        defaultValue = "1.0",
        paramLabel = "RHO",
        description = "Throughput mode: the share of the cores busy (default ${DEFAULT-VALUE}).")
    double utilization;

    @Option(
        names = "--queue-factor",
        defaultValue = "1.3",
        paramLabel = "QS",
        description =
            "Throughput mode: requests in the system per one served (default ${DEFAULT-VALUE}).")
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
      TableText.print(table, o);
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
      TableFile.print(file, out);
      out.flush();
      return 0;
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
      TableFile t = TableFile.read(file);
      if (profile != null) {
        t.checkBuiltFrom(file, profile);
      }
      PrintWriter out = spec.commandLine().getOut();
      out.printf(
          "%s: valid %s table, %d rows, built %s from %s%n",
          file, t.kind(), t.rows(), t.builtAt(), t.sourceDigest());
      out.flush();
      return 0;
    }
  }
}
