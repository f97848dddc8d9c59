package dev.tailor.cli;

import dev.tailor.core.table.IntervalTable;
import dev.tailor.tables.FmTableBuilder;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The profile, the output and the Few-to-Many grid and mode that {@code build fm} and {@code tune
 * fm} share.
 */
final class FmTableOptions {
  @Option(names = "--profile", required = true, paramLabel = "FILE", description = "The profile.")
  Path profile;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The table JSON.")
  Path out;

  @Option(names = "--cores", required = true, paramLabel = "C", description = "The table's cores.")
  int cores;

  @Option(
      names = "--max-degree",
      defaultValue = "4",
      paramLabel = "N",
      description = "Highest degree (default ${DEFAULT-VALUE}).")
  int maxDegree;

  @Option(names = "--degrees", split = ",", paramLabel = "D", description = "Only these degrees.")
  int[] degrees;

  @Option(
      names = "--step",
      defaultValue = "10ms",
      paramLabel = "DURATION",
      description = "The grid's step (default ${DEFAULT-VALUE}).")
  String step;

  @Option(names = "--horizon", paramLabel = "DURATION", description = "The largest interval.")
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
      description = "Search over N demand bins (0: every request).")
  int bins;

  @Option(names = "--threads", paramLabel = "N", description = "Search threads (default: all).")
  Integer threads;

  @Option(
      names = "--mode",
      defaultValue = "throughput",
      paramLabel = "MODE",
      description =
          "throughput (default) or paper (Fig. 7's search, delaying requests under load).")
  String mode;

  /** The grid's options under a rule. */
  FmTableBuilder.Options options(CommandSpec spec, IntervalTable.Rule rule) {
    long stepNanos = duration(spec, "--step", step);
    long horizonNanos = horizon == null ? 0 : duration(spec, "--horizon", horizon);
    int q = loads(spec);
    int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
    return Usage.check(
        spec,
        () ->
            new FmTableBuilder.Options(
                cores, rule, maxDegree, degrees, stepNanos, horizonNanos, phi, q, bins, n));
  }

  /** Whether {@code --mode} names the paper's rule; any other value but throughput fails. */
  boolean paper(CommandSpec spec) {
    return switch (mode) {
      case IntervalTable.Rule.PAPER -> true;
      case IntervalTable.Rule.THROUGHPUT -> false;
      default ->
          throw new ParameterException(
              spec.commandLine(), "--mode: expected throughput or paper, got '" + mode + "'");
    };
  }

  /** {@code 1..Q} or {@code Q}. */
  private int loads(CommandSpec spec) {
    String t = loads.trim();
    try {
      int v = Integer.parseInt(t.startsWith("1..") ? t.substring(3) : t);
      if (v >= 1) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ParameterException(
        spec.commandLine(), "--loads: expected 1..Q or Q with Q >= 1, got '" + loads + "'");
  }

  /** A duration option, or a usage error naming it. */
  static long duration(CommandSpec spec, String option, String text) {
    return Usage.duration(spec, option, text);
  }
}
