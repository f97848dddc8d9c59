package dev.tailor.bench;

import dev.tailor.core.RequestBody;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.policy.Policies;
import dev.tailor.measure.Median;
import dev.tailor.micrometer.TailorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code bench metrics-overhead}: what binding {@link dev.tailor.micrometer.TailorMetrics} to a
 * Prometheus registry adds to a request, in time and allocation, against the same scheduler with no
 * registry; the same with a scrape every second; and what one scrape costs. Each row shows every
 * fork's figure, since the JIT's choices make forks differ by more than what is measured. Then, in
 * this process, both schedulers side by side in alternating rounds, which a busy machine disturbs
 * far less: the time and the calling thread's own allocation per request, paired round by round.
 * The figures come from the JMH benchmarks {@link MetricsOverheadBenchmark} and {@link
 * MetricsScrapeBenchmark}, run together in one JMH run with its GC profiler.
 */
public final class MetricsOverheadBench {

  /** The benchmark's name, as {@code ./tailor bench} knows it. */
  public static final String NAME = "metrics-overhead";

  /** The most binding may add to a request, nanoseconds. */
  static final double NANOS_GOAL = 100;

  /**
   * Below this, an allocation difference per request is no allocation: the smallest object takes 16
   * bytes, so a difference under one byte per request is the profiler's noise or a scrape's
   * allocation spread over many requests, not an object per request.
   */
  static final double BYTES_GOAL = 1;

  private static final String PATTERN = "MetricsOverheadBenchmark|MetricsScrapeBenchmark";
  private static final String ALLOCATION = ":gc.alloc.rate.norm";

  private MetricsOverheadBench() {}

  /**
   * Runs the JMH benchmarks through {@code jmh} with its GC profiler and prints their figures, then
   * measures and prints the paired rounds in this process.
   *
   * @throws IOException if JMH fails or its results lack a benchmark
   */
  public static void run(JmhLauncher jmh, boolean quick, PrintWriter out) throws Exception {
    print(jmh.run(PATTERN, quick, "-prof", "gc"), Runtime.getRuntime().availableProcessors(), out);
    out.printf(
        "%nmeasuring in this process: both schedulers in one JVM, in alternating rounds of %d"
            + " requests...%n",
        quick ? QUICK_REQUESTS : REQUESTS);
    out.flush();
    printPaired(measurePaired(quick ? 6 : ROUNDS, quick ? QUICK_REQUESTS : REQUESTS), out);
    out.flush();
  }

  // ---- paired, in this process ----------------------------------------------------------------

  private static final int ROUNDS = 20;
  private static final int REQUESTS = 100_000;
  private static final int QUICK_REQUESTS = 20_000;
  private static final RequestBody<Integer> BODY = ctx -> 42;

  /**
   * Medians over rounds of the time and of the calling thread's own allocation per request, with no
   * registry and with TailorMetrics bound (and scraped every {@value
   * MetricsOverheadBenchmark#SCRAPE_PERIOD_MILLIS} ms by another thread), and of the difference
   * within each pair of rounds.
   */
  record Paired(
      double noneNanos,
      double boundNanos,
      double addedNanos,
      double noneBytes,
      double boundBytes,
      double addedBytes,
      int rounds) {}

