package dev.tailor.opensearch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.tailor.core.RequestContext;
import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.PriorityClass;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.util.concurrent.ThreadContext;
import org.opensearch.search.internal.SearchContext;

/**
 * The listener and the executor on one node, without a cluster: where a runnable runs (a helper,
 * the caller, nowhere), in which thread context, and how each query phase ends, under policy swaps.
 */
class QueryPhaseExecutorTest {

  private static final long GUARD_SECONDS = 30; // a hang guard, never a timing

  private final ThreadContext threadContext = new ThreadContext(Settings.EMPTY);
  private final NodeStats stats = new NodeStats();
  private final List<Runnable> openSearchOwn = new java.util.concurrent.CopyOnWriteArrayList<>();
  private LiveScheduler live;
  private QueryPhaseListener listener;
  private TailorExecutor executor;

  private void start(String policy) {
    live = new LiveScheduler(policy, 2, 10, Executors.defaultThreadFactory(), stats);
    listener =
        new QueryPhaseListener(
            live, new NodeDecider(Settings.EMPTY, live, stats), stats, threadContext);
    executor = new TailorExecutor(listener, threadContext, stats, live, openSearchOwn::add);
  }

  @AfterEach
  void close() {
    live.close();
  }

  private static SearchContext concurrentSearch(boolean concurrent) {
    SearchContext ctx = mock(SearchContext.class);
    when(ctx.shouldUseConcurrentSearch()).thenReturn(concurrent);
    return ctx;
  }

  @Test
  void aForkRunsOnAHelperInTheQueryPhasesThreadContext() throws Exception {
    start("fixed:2");
    SearchContext ctx = concurrentSearch(true);
    CountDownLatch ran = new CountDownLatch(1);
    AtomicReference<Thread> thread = new AtomicReference<>();
    AtomicReference<String> header = new AtomicReference<>();
    try (ThreadContext.StoredContext ignored = threadContext.stashContext()) {
      threadContext.putHeader("opaque", "request-7");
      listener.onPreQueryPhase(ctx);
      executor.execute(
          () -> {
            thread.set(Thread.currentThread());
            header.set(threadContext.getHeader("opaque"));
            ran.countDown();
          });
      assertTrue(ran.await(GUARD_SECONDS, TimeUnit.SECONDS));
      listener.onQueryPhase(ctx, 1);
    }
    assertNotSame(Thread.currentThread(), thread.get());
    assertEquals("request-7", header.get());
    Map<String, Object> s = snapshot();
    assertEquals(1L, count(s, "requests", "completed"));
    assertEquals(1L, count(s, "units", "forked"));
    assertEquals(1L, count(s, "units", "on_helpers"));
    assertEquals(Map.of("2", 1L), s.get("degree"));
    Map<?, ?> recent = (Map<?, ?>) ((List<?>) s.get("recent")).get(0);
    assertEquals("fixed:2", recent.get("policy"));
    assertEquals(2, recent.get("degree"));
    assertNull(listener.current(), "the request ended");
  }

  @Test
  void theClassHeaderGivesTheRequestItsPriorityClass() {
    start("seq");
    Map<String, PriorityClass> seen = new java.util.LinkedHashMap<>();
    for (String value : new String[] {"background", " Interactive ", "urgent", null}) {
      SearchContext ctx = concurrentSearch(true);
      try (ThreadContext.StoredContext ignored = threadContext.stashContext()) {
        if (value != null) {
          threadContext.putHeader(QueryPhaseListener.CLASS_HEADER, value);
        }
        listener.onPreQueryPhase(ctx);
        seen.put(String.valueOf(value), RequestContext.current().view().priorityClass());
        listener.onQueryPhase(ctx, 1);
      }
    }
    assertEquals(
        Map.of(
            "background", PriorityClass.BACKGROUND,
            " Interactive ", PriorityClass.INTERACTIVE,
            "urgent", PriorityClass.INTERACTIVE,
            "null", PriorityClass.INTERACTIVE),
        seen);
    assertEquals(1L, count(snapshot(), "requests", "background"));
    assertEquals(1L, count(snapshot(), "requests", "unknown_class"));
  }

