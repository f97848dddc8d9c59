package dev.tailor.core;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.policy.WorkerPreference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the scheduler survives: a policy that throws from every method (its {@code spec()} too), a
 * decision listener that throws, and bodies that wait for requests they submitted to the same
 * scheduler. Every request still completes exactly once, the reevaluator keeps ticking, and a
 * failure is logged once per kind, however often it happens.
 */
class SchedulerFaultsTest {

  private static final int GUARD = Waits.GUARD_SECONDS;

  /** Held so that the logger, and the handler on it, outlive the test's garbage collections. */
  private final Logger dispatchLog = Logger.getLogger(Dispatcher.class.getName());

  private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          logged.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  private Scheduler scheduler;

  @BeforeEach
  void captureTheLog() {
    dispatchLog.addHandler(capture);
  }

  @AfterEach
  void stop() throws InterruptedException {
    dispatchLog.removeHandler(capture);
    if (scheduler != null) {
      scheduler.shutdownNow();
      assertTrue(scheduler.awaitTermination(GUARD, SECONDS), "scheduler terminated");
    }
  }

  /** Answers like a controlled policy, but every third question throws; {@code spec()} always. */
  private static final class FlakyPolicy implements Policy {
    final AtomicLong questions = new AtomicLong();
    volatile int degree = 2;
    volatile boolean flaky = true;
    volatile boolean degreeAlwaysThrows;

    private void maybeThrow() {
      if (flaky && questions.incrementAndGet() % 3 == 0) {
        throw new IllegalStateException("flaky policy");
      }
    }

    @Override
    public Admission admit(RequestView request, SystemView system) {
      maybeThrow();
      return Admission.start(degree);
    }

    @Override
    public int degree(RequestView request, SystemView system) {
      if (degreeAlwaysThrows) {
        throw new IllegalStateException("broken degree");
      }
      maybeThrow();
      return degree;
    }

    @Override
    public WorkerPreference workerPreference(SystemView system) {
      maybeThrow();
      return WorkerPreference.HELP_FIRST;
    }

    @Override
    public long longThresholdNanos() {
      maybeThrow();
      return 0;
    }

    @Override
    public String spec() {
      throw new UnsupportedOperationException("no spec either");
    }
  }

  private long warnings(String kind) {
    return logged.stream()
        .filter(r -> r.getLevel() == Level.WARNING && r.getMessage().startsWith(kind + " failed"))
        .count();
  }

  @Test
  void everyRequestCompletesExactlyOnceUnderAPolicyThatThrows() throws Exception {
    FlakyPolicy policy = new FlakyPolicy();
    int requests = 5_000;
    AtomicIntegerArray reported = new AtomicIntegerArray(requests + 1);
    scheduler =
        Scheduler.builder()
            .policy(policy)
            .workers(4)
            .queueCapacity(requests)
            .quantum(Duration.ofMillis(1))
            .listener(
                new SchedulerListener() {
                  @Override
                  public void requestCompleted(RequestRecord record) {
                    reported.incrementAndGet((int) record.id());
                  }
                })
            .build();
    AtomicIntegerArray completions = new AtomicIntegerArray(requests);
    AtomicInteger wrong = new AtomicInteger();
    List<CompletableFuture<Integer>> futures = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(17);
    for (int i = 0; i < requests; i++) {
      int index = i;
      int units = random.nextInt(5);
      CompletableFuture<Integer> f =
          scheduler.submit(
              ctx -> {
                AtomicInteger ran = new AtomicInteger();
                for (int u = 0; u < units; u++) {
                  ctx.fork(
                      () -> {
                        ctx.mayContinue(); // asks the policy from a unit
                        ran.incrementAndGet();
                      });
                }
                ctx.joinUnits();
                return ran.get() == units ? index : -1;
              });
      // Wait for the future after the count, so that every count is done when the check reads it.
      futures.add(
          f.whenComplete(
              (value, failure) -> {
                completions.incrementAndGet(index);
                if (failure != null || value != index) {
                  wrong.incrementAndGet();
                }
              }));
    }
    CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(GUARD, SECONDS);
    for (int i = 0; i < requests; i++) {
      assertEquals(1, completions.get(i), "request " + i + " completed exactly once");
    }
    assertEquals(0, wrong.get(), "every request returned its own result");
    for (int id = 1; id <= requests; id++) {
      assertEquals(1, reported.get(id), "request id " + id + " reported exactly once");
    }
    assertEquals(requests, scheduler.metrics().count(RequestRecord.Outcome.COMPLETED));
    assertTrue(scheduler.failures().count("policy.admit") > 0);
    assertTrue(scheduler.failures().count("policy.degree") > 0);
    // The public view counts the same failures, by kind.
    Map<String, Long> byKind = scheduler.failureCounts();
    assertEquals(scheduler.failures().count("policy.admit"), byKind.get("policy.admit"));
    assertTrue(byKind.get("policy.degree") > 0);
    assertEquals(scheduler.failures().total(), byKind.values().stream().mapToLong(c -> c).sum());
    assertEquals(1, warnings("policy.admit"), "logged once, however often it failed");
    assertEquals(1, warnings("policy.degree"));
  }

