package dev.tailor.sim;

import dev.tailor.measure.LatencyBreakdown;
import dev.tailor.measure.PointResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The warm-start factor of a calibration ({@link dev.tailor.sim.MachineModel#warmStart}): how much
 * faster the requests that queued ran than those that found a thread idle, fitted by {@link
 * CalibrationFit} over a replay's runs of {@value CalibrationFit#ALONE}.
 */
final class WarmStartFit {

  private WarmStartFit() {}

  /**
   * The least spread of the runs' queued shares a warm-start factor is fitted over: 0.25, a quarter
   * of the requests. Below it the line's slope is the runs' noise.
   */
  static final double MIN_QUEUED_SPREAD = 0.25;

  /**
   * The warm-start factor ({@link dev.tailor.sim.MachineModel#warmStart}), fitted over the runs of
   * {@value CalibrationFit#ALONE} at every load: each run's mean run time against the share of its
   * requests that queued (for longer than {@code queuedNanos}, the dispatch's P99: they waited for
   * a thread), by least squares; the factor is the line at every request queued over the line at
   * none. Under {@value CalibrationFit#ALONE} a request queues for the requests before it, whatever
   * its own size, so the two groups hold alike queries. 1 where the runs' shares spread less than
   * {@link #MIN_QUEUED_SPREAD}, or the line does not stay positive.
   */
  static double of(List<PointResult> alone, long queuedNanos) {
    List<double[]> runs = new ArrayList<>();
    for (PointResult p : alone) {
      LatencyBreakdown b = p.breakdown();
      if (b == null || b.part("queued") == null || b.part("run") == null) {
        continue;
      }
      long[] queued = b.part("queued").percentilesNanos();
      int over = 0;
      for (int i = 0; i < 100; i++) {
        over += queued[i] > queuedNanos ? 1 : 0;
      }
      runs.add(new double[] {over / 100.0, b.part("run").meanNanos()});
    }
    return of(runs);
  }

  /**
   * The warm-start factor of runs each given as {@code {queued share, mean run time}}: the
   * least-squares line's value at a share of 1 over its value at 0, or 1 where the shares spread
   * less than {@link #MIN_QUEUED_SPREAD} or the line does not stay positive.
   */
  static double of(List<double[]> runs) {
    double lo = runs.stream().mapToDouble(v -> v[0]).min().orElse(0);
    double hi = runs.stream().mapToDouble(v -> v[0]).max().orElse(0);
    if (hi - lo < MIN_QUEUED_SPREAD) {
      return 1;
    }
    double mx = runs.stream().mapToDouble(v -> v[0]).average().orElseThrow();
    double my = runs.stream().mapToDouble(v -> v[1]).average().orElseThrow();
    double sxy = 0;
    double sxx = 0;
    for (double[] v : runs) {
      sxy += (v[0] - mx) * (v[1] - my);
      sxx += (v[0] - mx) * (v[0] - mx);
    }
    double slope = sxy / sxx;
    double none = my - slope * mx;
    double all = none + slope;
    return none > 0 && all > 0 ? Math.clamp(all / none, 0.01, 99) : 1;
  }
}