  @Test
  void underSeqForksAreHeldAndDroppedForTheCallerToDrain() {
    start("seq");
    SearchContext ctx = concurrentSearch(true);
    AtomicInteger ran = new AtomicInteger();
    listener.onPreQueryPhase(ctx);
    for (int i = 0; i < 3; i++) {
      executor.execute(ran::incrementAndGet);
    }
    listener.onQueryPhase(ctx, 1);
    assertEquals(0, ran.get(), "no helper at degree 1; Lucene's caller claims every slice itself");
    assertEquals(3L, count(snapshot(), "units", "forked"));
    assertEquals(0L, count(snapshot(), "units", "on_helpers"));
  }

  @Test
  void withoutARequestOrAfterShutdownARunnableRunsInlineAndIsNeverRejected() {
    start("fixed:2");
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    executor.execute(() -> ranOn.set(Thread.currentThread()));
    assertSame(Thread.currentThread(), ranOn.get());

    SearchContext sequential = concurrentSearch(false);
    listener.onPreQueryPhase(sequential);
    assertNull(
        listener.current().entered(), "a phase that does not search concurrently is not scheduled");
    assertEquals(1, stats.sequentialRunning.get(), "but it is part of the node's load");
    executor.execute(() -> ranOn.set(null));
    assertNull(ranOn.get());
    listener.onQueryPhase(sequential, 1);
    assertNull(listener.current());
    assertEquals(0, stats.sequentialRunning.get());

    executor.shutdown();
    SearchContext ctx = concurrentSearch(true);
    listener.onPreQueryPhase(ctx);
    executor.execute(() -> ranOn.set(Thread.currentThread()));
    assertSame(Thread.currentThread(), ranOn.get(), "a shut-down executor still runs, inline");
    listener.onQueryPhase(ctx, 1);
    Map<String, Object> s = snapshot();
    assertEquals(1L, count(s, "requests", "unscheduled"));
    assertEquals(3L, count(s, "units", "inline_without_request"));
  }

  @Test
  void switchedOffTheNodeSearchesAsOpenSearchDoes() {
    start("fixed:2");
    live.setEnabled(false);
    SearchContext ctx = concurrentSearch(true);
    listener.onPreQueryPhase(ctx);
    assertNull(listener.current(), "no Tailor request");
    Runnable slice = () -> {};
    executor.execute(slice);
    assertEquals(List.of(slice), openSearchOwn, "the slice went to OpenSearch's own pool");
    listener.onQueryPhase(ctx, 1);
    Map<String, Object> s = snapshot();
    assertEquals(1L, count(s, "requests", "bypassed"));
    assertEquals(0L, count(s, "units", "forked"));
    assertEquals(0, stats.sequentialRunning.get());
    assertTrue(new NodeDecider(Settings.EMPTY, live, stats).create(null).isEmpty());

    live.setEnabled(true);
    listener.onPreQueryPhase(ctx);
    executor.execute(slice);
    listener.onQueryPhase(ctx, 1);
    assertEquals(1, openSearchOwn.size(), "back on: Tailor's again");
    assertEquals(1L, count(snapshot(), "units", "forked"));
  }

  @Test
  void aFailedQueryPhaseEndsItsRequestAsFailedAndANestedOneEndsNothing() {
    start("fixed:2");
    SearchContext outer = concurrentSearch(true);
    SearchContext inner = concurrentSearch(true);
    listener.onPreQueryPhase(outer);
    listener.onPreQueryPhase(inner);
    listener.onFailedQueryPhase(inner);
    assertSame(outer, listener.current().searchContext(), "the nested end left the outer open");
    listener.onFailedQueryPhase(outer);
    listener.onQueryPhase(outer, 1); // a second end is ignored
    Map<String, Object> s = snapshot();
    assertEquals(1L, count(s, "requests", "failed"));
    assertEquals(0L, count(s, "requests", "completed"));
    assertEquals(1L, count(s, "requests", "nested"));
  }

