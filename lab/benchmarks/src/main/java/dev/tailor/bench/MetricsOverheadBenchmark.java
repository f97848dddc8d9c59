package dev.tailor.bench;

import dev.tailor.core.RequestBody;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.policy.Policies;
import dev.tailor.micrometer.TailorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What {@link TailorMetrics} adds to a request: the same trivial request run on the calling thread
 * ({@link Scheduler#run}: no thread hand-off, so the figure is the request's own path, bookkeeping
 * and metrics) through a {@link Scheduler} ({@code seq}, as many workers as processors, at least
 * two) with no registry ({@code none}), with TailorMetrics bound to a {@link
 * PrometheusMeterRegistry} ({@code bound}), and bound and scraped every {@value
 * #SCRAPE_PERIOD_MILLIS} ms by a thread of its own ({@code scraped}).
 *
 * <p>Run with JMH's GC profiler ({@code -prof gc}), whose {@code gc.alloc.rate.norm} counts the
 * bytes every thread allocated per operation, the scraper's too. Five forks of short iterations:
 * the JIT compiles the request's path differently from one fork to the next (allocating a few dozen
 * bytes more per request in some), so the figures are compared fork by fork. {@code ./tailor bench
 * metrics-overhead} runs it with {@link MetricsScrapeBenchmark} and prints the differences.
 */
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(
    value = 5,
    jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class MetricsOverheadBenchmark extends NanosecondBenchmark {

  /** How often the {@code scraped} variant's thread scrapes. */
  static final long SCRAPE_PERIOD_MILLIS = 1_000;

  private static final RequestBody<Integer> BODY = ctx -> 42;

  /** No registry ({@code none}), bound ({@code bound}), or bound and scraped ({@code scraped}). */
  @Param({"none", "bound", "scraped"})
  public String metrics;

  private final int workers = Math.max(2, Runtime.getRuntime().availableProcessors());
  private Scheduler scheduler;
  private PrometheusMeterRegistry registry;
  private Thread scraper;
  private volatile boolean stopped;

  /** The scrapes' total length, read at tear-down so that no scrape is optimized away. */
  private long scrapedChars;

  @Setup
  public void setUp() {
    scheduler = Scheduler.builder().policy(Policies.seq()).workers(workers).build();
    if (metrics.equals("none")) {
      return;
    }
    registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new TailorMetrics(scheduler).bindTo(registry);
    if (metrics.equals("scraped")) {
      scraper = new Thread(this::scrapeEverySoOften, "metrics-overhead-scraper");
      scraper.setDaemon(true);
      scraper.start();
    } else if (!metrics.equals("bound")) {
      throw new IllegalArgumentException("metrics: none, bound or scraped, got " + metrics);
    }
  }

  private void scrapeEverySoOften() {
    long chars = 0;
    while (!stopped) {
      LockSupport.parkNanos(SCRAPE_PERIOD_MILLIS * 1_000_000);
      chars += registry.scrape().length();
    }
    scrapedChars = chars;
  }

  @TearDown
  public void tearDown() throws InterruptedException {
    stopped = true;
    if (scraper != null) {
      scraper.interrupt();
      scraper.join();
      if (scrapedChars == 0) {
        throw new IllegalStateException("the scraper never scraped");
      }
    }
    scheduler.close();
    if (registry != null) {
      registry.close();
    }
  }

  @Benchmark
  public Integer run() throws Exception {
    return SchedulerInternals.run(scheduler, BODY);
  }
}