  @Test
  void theReevaluatorKeepsTickingWhileThePolicyThrowsAndRaisesTheDegreeOnceItAnswers()
      throws Exception {
    FlakyPolicy policy = new FlakyPolicy();
    policy.flaky = false;
    policy.degree = 1;
    scheduler = Scheduler.builder().policy(policy).workers(2).quantum(Duration.ofMillis(1)).build();
    CountDownLatch onHelper = new CountDownLatch(1);
    AtomicReference<Thread> unitThread = new AtomicReference<>();
    Thread own =
        scheduler
            .submit(
                ctx -> {
                  ctx.fork(
                      () -> {
                        unitThread.set(Thread.currentThread());
                        onHelper.countDown();
                      });
                  // Degree 1: the unit is held. From here only the reevaluator asks the policy.
                  policy.degreeAlwaysThrows = true;
                  long failed = scheduler.failures().count("policy.degree");
                  Waits.until(
                      () -> scheduler.failures().count("policy.degree") >= failed + 5,
                      "five ticks failed");
                  policy.degree = 2;
                  policy.degreeAlwaysThrows = false; // the next tick raises the degree
                  await(onHelper);
                  return Thread.currentThread();
                })
            .get(GUARD, SECONDS);
    assertNotSame(own, unitThread.get(), "a helper ran the unit");
    assertEquals(1, warnings("policy.degree"));
  }

  @Test
  void aDecisionListenerThatThrowsChangesNoDecision() throws Exception {
    scheduler =
        Scheduler.builder()
            .policy("fixed:2")
            .workers(2)
            .quantum(Duration.ofMillis(1))
            .decisionListener(
                (decision, id, value) -> {
                  throw new IllegalStateException("listener bug");
                })
            .build();
    List<CompletableFuture<Integer>> futures = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      int n = i;
      futures.add(
          scheduler.submit(
              ctx -> {
                ctx.fork(() -> {});
                ctx.joinUnits();
                return n;
              }));
    }
    for (int i = 0; i < futures.size(); i++) {
      assertEquals(i, futures.get(i).get(GUARD, SECONDS));
    }
    assertEquals(100, scheduler.metrics().count(RequestRecord.Outcome.COMPLETED));
    assertTrue(scheduler.failures().count("decisionListener") >= 100, "one START each at least");
    assertEquals(1, warnings("decisionListener"));
  }

  @Test
  void aBodyWaitingForARequestItSubmittedRunsItRatherThanDeadlock() throws Exception {
    scheduler = Scheduler.builder().policy("fixed:2").workers(1).build();
    String result =
        scheduler
            .submit(
                ctx -> {
                  Thread self = Thread.currentThread();
                  // One worker, held by this body: each request below can only run here.
                  CompletableFuture<Thread> viaGet = scheduler.submit(c -> Thread.currentThread());
                  CompletableFuture<Thread> viaJoin = scheduler.submit(c -> Thread.currentThread());
                  CompletableFuture<Integer> withUnits =
                      scheduler.submit(
                          c -> {
                            AtomicInteger units = new AtomicInteger();
                            for (int u = 0; u < 4; u++) {
                              c.fork(units::incrementAndGet);
                            }
                            c.joinUnits();
                            return units.get();
                          });
                  return (viaGet.get() == self)
                      + " "
                      + (viaJoin.join() == self)
                      + " "
                      + withUnits.get(GUARD, SECONDS);
                })
            .get(GUARD, SECONDS);
    assertEquals("true true 4", result);
    assertEquals(4, scheduler.metrics().count(RequestRecord.Outcome.COMPLETED), "four requests");
  }

  @Test
  void nestedWaitsThreeDeepOnEveryWorkerAtOnceDoNotDeadlock() throws Exception {
    scheduler =
        Scheduler.builder().policy("fixed:2").workers(2).quantum(Duration.ofMillis(1)).build();
    List<CompletableFuture<Integer>> outers = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      outers.add(scheduler.submit(ctx -> nested(3)));
    }
    for (CompletableFuture<Integer> f : outers) {
      assertEquals(3, f.get(GUARD, SECONDS));
    }
    assertEquals(200 * 4, scheduler.metrics().count(RequestRecord.Outcome.COMPLETED));
  }

  private int nested(int depth) throws ExecutionException, InterruptedException {
    if (depth == 0) {
      return 0;
    }
    return 1 + scheduler.submit(ctx -> nested(depth - 1)).get();
  }

  private static void await(CountDownLatch latch) {
    Waits.await(latch);
  }
}
