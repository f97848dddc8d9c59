package dev.tailor.load.fidelity;

import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.LatencyBreakdown;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Calibration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Derives a {@link Calibration} from the latency breakdown of replayed requests run alone: requests
 * of {@code seq} at a light load, so that what they cost beyond their profiled time is the
 * machine's fixed costs and not queueing or parallelism.
 *
 * <ul>
 *   <li>The run scale compares the served run times with the profile's sequential times, percentile
 *       by percentile (the 10th to the 90th, every 10th), and takes the median ratio: the replay
 *       sends the profile's queries in a seeded uniform order, so both describe the same mix, and
 *       the middle percentiles are the ones a few hundred requests measure well.
 *   <li>The dispatch, completion and send-lag distributions are the measured ones, each percentile
 *       the median over the runs given, so that one run disturbed by the machine does not set them
 *       (with two runs, their mean).
 * </ul>
 */
public final class CalibrationFit {

  /** The percentiles whose ratios give the run scale. */
  private static final int[] SCALE_PERCENTILES = {10, 20, 30, 40, 50, 60, 70, 80, 90};

  /**
   * One run's breakdown, each part as its 101 percentiles (0 to 100) in nanoseconds.
   *
   * @param dispatch admitted to first running
   * @param run first running to the last unit's end
   * @param completion the last unit's end to the answer seen by the client
   * @param sendLag the client's lag in sending
   */
  public record Parts(long[] dispatch, long[] run, long[] completion, long[] sendLag) {}

  /** The policy whose requests run alone: the runs a calibration is derived from. */
  public static final String ALONE = "seq";

  private CalibrationFit() {}

  /**
   * The calibration of a replay's report: every run of {@value #ALONE} at the report's lightest
   * load.
   *
   * @throws IllegalArgumentException if the report has no such run, or its runs recorded no latency
   *     breakdown (a replay against a server that does not report its timings)
   */
  public static Calibration fromReport(MeasuredReport report, DemandProfile profile) {
    List<PointResult> alone =
        report.points().stream().filter(p -> p.policy().equals(ALONE)).toList();
    double lightest = alone.stream().mapToDouble(PointResult::offeredRps).min().orElse(Double.NaN);
    List<PointResult> runs = alone.stream().filter(p -> p.offeredRps() == lightest).toList();
    if (runs.isEmpty()) {
      throw new IllegalArgumentException(
          report.dir() + ": no run of " + ALONE + " to derive a calibration from");
    }
    List<Parts> parts = new ArrayList<>();
    for (PointResult p : runs) {
      Parts part = parts(p);
      if (part == null) {
        throw new IllegalArgumentException(
            report.dir()
                + ": the runs of "
                + ALONE
                + " recorded no latency breakdown (replayed against a server that does not"
                + " report its timings?)");
      }
      parts.add(part);
    }
    return of(
        profile,
        parts,
        String.format(
            Locale.ROOT,
            "%s: %d run(s) of %s at %.0f requests/s",
            report.dir(),
            runs.size(),
            ALONE,
            lightest));
  }

  /** A point's breakdown as the calibration reads it, or null where the point has none. */
  static Parts parts(PointResult p) {
    LatencyBreakdown b = p.breakdown();
    if (b == null) {
      return null;
    }
    return new Parts(
        b.part("dispatch").percentilesNanos(),
        b.part("run").percentilesNanos(),
        b.part("completion").percentilesNanos(),
        b.part("sendLag").percentilesNanos());
  }

  /**
   * The calibration of runs of requests alone against the profile of their queries.
   *
   * @param source what the runs were, for the file
   * @throws IllegalArgumentException if no run is given or a part does not hold 101 percentiles
   */
  public static Calibration of(DemandProfile profile, List<Parts> runs, String source) {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("no run to derive a calibration from");
    }
    long[] dispatch = median(runs.stream().map(Parts::dispatch).toList());
    long[] run = median(runs.stream().map(Parts::run).toList());
    long[] completion = median(runs.stream().map(Parts::completion).toList());
    long[] sendLag = median(runs.stream().map(Parts::sendLag).toList());
    return Calibration.of(profile, source, runScale(profile, run), dispatch, completion, sendLag);
  }

  /**
   * Served run time over profiled time: the median, over the 10th to 90th percentiles, of the ratio
   * of the served run's percentile to the profile's. Clamped to the calibration's range.
   */
  static double runScale(DemandProfile profile, long[] run) {
    long[] seq =
        profile.requests().stream()
            .mapToLong(DemandProfile.Request::sequentialNanos)
            .sorted()
            .toArray();
    double[] ratios = new double[SCALE_PERCENTILES.length];
    for (int i = 0; i < ratios.length; i++) {
      int p = SCALE_PERCENTILES[i];
      double profiled = seq[Math.min(seq.length - 1, (int) Math.ceil(p / 100.0 * seq.length) - 1)];
      ratios[i] = run[p] / Math.max(1.0, profiled);
    }
    Arrays.sort(ratios);
    return Math.clamp(ratios[ratios.length / 2], 0.1, 100);
  }

  /** Each percentile's median over the runs, kept ascending. */
  static long[] median(List<long[]> percentiles) {
    for (long[] p : percentiles) {
      if (p == null || p.length != Calibration.PERCENTILES) {
        throw new IllegalArgumentException(
            "a part of the breakdown does not hold " + Calibration.PERCENTILES + " percentiles");
      }
    }
    int n = percentiles.size();
    long[] out = new long[Calibration.PERCENTILES];
    long[] values = new long[n];
    for (int i = 0; i < out.length; i++) {
      for (int r = 0; r < n; r++) {
        values[r] = percentiles.get(r)[i];
      }
      Arrays.sort(values);
      out[i] = n % 2 == 1 ? values[n / 2] : Math.round((values[n / 2 - 1] + values[n / 2]) / 2.0);
      if (i > 0 && out[i] < out[i - 1]) {
        out[i] = out[i - 1];
      }
    }
    return out;
  }
}
