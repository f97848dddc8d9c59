package dev.tailor.cli;

import dev.tailor.core.table.TargetTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.tables.TableText;
import dev.tailor.tables.TpcTableBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tailor tables build tpc}: TPC's target table, by Algorithm 1 over the simulator. */
@Command(
    name = "tpc",
    mixinStandardHelpOptions = true,
    description = {
      "Build a TPC target table (Jeon et al., ASPLOS'16, Algorithm 1): for each load (threads on"
          + " long requests), the target completion time. From small targets, raise one entry by"
          + " the step at a time, keeping the step that lowers the weighted tail most over the"
          + " arrival rates of --rps, simulated with the very tpc policy that reads the table;"
          + " stop when no step helps.",
      "With --guard CURRENT the table is written only if its weighted tail is no worse than the"
          + " current one's; otherwise the command exits 3 (docs/operating.md)."
    })
final class TablesBuildTpcCommand implements Callable<Integer> {

  /** The exit code when the guard keeps the current table. */
  static final int KEPT = 3;

  @Spec CommandSpec spec;

  @Option(names = "--profile", required = true, paramLabel = "FILE", description = "The profile.")
  Path profile;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The table JSON.")
  Path out;

  @Mixin TpcTableOptions tpc;

  @Option(
      names = "--load-metric",
      defaultValue = "long-threads",
      paramLabel = "METRIC",
      description =
          "What a row's load counts: long-threads or all-threads (default ${DEFAULT-VALUE}).")
  String loadMetric;

  @Option(
      names = "--requests",
      defaultValue = "4000",
      paramLabel = "N",
      description = "Requests per simulated point (default ${DEFAULT-VALUE}).")
  int requests;

  @Option(
      names = "--seed",
      defaultValue = "1",
      paramLabel = "S",
      description = "The first seed (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--guard",
      paramLabel = "CURRENT",
      description = "Write the new table only if it is no worse than this one on the profile.")
  Path guard;

  @Mixin CalibrationOption calibration;

  @Option(
      names = "--for",
      paramLabel = "POLICY",
      defaultValue = "tpc",
      description = "The policy the search simulates, which will read the table: tpc or progress.")
  String reader;

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    DemandProfile demand = DemandProfile.read(profile);
    TpcTableBuilder builder = new TpcTableBuilder(options(), calibration.load(demand, err));
    if (reader.equals("progress")) {
      builder = builder.forProgress();
    } else if (!reader.equals("tpc")) {
      throw new ParameterException(
          spec.commandLine(), "--for: expected tpc or progress, got '" + reader + "'");
    }
    demand = tpc.predicted(spec, demand);
    TargetTable table = builder.build(demand, tpc.sources(profile, demand));
    PrintWriter o = spec.commandLine().getOut();
    TableText.print(table, o);
    o.flush();
    if (guard != null) {
      TargetTable current = TargetTable.read(guard);
      double now = builder.weightedTail(current, demand);
      double next = table.search().finalTailNanos();
      err.printf(
          Locale.ROOT,
          "guard: weighted %s tail %.3f ms for the new table, %.3f ms for %s%n",
          tpc.tail,
          next / 1e6,
          now / 1e6,
          guard);
      if (next > now) {
        err.printf("guard: kept %s; %s not written%n", guard, out);
        err.flush();
        return KEPT;
      }
    }
    table.write(out);
    err.printf(
        Locale.ROOT,
        "built %s: %d rows from %d requests in %.1f s (%d steps, %d tables simulated)%n",
        out,
        table.rows().size(),
        demand.requests().size(),
        table.buildSeconds(),
        table.search().iterations(),
        table.search().measurements());
    err.flush();
    return 0;
  }

  private TpcTableBuilder.Options options() {
    return tpc.options(spec, requests, seed, metric());
  }

  private TargetTable.LoadMetric metric() {
    TargetTable.LoadMetric m = TargetTable.LoadMetric.of(loadMetric);
    if (m == null) {
      throw new ParameterException(
          spec.commandLine(),
          "--load-metric: expected long-threads or all-threads, got " + loadMetric);
    }
    return m;
  }
}
