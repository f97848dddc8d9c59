package dev.tailor.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.RequestAttributes;
import dev.tailor.core.RequestBody;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.SchedulerListener;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.model.Schedule;
import dev.tailor.core.policy.FewToManyPolicy;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TableSource;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The binder's meters, read through a real Prometheus scrape. */
class TailorMetricsTest {

  private Scheduler scheduler;
  private PrometheusMeterRegistry registry;

  @BeforeEach
  void start() {
    scheduler = SchedulerInternals.policy(Scheduler.builder(), "fixed:2").workers(2).build();
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
        SchedulerInternals.submit(
            scheduler,
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
  void helpersAndTheUnitsTheyRanAreCounted() {
    new TailorMetrics(scheduler).bindTo(registry);
    assertEquals(0, value(registry.scrape(), "tailor_helpers_total"));

    // Two units that wait for each other can only finish on two threads at once: the request's
    // own thread runs one, a helper the other, so each request has exactly one helper and one unit
    // on it. The policy fixes the degree at 2, so no second helper joins.
    for (int i = 0; i < 3; i++) {
      CyclicBarrier both = new CyclicBarrier(2);
      Runnable unit =
          () -> {
            try {
              both.await(30, TimeUnit.SECONDS);
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          };
      RequestBody<Integer> body =
          ctx -> {
            ctx.fork(unit);
            ctx.fork(unit);
            ctx.joinUnits();
            return 2;
          };
      assertEquals(2, SchedulerInternals.submit(scheduler, body).join());
    }

    String text = registry.scrape();
    assertEquals(3, value(text, "tailor_helpers_total"));
    assertEquals(3, value(text, "tailor_units_helpers_total"));
  }

  @Test
  void failuresTheSchedulerSurvivedAreCountedByKindAndFailedBodiesAreNot() {
    try (Scheduler failing =
        SchedulerInternals.policy(Scheduler.builder(), "fixed:2")
            .workers(2)
            .listener(
                new SchedulerListener() {
                  @Override
                  public void requestCompleted(RequestRecord record) {
                    throw new IllegalStateException("listener bug");
                  }
                })
            .build()) {
      new TailorMetrics(failing).bindTo(registry);
      String text = registry.scrape();
      assertEquals(0, value(text, "tailor_failure_kinds"));
      assertFalse(text.contains("tailor_failures_total"), text);

      for (int i = 0; i < 4; i++) {
        assertEquals(1, SchedulerInternals.submit(failing, ctx -> 1).join());
      }
      CompletableFuture<Object> body =
          SchedulerInternals.submit(
              failing,
              ctx -> {
                throw new IllegalStateException("a failing body");
              });
      assertThrows(CompletionException.class, body::join);

      registry.scrape(); // registers the kinds first failed since binding
      text = registry.scrape();
      // Every completion, the failed body's too, ran the listener that threw.
      assertEquals(
          5, value(text, "tailor_failures_total{kind=\"listener.requestCompleted\"}"), text);
      assertEquals(1, value(text, "tailor_failure_kinds"));
      // The body's own failure fails its request, not the scheduler.
      assertEquals(1, value(text, "tailor_requests_total{outcome=\"failed\"}"));
      assertEquals(Set.of("listener.requestCompleted"), kinds(text));
    }
  }

  @Test
  void aTableSwappedInIsCounted(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("fm.json");
    table(50).write(file);
    try (TableSource<IntervalTable> source =
            TableSource.watch(file, IntervalTable::read, Duration.ofHours(1));
        Scheduler fm = Scheduler.builder().policy(FewToManyPolicy.of(source)).workers(2).build()) {
      new TailorMetrics(fm).bindTo(registry);
      assertEquals(0, value(registry.scrape(), "tailor_table_swaps_total"));

      table(100).write(file);
      assertTrue(source.reload());
      assertEquals(1, value(registry.scrape(), "tailor_table_swaps_total"));

      table(150).write(file);
      assertTrue(source.reload());
      assertEquals(2, value(registry.scrape(), "tailor_table_swaps_total"));
    }
  }

  @Test
  void aPolicyWithoutATableSwapsNothing() {
    new TailorMetrics(scheduler).bindTo(registry);
    run(2, null);

    String text = registry.scrape();

    assertEquals(0, value(text, "tailor_table_swaps_total"));
    assertEquals(0, value(text, "tailor_failure_kinds"));
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
      futures.add(
          SchedulerInternals.submit(scheduler, ctx -> n, RequestAttributes.labelled(label)));
    }
    futures.forEach(CompletableFuture::join);
  }

  /** A three-load interval table whose load-2 row ramps up after {@code rampMillis}. */
  private static IntervalTable table(long rampMillis) {
    IntervalTable.Inputs in =
        new IntervalTable.Inputs(
            "p.json",
            "sha256:" + "ab".repeat(32),
            2,
            0,
            2,
            IntervalTable.Rule.paper(2),
            2,
            new int[] {1, 2},
            50_000_000,
            150_000_000,
            0.99,
            3,
            null);
    return new IntervalTable(
        in,
        "2026-11-22T06:00:00Z",
        0.5,
        List.of(
            new IntervalTable.Row(1, Schedule.ofMillis(0, 0), 75e6, 50e6, 2),
            new IntervalTable.Row(2, Schedule.ofMillis(0, rampMillis), 100e6, 75e6, 1.5),
            new IntervalTable.Row(
                3, Schedule.awaitingExit(150_000_000, 150_000_000), 3e8, 2e8, 0.5)));
  }

  private static final Pattern FAILURE =
      Pattern.compile("^tailor_failures_total\\{(.*)\\} (\\S+)$", Pattern.MULTILINE);

  private static Set<String> kinds(String text) {
    Set<String> kinds = new TreeSet<>();
    Matcher m = FAILURE.matcher(text);
    while (m.find()) {
      kinds.add(tag(m.group(1), "kind"));
    }
    return kinds;
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
