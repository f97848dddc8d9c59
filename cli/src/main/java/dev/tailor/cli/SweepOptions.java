package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.WorkloadSpread;
import dev.tailor.sweep.DemoSweep;
import dev.tailor.sweep.PolicyList;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options a sweep shares, real ({@code replay}) or simulated ({@code simulate}): which policies
 * (a bare {@code oracle} among them tuned per load) at which loads, how many times and under which
 * degree cap, the arrivals and their seed, the latency targets (one of them the report's target),
 * and where the report goes.
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
  static final String DEFAULT_WARMUP = "2s";

  @Option(
      names = "--policies",
      defaultValue = "seq,fixed:2",
      description =
          "Policy specifications, comma-separated (default ${DEFAULT-VALUE}); a real sweep also"
              + " runs plain Lucene: lucene, lucene-executor:N, elasticsearch:N.")
  String policyList;

  @Option(names = "--rps", split = ",", description = "Offered loads, req/s (or --loads).")
  List<Double> rps;

  @Option(
      names = "--loads",
      split = ",",
      paramLabel = "SHARE",
      description =
          "Offered loads as shares of the capacity the --profile says the cores sustain running"
              + " each query alone, each in (0, 1.5], e.g. 0.05,0.15,0.4,0.7 (or --rps).")
  List<Double> loads;

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
      names = "--target",
      paramLabel = "DURATION",
      converter = LatencyTarget.class,
      description = "The latency target (SLO) the report judges miss ratios by, e.g. 20ms.")
  Long target;

  @Option(names = "--cdf-rps", description = "The CDF plot's load (default: highest unsaturated).")
  Double cdfRps;

  @Option(names = "--out", description = "The report's directory (default: reports/COMMAND-TIME).")
  Path out;

  @Option(
      names = "--repeat",
      defaultValue = "1",
      paramLabel = "N",
      description =
          "Run every point N times: every repetition runs every load in turn, the policies in"
              + " rotating order (default ${DEFAULT-VALUE}).")
  int repeat;

  @Option(names = "--max-degree", paramLabel = "N", description = "Degree cap (default: none).")
  Integer maxDegree;

  /**
   * Sets the offered loads: {@code --rps} as given, or {@code --loads} as shares of what {@code
   * cores} sustain by the profile ({@link DemoSweep#loads}). Call before reading {@link #rps}.
   *
   * @param demand the sweep's demand profile, or null where it has none
   * @throws IllegalArgumentException if neither or both are given, {@code --loads} has no profile,
   *     or a share is outside (0, 1.5]
   */
  void resolveLoads(DemandProfile demand, int cores) {
    if (rps != null && loads != null) {
      throw new IllegalArgumentException("give --rps or --loads, not both");
    }
    if (loads != null) {
      if (demand == null) {
        throw new IllegalArgumentException(
            "--loads are shares of the capacity a demand profile gives: add --profile");
      }
      rps = DemoSweep.loads(WorkloadSpread.of(demand), cores, loads);
    }
    if (rps == null || rps.isEmpty()) {
      throw new IllegalArgumentException(
          "give the offered loads: --rps (requests/s) or --loads (shares of capacity)");
    }
  }

  /**
   * The policy specifications of a real sweep ({@link PolicyList#parse}), the plain Lucene
   * baselines among them; an unknown name fails, listing the known.
   */
  List<String> policies() {
    return PolicyList.parse(policyList, rps);
  }

  /**
   * The policy specifications of a simulated sweep ({@link PolicyList#parseSimulated}): a plain
   * Lucene baseline fails, saying that only a real sweep runs it.
   */
  List<String> simulatedPolicies() {
    return PolicyList.parseSimulated(policyList, rps);
  }

  /** The repetitions; an {@link IllegalArgumentException} if {@code --repeat} is below 1. */
  int repetitions() {
    if (repeat < 1) {
      throw new IllegalArgumentException("--repeat must be >= 1, got " + repeat);
    }
    return repeat;
  }

  /** The degree cap, or 0 for none; an {@link IllegalArgumentException} below 1. */
  int degreeCap() {
    if (maxDegree == null) {
      return 0;
    }
    if (maxDegree < 1) {
      throw new IllegalArgumentException("--max-degree must be >= 1, got " + maxDegree);
    }
    return maxDegree;
  }

  /** The latency targets whose miss ratios every point records, {@code --target} among them. */
  List<Long> targetNanos() {
    List<Long> out = new ArrayList<>();
    for (String t : targets) {
      out.add(Durations.parseNanos(t));
    }
    return LatencyTarget.withTarget(out, target);
  }

  /** The report's latency target ({@code --target}) in nanoseconds, or 0 for none. */
  long latencyTarget() {
    return target == null ? 0 : target;
  }

  /** The plotted CDF's load, or NaN for the highest unsaturated one. */
  double cdfLoad() {
    return cdfRps == null ? Double.NaN : cdfRps;
  }

  /** The report's directory: {@code --out}, else {@code reports/COMMAND-TIME}. */
  Path reportDir(String command) {
    return out != null ? out : defaultReportDir(command);
  }

  /** {@code reports/COMMAND-TIME} under the checkout. */
  static Path defaultReportDir(String command) {
    String time = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    return TailorHome.root().resolve("reports").resolve(command + "-" + time);
  }
}
