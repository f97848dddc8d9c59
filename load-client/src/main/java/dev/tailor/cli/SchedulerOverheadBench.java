package dev.tailor.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;

/**
 * {@code bench scheduler-overhead}: the Scheduler's cost per trivial request against a
 * ThreadPoolExecutor, and the added cost per released helper unit, from the JMH benchmark {@code
 * SchedulerOverheadBenchmark}.
 */
final class SchedulerOverheadBench implements BenchCommand.Bench {

  static final double RATIO_GOAL = 1.10;
  static final double ADDED_NANOS_GOAL = 1_000;

  @Override
  public String name() {
    return "scheduler-overhead";
  }

  @Override
  public int run(boolean quick, PrintWriter out) throws IOException, InterruptedException {
    Map<String, JmhRun.Score> s = JmhRun.run("SchedulerOverheadBenchmark", quick);
    print(s, Runtime.getRuntime().availableProcessors(), out);
    return 0;
  }

  static void print(Map<String, JmhRun.Score> s, int cores, PrintWriter out) throws IOException {
    out.printf("%nscheduler-overhead: measured on this machine (%d cores), one JMH run%n", cores);
    out.printf("  %-34s %14s %14s %8s %11s%n", "", "ThreadPoolEx.", "Scheduler", "ratio", "added");
    row(out, "trivial request, round trip", get(s, "tpeRoundTrip"), get(s, "schedulerRoundTrip"));
    row(out, "trivial request, batches of 64", get(s, "tpeBatch"), get(s, "schedulerBatch"));
    JmhRun.Score inline = get(s, "unitsInline");
    JmhRun.Score released = get(s, "unitsReleased");
    out.printf(
        "%n  %-34s %14s %14s %8s %11s%n",
        "per unit of a 32-unit request", "inline (d=1)", "released (d=2)", "ratio", "added");
    row(out, "", inline, released);
    double roundTripRatio = get(s, "schedulerRoundTrip").score() / get(s, "tpeRoundTrip").score();
    double roundTripAdded = get(s, "schedulerRoundTrip").score() - get(s, "tpeRoundTrip").score();
    out.printf(
        "%n  goal: at most %.2fx ThreadPoolExecutor and %.0f ns added per request (round trip):"
            + " %.3fx, %+.0f ns -> %s%n",
        RATIO_GOAL,
        ADDED_NANOS_GOAL,
        roundTripRatio,
        roundTripAdded,
        roundTripRatio <= RATIO_GOAL && roundTripAdded <= ADDED_NANOS_GOAL ? "met" : "NOT met");
    out.printf(
        "  added cost per released helper unit: %+.0f ns%n", released.score() - inline.score());
  }

  private static void row(PrintWriter out, String label, JmhRun.Score base, JmhRun.Score ours) {
    out.printf(
        "  %-34s %14s %14s %7.3fx %+8.0f ns%n",
        label,
        format(base),
        format(ours),
        ours.score() / base.score(),
        ours.score() - base.score());
  }

  private static String format(JmhRun.Score score) {
    return String.format("%.0f±%.0f ns", score.score(), score.error());
  }

  private static JmhRun.Score get(Map<String, JmhRun.Score> s, String method) throws IOException {
    JmhRun.Score score = s.get(method);
    if (score == null) {
      throw new IOException("JMH results lack " + method + "; got " + s.keySet());
    }
    return score;
  }
}
