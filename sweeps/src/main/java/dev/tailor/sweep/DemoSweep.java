package dev.tailor.sweep;

import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.WorkloadSpread;
import dev.tailor.sim.HindsightOracle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code tailor demo} sweeps, chosen from its demand profile: the loads (shares of what the
 * profile says the cores sustain, as {@code replay --loads} takes them), the default latency
 * target, the policies, and the grid step of Few-to-Many's tables.
 */
public final class DemoSweep {

  /**
   * The sweep's loads, as shares of the requests/s the profile says the cores sustain: from a
   * lightly loaded node, where most deployments spend most hours, to saturation.
   */
  public static final List<Double> LOAD_SHARES = List.of(0.05, 0.15, 0.4, 0.7);

  /** The highest share of capacity a sweep may ask for: beyond it every point saturates. */
  public static final double MAX_SHARE = 1.5;

  /** How many times the profile's median sequential time the default latency target is. */
  public static final int TARGET_MEDIANS = 3;

  private DemoSweep() {}

  /**
   * The sweep's loads in requests/s, whole numbers of at least 1: {@link #LOAD_SHARES} of what
   * {@code cores} sustain running every request sequentially.
   */
  public static List<Double> loads(WorkloadSpread spread, int cores) {
    return loads(spread, cores, LOAD_SHARES);
  }

  /**
   * Loads in requests/s, whole numbers of at least 1: {@code shares} of what {@code cores} sustain
   * running every request sequentially ({@code cores / mean sequential time}). Served queries take
   * longer than profiled ones (the load client shares the cores, queries share the caches), so a
   * policy may saturate below a share of 1.
   *
   * @throws IllegalArgumentException naming the share if one is outside (0, {@value #MAX_SHARE}]
   */
  public static List<Double> loads(WorkloadSpread spread, int cores, List<Double> shares) {
    double capacity = capacity(spread, cores);
    List<Double> loads = new ArrayList<>();
    for (double share : shares) {
      if (!(share > 0 && share <= MAX_SHARE)) {
        throw new IllegalArgumentException(
            "--loads: "
                + share
                + " is not a share of capacity in (0, "
                + MAX_SHARE
                + "] (e.g. 0.05 for 5%; capacity here is "
                + Math.round(capacity)
                + " requests/s)");
      }
      loads.add((double) Math.round(Math.max(1, share * capacity)));
    }
    return loads;
  }

  /** What {@code cores} sustain running every profiled request alone, requests/s. */
  public static double capacity(WorkloadSpread spread, int cores) {
    return cores * 1e9 / spread.meanNanos();
  }

  /**
   * The policies that run without a table: seq, fixed and adaptive parallelism, the work-queue
   * rule, rampup from ten times the median sequential time (rounded to 100 us, at least 100 us),
   * request-clairvoyant at the 75th percentile, and the hindsight oracle.
   */
  public static List<String> untabledPolicies(DemandProfile demand) {
    double[] seq =
        demand.requests().stream().mapToDouble(r -> r.sequentialNanos() / 1e6).sorted().toArray();
    return List.of(
        "seq",
        "fixed:2",
        "adaptive",
        "wq-linear:2",
        String.format(
            Locale.ROOT,
            "rampup:%dus,2",
            Math.max(100, Math.round(seq[seq.length / 2] * 10) * 100)),
        String.format(Locale.ROOT, "rc:%dus,2", Math.round(seq[(int) (seq.length * 0.75)] * 1000)),
        HindsightOracle.SPEC);
  }

  /**
   * The default latency target: {@value #TARGET_MEDIANS} times the profile's median sequential
   * time, rounded to one significant figure so that it reads as a whole duration ({@code 1ms},
   * {@code 900us}, {@code 20ms}) and labels its miss ratio so. At least 1 ns.
   */
  public static long defaultTargetNanos(WorkloadSpread spread) {
    double nanos = TARGET_MEDIANS * spread.medianNanos();
    if (!(nanos >= 1)) {
      return 1;
    }
    double unit = Math.pow(10, Math.floor(Math.log10(nanos)));
    return Math.round(Math.round(nanos / unit) * unit);
  }

  /**
   * The FM table's grid step: the median sequential time rounded to 100 us, within [100 us, 1 ms].
   * A step near the typical request lets the table tell waits of one or two requests apart (TB05's
   * median is about 0.3 ms, which a 1 ms step would round away); below 100 us the grid only grows
   * and above 1 ms it is coarser than the demo's tail targets.
   */
  public static long fmStepNanos(WorkloadSpread spread) {
    long unit = 100_000;
    long rounded = Math.round(spread.medianNanos() / unit) * unit;
    return Math.clamp(rounded, unit, 1_000_000L);
  }
}
