package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.policy.PolicyRegistry;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options a sweep shares, real ({@code replay}) or simulated ({@code simulate}): which policies
 * at which loads, the arrivals and their seed, the latency targets, and where the report goes.
 */
final class SweepOptions {

  /**
   * A replayed point's default length, warm-up included: {@code replay}'s and so {@code
   * fidelity}'s, which must re-create the replay's points.
   */
  static final String DEFAULT_DURATION = "60s";

  /** The default seed of arrivals and request order. */
  static final long DEFAULT_SEED = 42;

  /** The default arrival process. */
  static final String DEFAULT_ARRIVALS = "poisson";

  /** A replayed point's default warm-up, as {@link #DEFAULT_DURATION}. */
  static final String DEFAULT_WARMUP = "10s";

  @Option(
      names = "--policies",
      defaultValue = "seq,fixed:2",
      description =
          "Policy specifications, comma-separated (./tailor policies; default ${DEFAULT-VALUE}).")
  String policyList;

  @Option(
      names = "--rps",
      split = ",",
      required = true,
      description = "Offered loads, requests per second, e.g. 5,10,20.")
  List<Double> rps;

  @Option(
      names = "--arrivals",
      defaultValue = DEFAULT_ARRIVALS,
      description = "poisson or lognormal:CV (default ${DEFAULT-VALUE}).")
  String arrivals;

  @Option(
      names = "--seed",
      defaultValue = "" + DEFAULT_SEED,
      description = "Seed of arrivals and request order (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--targets",
      split = ",",
      defaultValue = "50ms,100ms",
      description = "Latency targets for miss ratios (default ${DEFAULT-VALUE}).")
  List<String> targets;

  @Option(
      names = "--cdf-rps",
      description = "The load whose latency CDF is plotted (default: the highest unsaturated).")
  Double cdfRps;

  @Option(names = "--out", description = "The report's directory (default: reports/COMMAND-TIME).")
  Path out;

  /** The policy specifications; an unknown name fails here, listing the known ones. */
  List<String> policies() {
    return PolicyRegistry.standard().splitList(policyList);
  }

  /** The latency targets in nanoseconds. */
  List<Long> targetNanos() {
    List<Long> out = new ArrayList<>();
    for (String t : targets) {
      out.add(Durations.parseNanos(t));
    }
    return out;
  }

  /** The plotted CDF's load, or NaN for the highest unsaturated one. */
  double cdfLoad() {
    return cdfRps == null ? Double.NaN : cdfRps;
  }

  /** The report's directory: {@code --out}, else {@code reports/COMMAND-TIME}. */
  Path reportDir(String command) {
    if (out != null) {
      return out;
    }
    String time = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    return TailorHome.root().resolve("reports").resolve(command + "-" + time);
  }
}
