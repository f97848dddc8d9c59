package dev.tailor.bench;

import dev.tailor.core.RequestAttributes;
import dev.tailor.core.RequestBody;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.policy.Policies;
import dev.tailor.micrometer.TailorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.CompletableFuture;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What one Prometheus scrape of {@link TailorMetrics} costs, in time and allocation, on the thread
 * that scrapes: a scheduler that has run {@value #REQUESTS} requests in {@value #GROUPS} labelled
 * groups, so that every histogram and degree series has values, and one more request before each
 * scrape, so that each copies the histograms afresh rather than reusing the last scrape's copy.
 * {@code ./tailor bench metrics-overhead} prints it beside {@link MetricsOverheadBenchmark}'s
 * figures.
 */
public class MetricsScrapeBenchmark extends NanosecondBenchmark {

  static final int REQUESTS = 10_000;
  static final int GROUPS = 8;

  private static final RequestBody<Integer> BODY = ctx -> 42;

  private Scheduler scheduler;
  private PrometheusMeterRegistry registry;

  @Setup
  public void setUp() {
    scheduler = Scheduler.builder().policy(Policies.fixed(2)).workers(2).build();
    registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new TailorMetrics(scheduler).bindTo(registry);
    CompletableFuture<?>[] futures = new CompletableFuture<?>[REQUESTS];
    for (int i = 0; i < REQUESTS; i++) {
      int n = i;
      futures[i] =
          SchedulerInternals.submit(
              scheduler, ctx -> n, RequestAttributes.labelled("g" + (i % GROUPS)));
    }
    CompletableFuture.allOf(futures).join();
    registry.scrape(); // registers the groups' degree series
  }

  @TearDown
  public void tearDown() {
    registry.close();
    scheduler.close();
  }

  @Benchmark
  public String scrape() throws Exception {
    SchedulerInternals.run(scheduler, BODY);
    return registry.scrape();
  }
}
