package dev.tailor.cli;

import dev.tailor.core.Durations;
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

  @Option(
      names = "--cores",
      required = true,
      paramLabel = "C",
      description = "Cores of the machine the table is for.")
  int cores;

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

  @Option(
      names = "--mode",
      defaultValue = "throughput",
      paramLabel = "MODE",
      description =
          "throughput (default): each row for the arrival rate that produces its load, no waits;"
              + " paper: the paper's Fig. 7 search, which delays requests under load and"
              + " saturates a capped pool early.")
  String mode;

  /** The grid's options under a rule. */
  FmTableBuilder.Options options(CommandSpec spec, IntervalTable.Rule rule) {
    try {
      return new FmTableBuilder.Options(
          cores,
          rule,
          maxDegree,
          degrees,
          duration(spec, "--step", step),
          horizon == null ? 0 : duration(spec, "--horizon", horizon),
          phi,
          loads(spec),
          bins,
          threads != null ? threads : Runtime.getRuntime().availableProcessors());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
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

  /** A duration option, or a usage error naming it. */
  static long duration(CommandSpec spec, String option, String text) {
    try {
      return Durations.parseNanos(text);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage(), e);
    }
  }
}
