package dev.tailor.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;

/**
 * {@code bench scheduler-overhead}: the Scheduler's cost per trivial request against a
 * ThreadPoolExecutor, and the added cost per released helper unit, from the JMH benchmarks {@code
 * SchedulerOverheadBenchmark} and {@code HelperUnitBenchmark} run together in one JMH run.
 */
public final class SchedulerOverheadBench {

  static final double RATIO_GOAL = 1.10;
  static final double ADDED_NANOS_GOAL = 1_000;
  private static final int FEW = 32;
  private static final int MANY = 512;

  /** The benchmark's name, as {@code ./tailor bench} knows it. */
  public static final String NAME = "scheduler-overhead";

  private static final String PATTERN = "SchedulerOverheadBenchmark|HelperUnitBenchmark";

  private SchedulerOverheadBench() {}

  /**
   * Runs both JMH benchmarks through {@code jmh} and prints the per-request and per-unit figures.
   *
   * @throws IOException if JMH fails or its results lack a benchmark
   */
  public static void run(JmhLauncher jmh, boolean quick, PrintWriter out)
      throws IOException, InterruptedException {
    print(jmh.run(PATTERN, quick), Runtime.getRuntime().availableProcessors(), out);
    out.flush();
  }

  static void print(Map<String, JmhLauncher.Score> s, int cores, PrintWriter out)
      throws IOException {
    out.printf("%nscheduler-overhead: measured on this machine (%d cores), one JMH run%n", cores);
    out.printf(
        "  %-32s %16s %16s %8s %11s%n",
        "per request", "ThreadPoolExec.", "Scheduler (seq)", "ratio", "added");
    JmhLauncher.Score tpe = get(s, "tpeRoundTrip");
    JmhLauncher.Score ours = get(s, "schedulerRoundTrip");
    row(out, "trivial request, round trip", tpe, ours);
    row(out, "trivial request, batches of 64", get(s, "tpeBatch"), get(s, "schedulerBatch"));

    out.printf(
        "%n  %-32s %16s %16s %8s %11s%n",
        "per request of N trivial units", "inline (d=1)", "released (d=2)", "ratio", "added");
    JmhLauncher.Score fewInline = get(s, "inline[units=" + FEW + "]");
    JmhLauncher.Score fewReleased = get(s, "released[units=" + FEW + "]");
    JmhLauncher.Score manyInline = get(s, "inline[units=" + MANY + "]");
    JmhLauncher.Score manyReleased = get(s, "released[units=" + MANY + "]");
    row(out, "N = " + FEW, fewInline, fewReleased);
    row(out, "N = " + MANY, manyInline, manyReleased);

    double ratio = ours.score() / tpe.score();
    double added = ours.score() - tpe.score();
    double fewAdded = fewReleased.score() - fewInline.score();
    double manyAdded = manyReleased.score() - manyInline.score();
    double perUnit = (manyAdded - fewAdded) / (MANY - FEW);
    out.printf(
        "%n  goal: a trivial request at degree 1 costs at most %.2fx a ThreadPoolExecutor task and"
            + " at most %.0f ns more%n  measured (round trip): %.3fx, %+.0f ns -> %s%n",
        RATIO_GOAL,
        ADDED_NANOS_GOAL,
        ratio,
        added,
        ratio <= RATIO_GOAL && added <= ADDED_NANOS_GOAL ? "met" : "NOT met");
    out.printf(
        "  added cost per released helper unit (slope from N = %d to %d): %+.0f ns;"
            + " fixed cost per request that releases any: %+.0f ns%n",
        FEW, MANY, perUnit, fewAdded - perUnit * FEW);
  }

  private static void row(
      PrintWriter out, String label, JmhLauncher.Score base, JmhLauncher.Score ours) {
    out.printf(
        "  %-32s %16s %16s %7.3fx %+8.0f ns%n",
        label,
        format(base),
        format(ours),
        ours.score() / base.score(),
        ours.score() - base.score());
  }

  private static String format(JmhLauncher.Score score) {
    return String.format("%.0f±%.0f ns", score.score(), score.error());
  }

  private static JmhLauncher.Score get(Map<String, JmhLauncher.Score> s, String key)
      throws IOException {
    JmhLauncher.Score score = s.get(key);
    if (score == null) {
      throw new IOException("JMH results lack " + key + "; got " + s.keySet());
    }
    return score;
  }
}