  /**
   * A phase opened under {@code seq} (its fork held: no helper at degree 1) gets a helper once the
   * policy swaps to {@code fixed:2}, and ends once, recorded under the policy that admitted it; the
   * node keeps its one scheduler, and a bad policy leaves it running the current one.
   */
  @Test
  void aSwapWhileAPhaseIsOpenLosesNothing() throws Exception {
    start("seq");
    Scheduler scheduler = live.scheduler();
    SearchContext first = concurrentSearch(true);
    listener.onPreQueryPhase(first);
    CountDownLatch ran = new CountDownLatch(1);
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    executor.execute(
        () -> {
          ranOn.set(Thread.currentThread());
          ran.countDown();
        });
    live.swap("fixed:2");
    assertEquals("fixed:2", live.policy());
    assertTrue(ran.await(GUARD_SECONDS, TimeUnit.SECONDS), "a helper of the new policy");
    assertNotSame(Thread.currentThread(), ranOn.get());
    listener.onQueryPhase(first, 1);
    SearchContext second = concurrentSearch(true);
    Thread other =
        new Thread(
            () -> {
              listener.onPreQueryPhase(second);
              listener.onQueryPhase(second, 1);
            });
    other.start();
    other.join();
    assertSame(scheduler, live.scheduler());
    live.swap("no-such-policy");
    Map<String, Object> s = snapshot();
    assertEquals(2L, count(s, "requests", "completed"));
    assertEquals(1L, s.get("policy_swaps"));
    assertEquals(1L, s.get("policy_errors"));
    assertEquals("fixed:2", s.get("policy"));
    assertTrue(((String) s.get("policy_error")).contains("no-such-policy"));
    List<?> recent = (List<?>) s.get("recent");
    assertEquals(2, recent.size());
    assertEquals("seq", ((Map<?, ?>) recent.get(0)).get("policy"));
    assertEquals("fixed:2", ((Map<?, ?>) recent.get(1)).get("policy"));
  }

  /**
   * Query phases on four threads (three slices each, Lucene-style: every fork claims the next
   * slice, the caller drains the rest; one in five fails) while another thread swaps the policy a
   * hundred times: every phase is scheduled and ends exactly once, and every slice runs exactly
   * once.
   */
  @Test
  void stressSwapsUnderQueryPhasesLoseNothing() throws Exception {
    start("seq");
    int threads = 4;
    int phasesPerThread = 1_500;
    int slices = 3;
    AtomicInteger sliceRuns = new AtomicInteger();
    AtomicInteger failedPhases = new AtomicInteger();
    List<Throwable> problems = new java.util.concurrent.CopyOnWriteArrayList<>();
    CountDownLatch started = new CountDownLatch(threads);
    Thread[] callers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      long seed = 20261123L + t;
      callers[t] =
          new Thread(
              () -> {
                java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
                SearchContext ctx = concurrentSearch(true);
                started.countDown();
                for (int i = 0; i < phasesPerThread; i++) {
                  try {
                    listener.onPreQueryPhase(ctx);
                    AtomicInteger next = new AtomicInteger();
                    Runnable work =
                        () -> {
                          if (next.getAndIncrement() < slices) {
                            sliceRuns.incrementAndGet();
                          }
                        };
                    for (int f = 0; f < slices - 1; f++) {
                      executor.execute(work);
                    }
                    while (next.getAndIncrement() < slices) {
                      sliceRuns.incrementAndGet();
                    }
                    if (random.nextInt(5) == 0) {
                      failedPhases.incrementAndGet();
                      listener.onFailedQueryPhase(ctx);
                    } else {
                      listener.onQueryPhase(ctx, 1);
                    }
                  } catch (Throwable e) {
                    problems.add(e);
                  }
                }
              });
      callers[t].start();
    }
    assertTrue(started.await(GUARD_SECONDS, TimeUnit.SECONDS));
    Scheduler scheduler = live.scheduler();
    List<String> policies = List.of("fixed:2", "steal-first", "seq", "rampup:1us,3", "fixed:3");
    for (int swap = 0; swap < 100; swap++) {
      live.swap(policies.get(swap % policies.size()));
    }
    for (Thread t : callers) {
      t.join();
    }
    assertEquals(List.of(), problems);
    int phases = threads * phasesPerThread;
    assertEquals(phases * slices, sliceRuns.get(), "every slice ran exactly once");
    Map<String, Object> s = snapshot();
    assertEquals(0L, count(s, "requests", "unscheduled"));
    assertEquals(0L, count(s, "requests", "cancelled"));
    assertEquals((long) failedPhases.get(), count(s, "requests", "failed"));
    assertEquals((long) phases - failedPhases.get(), count(s, "requests", "completed"));
    assertEquals(100L, s.get("policy_swaps"));
    assertEquals(0, s.get("active"));
    assertSame(scheduler, live.scheduler(), "every swap kept the node's one scheduler");
  }

  private Map<String, Object> snapshot() {
    Map<String, Object> out =
        stats.snapshot(live.policy(), live.policyError(), live.workers(), live.queueCapacity());
    out.put("active", live.load().activeRequests());
    return out;
  }

  private static long count(Map<String, Object> s, String group, String field) {
    return ((Number) ((Map<?, ?>) s.get(group)).get(field)).longValue();
  }
}
