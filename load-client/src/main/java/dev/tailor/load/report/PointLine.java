package dev.tailor.load.report;

import dev.tailor.measure.PointResult;
import java.util.Locale;

/**
 * A finished point in one line, as a sweep prints it while it runs: the policy (and the worker
 * count, in a sweep of worker counts) and load, the P50 and P99 of the answered requests, the
 * achieved rate, and the failures (by kind) and saturation.
 */
public final class PointLine {

  private PointLine() {}

  /** The point's line, its policy padded to a column. */
  public static String of(PointResult p) {
    return String.format(
        "%-16s %8.1f rps: p50 %8.2f ms  p99 %8.2f ms  achieved %8.1f rps%s%s",
        PointResult.withWorkers(Report.displayName(p.policy()), p.workers()),
        p.offeredRps(),
        p.latencyAt("p50") / 1e6,
        p.latencyAt("p99") / 1e6,
        p.achievedRps(),
        p.failed() == 0
            ? ""
            : String.format(
                Locale.ROOT,
                "  FAILED %d of %d (%s)",
                p.failed(),
                p.sent(),
                p.failures() == null ? "kinds unknown" : p.failures().describe()),
        p.saturated() ? "  SATURATED" : "");
  }
}
