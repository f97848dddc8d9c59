package dev.tailor.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.RequestAttributes;
import dev.tailor.core.Scheduler;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The binder's meters, read through a real Prometheus scrape. */
class TailorMetricsTest {

  private Scheduler scheduler;
  private PrometheusMeterRegistry registry;

  @BeforeEach
  void start() {
    scheduler = Scheduler.builder().policy("fixed:2").workers(2).build();
    registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  }

  @AfterEach
  void stop() {
    registry.close();
    scheduler.close();
  }

  @Test
  void aScrapeCountsTheRequestsRunAndTheFailure() {
    new TailorMetrics(scheduler, Tags.of("index", "wiki")).bindTo(registry);
    run(3, null);
    run(2, "a");
    run(4, "b");
    CompletableFuture<Object> failing =
        scheduler.submit(
            ctx -> {
              throw new IllegalStateException("no");
            });
    assertThrows(CompletionException.class, failing::join);

    registry.scrape(); // registers the groups first seen since binding
    String text = registry.scrape();

    assertEquals(9, value(text, "tailor_request_latency_seconds_count{index=\"wiki\"}"));
    assertEquals(10, value(text, "tailor_request_queueing_seconds_count{index=\"wiki\"}"));
    assertEquals(10, value(text, "tailor_request_run_seconds_count{index=\"wiki\"}"));
    assertTrue(value(text, "tailor_request_latency_seconds_sum{index=\"wiki\"}") > 0);
    for (String q : List.of("0.5", "0.9", "0.99", "0.999")) {
      assertTrue(
          value(
                  text,
                  "tailor_request_latency_quantile_seconds{index=\"wiki\",quantile=\"" + q + "\"}")
              > 0,
          q);
    }
    assertEquals(9, value(text, "tailor_requests_total{index=\"wiki\",outcome=\"completed\"}"));
    assertEquals(1, value(text, "tailor_requests_total{index=\"wiki\",outcome=\"failed\"}"));
    assertEquals(0, value(text, "tailor_requests_total{index=\"wiki\",outcome=\"cancelled\"}"));
    assertEquals(2, value(text, "tailor_workers{index=\"wiki\"}"));
    assertEquals(2, value(text, "tailor_budget{index=\"wiki\"}"));
    assertTrue(text.contains("tailor_threads_busy{index=\"wiki\"}"), text);
    assertTrue(text.contains("tailor_requests_queued{index=\"wiki\"}"), text);

    // Every request is in one group's degree counts: a, b, and the work group of unlabelled ones.
    assertEquals(Set.of("a", "b", "short"), groups(text));
    assertEquals(2, degreeCount(text, "a"));
    assertEquals(4, degreeCount(text, "b"));
    assertEquals(4, degreeCount(text, "short"), "three unlabelled requests and the failed one");
  }

  @Test
  void groupsPastTheLimitCountAsOther() {
    new TailorMetrics(scheduler, 2, Tags.empty()).bindTo(registry);
    for (String label : List.of("a", "b", "c", "d", "e")) {
      run(1, label);
    }

    registry.scrape();
    String text = registry.scrape();

    assertEquals(Set.of("a", "b", "other"), groups(text));
    assertEquals(3, degreeCount(text, "other"));
    assertEquals(2, value(text, "tailor_request_groups"));

    run(2, "f"); // a new label, now the limit is reached, adds no series
    run(1, "a");
    registry.scrape();
    text = registry.scrape();
    assertEquals(Set.of("a", "b", "other"), groups(text));
    assertEquals(5, degreeCount(text, "other"));
    assertEquals(2, degreeCount(text, "a"));
  }

  @Test
  void noRequestsMakeZerosAndNoGroups() {
    new TailorMetrics(scheduler).bindTo(registry);

    String text = registry.scrape();

    assertEquals(0, value(text, "tailor_request_latency_seconds_count"));
    assertEquals(0, value(text, "tailor_requests_total{outcome=\"completed\"}"));
    assertEquals(Set.of(), groups(text));
  }

  @Test
  void aNegativeGroupLimitIsRefused() {
    assertThrows(
        IllegalArgumentException.class, () -> new TailorMetrics(scheduler, -1, Tags.empty()));
  }

  private void run(int requests, String label) {
    List<CompletableFuture<Integer>> futures = new ArrayList<>();
    for (int i = 0; i < requests; i++) {
      int n = i;
      futures.add(scheduler.submit(ctx -> n, RequestAttributes.labelled(label)));
    }
    futures.forEach(CompletableFuture::join);
  }

  /** The value of the one sample line that starts with {@code series} and a space. */
  private static double value(String text, String series) {
    for (String line : text.split("\n")) {
      if (line.startsWith(series + " ")) {
        return Double.parseDouble(line.substring(series.length() + 1).trim());
      }
    }
    throw new AssertionError("no " + series + " in\n" + text);
  }

  private static final Pattern DEGREE =
      Pattern.compile("^tailor_requests_by_degree_total\\{(.*)\\} (\\S+)$", Pattern.MULTILINE);

  private static Set<String> groups(String text) {
    Set<String> groups = new TreeSet<>();
    Matcher m = DEGREE.matcher(text);
    while (m.find()) {
      groups.add(tag(m.group(1), "group"));
    }
    return groups;
  }

  /** The group's requests, summed over degrees. */
  private static double degreeCount(String text, String group) {
    double sum = 0;
    Matcher m = DEGREE.matcher(text);
    while (m.find()) {
      if (tag(m.group(1), "group").equals(group)) {
        sum += Double.parseDouble(m.group(2));
      }
    }
    return sum;
  }

  private static String tag(String tags, String name) {
    Matcher m = Pattern.compile(name + "=\"([^\"]*)\"").matcher(tags);
    if (!m.find()) {
      throw new AssertionError("no " + name + " in " + tags);
    }
    return m.group(1);
  }
}