  /**
   * Runs {@code rounds} pairs of rounds of {@code requests} trivial requests on this thread, one
   * round with no registry, one with TailorMetrics bound and scraped, alternating which goes first.
   * A request run on the caller's thread does all its work there, so this thread's own allocation
   * ({@link com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes()}) is the request's,
   * without the scraper's or any other thread's; and both schedulers run the same compiled code,
   * under the same load at nearly the same time.
   */
  static Paired measurePaired(int rounds, int requests) throws Exception {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    int workers = Math.max(2, Runtime.getRuntime().availableProcessors());
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    AtomicBoolean stopped = new AtomicBoolean();
    Thread scraper =
        new Thread(
            () -> {
              while (!stopped.get()) {
                LockSupport.parkNanos(MetricsOverheadBenchmark.SCRAPE_PERIOD_MILLIS * 1_000_000);
                registry.scrape();
              }
            },
            "metrics-overhead-scraper");
    scraper.setDaemon(true);
    try (Scheduler none = Scheduler.builder().policy(Policies.seq()).workers(workers).build();
        Scheduler bound = Scheduler.builder().policy(Policies.seq()).workers(workers).build()) {
      new TailorMetrics(bound).bindTo(registry);
      scraper.start();
      Scheduler[] schedulers = {none, bound};
      for (Scheduler s : schedulers) {
        round(s, requests, mx); // warm-up
      }
      double[][] nanos = new double[2][rounds];
      double[][] bytes = new double[2][rounds];
      double[] addedNanos = new double[rounds];
      double[] addedBytes = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < 2; k++) {
          int v = (r + k) % 2; // alternate which goes first
          long[] m = round(schedulers[v], requests, mx);
          nanos[v][r] = (double) m[0] / requests;
          bytes[v][r] = (double) m[1] / requests;
        }
        addedNanos[r] = nanos[1][r] - nanos[0][r];
        addedBytes[r] = bytes[1][r] - bytes[0][r];
      }
      return new Paired(
          Median.of(nanos[0]),
          Median.of(nanos[1]),
          Median.of(addedNanos),
          Median.of(bytes[0]),
          Median.of(bytes[1]),
          Median.of(addedBytes),
          rounds);
    } finally {
      stopped.set(true);
      scraper.interrupt();
      scraper.join();
      registry.close();
    }
  }

  /** One round: its time and this thread's allocation, in nanoseconds and bytes. */
  private static long[] round(Scheduler s, int requests, com.sun.management.ThreadMXBean mx)
      throws Exception {
    long sum = 0;
    long bytes0 = mx.getCurrentThreadAllocatedBytes();
    long t0 = System.nanoTime();
    for (int i = 0; i < requests; i++) {
      sum += SchedulerInternals.run(s, BODY);
    }
    long t1 = System.nanoTime();
    long bytes1 = mx.getCurrentThreadAllocatedBytes();
    if (sum != 42L * requests) {
      throw new IllegalStateException("a request returned a wrong result");
    }
    return new long[] {t1 - t0, bytes1 - bytes0};
  }

  static void printPaired(Paired p, PrintWriter out) {
    out.printf(
        "%n  %-44s %14s %14s %14s%n",
        "medians over " + p.rounds() + " pairs of rounds",
        "no registry",
        "bound, scraped",
        "added");
    out.printf(
        "  %-44s %11.0f ns %11.0f ns %+11.0f ns%n",
        "time per request", p.noneNanos(), p.boundNanos(), p.addedNanos());
    out.printf(
        "  %-44s %12.1f B %12.1f B %+12.2f B%n",
        "allocated per request, on the caller's thread",
        p.noneBytes(),
        p.boundBytes(),
        p.addedBytes());
    boolean met = p.addedNanos() <= NANOS_GOAL && p.addedBytes() < BYTES_GOAL;
    out.printf(
        "  goal: no allocation (under %.0f B) and at most %.0f ns more per request%n"
            + "  measured (paired rounds): %+.0f ns, %+.2f B -> %s%n",
        BYTES_GOAL, NANOS_GOAL, p.addedNanos(), p.addedBytes(), met ? "met" : "NOT met");
  }

  static void print(Map<String, JmhLauncher.Score> s, int cores, PrintWriter out)
      throws IOException {
    String[] variants = {"none", "bound", "scraped"};
    JmhLauncher.Score[] time = new JmhLauncher.Score[variants.length];
    JmhLauncher.Score[] bytes = new JmhLauncher.Score[variants.length];
    for (int v = 0; v < variants.length; v++) {
      time[v] = JmhLauncher.score(s, "run[metrics=" + variants[v] + "]");
      bytes[v] = JmhLauncher.score(s, "run[metrics=" + variants[v] + "]" + ALLOCATION);
    }
    JmhLauncher.Score scrape = JmhLauncher.score(s, "scrape");
    JmhLauncher.Score scrapeBytes = JmhLauncher.score(s, "scrape" + ALLOCATION);

    out.printf(
        "%nmetrics-overhead: measured on this machine (%d cores), one JMH run with -prof gc, %d"
            + " forks%n",
        cores, time[0].forks().size());
    out.printf(
        "  a trivial request run on the caller's thread through a Scheduler (seq): no registry,"
            + " TailorMetrics bound to a PrometheusMeterRegistry, and bound and scraped every %d"
            + " ms%n",
        MetricsOverheadBenchmark.SCRAPE_PERIOD_MILLIS);
    out.printf("%n  %-28s %22s %22s %22s%n", "", "no registry", "bound", "bound and scraped");
    out.printf(
        "  %-28s %22s %22s %22s%n",
        "time per request", time[0].nanos(), time[1].nanos(), time[2].nanos());
    out.printf(
        "  %-28s %22s %22s %22s%n",
        "  each fork's median, ns",
        forks(time[0], "%.0f"),
        forks(time[1], "%.0f"),
        forks(time[2], "%.0f"));
    double[] added = new double[variants.length];
    double[] addedError = new double[variants.length];
    for (int v = 1; v < variants.length; v++) {
      added[v] = time[v].score() - time[0].score();
      addedError[v] = Math.hypot(time[v].error(), time[0].error());
    }
    out.printf(
        "  %-28s %22s %22s %22s%n",
        "  added",
        "",
        String.format("%+.0f±%.0f ns", added[1], addedError[1]),
        String.format("%+.0f±%.0f ns", added[2], addedError[2]));
    out.printf(
        "  %-28s %22s %22s %22s%n",
        "allocated per request",
        String.format("%.1f B", bytes[0].score()),
        String.format("%.1f B", bytes[1].score()),
        String.format("%.1f B", bytes[2].score()));
    out.printf(
        "  %-28s %22s %22s %22s%n",
        "  each fork's median, B",
        forks(bytes[0], "%.1f"),
        forks(bytes[1], "%.1f"),
        forks(bytes[2], "%.1f"));
    double[] addedBytes = new double[variants.length];
    for (int v = 1; v < variants.length; v++) {
      addedBytes[v] = lowest(bytes[v]) - lowest(bytes[0]);
    }
    out.printf(
        "  %-28s %22s %22s %22s%n",
        "  added, lowest forks",
        "",
        String.format("%+.2f B", addedBytes[1]),
        String.format("%+.2f B", addedBytes[2]));
    out.printf(
        "  (allocation counts every thread's, the scraper's too; the JIT compiles the request's"
            + " path differently from fork to fork, so forks of one variant differ by whole objects"
            + " and the forks that allocated least are compared)%n");

    out.printf(
        "%n  one scrape (%d requests run, %d groups, one more before each scrape): %.0f±%.0f µs,"
            + " %.0f kB allocated%n",
        MetricsScrapeBenchmark.REQUESTS,
        MetricsScrapeBenchmark.GROUPS,
        scrape.score() / 1_000,
        scrape.error() / 1_000,
        scrapeBytes.score() / 1_000);

    out.printf(
        "%n  goal: binding adds no allocation (under %.0f B) and at most %.0f ns per request%n",
        BYTES_GOAL, NANOS_GOAL);
    String[] labels = {"", "bound", "bound and scraped"};
    for (int v = 1; v < variants.length; v++) {
      boolean met = added[v] <= NANOS_GOAL && addedBytes[v] < BYTES_GOAL;
      out.printf(
          "  measured (%s, against no registry): %+.0f ns, %+.2f B -> %s%s%n",
          labels[v],
          added[v],
          addedBytes[v],
          met ? "met" : "NOT met",
          addedError[v] > NANOS_GOAL
              ? String.format(
                  " (the time's error, ±%.0f ns, is above the goal: this run does not resolve it)",
                  addedError[v])
              : "");
    }
  }

  /** The median of the fork that allocated least, or the score if there are no forks' figures. */
  private static double lowest(JmhLauncher.Score score) {
    return score.forks().stream().mapToDouble(Double::doubleValue).min().orElse(score.score());
  }

  private static String forks(JmhLauncher.Score score, String format) {
    StringBuilder b = new StringBuilder();
    for (double f : score.forks()) {
      b.append(b.isEmpty() ? "" : " ").append(String.format(format, f));
    }
    return b.toString();
  }
}
