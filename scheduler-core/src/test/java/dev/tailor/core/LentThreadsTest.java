package dev.tailor.core;

import static dev.tailor.core.Waits.GUARD_SECONDS;
import static dev.tailor.core.Waits.await;
import static dev.tailor.core.Waits.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.policy.RequestView;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Prompt admission with lent threads: an arrival the policy admits starts at once while helpers
 * hold every core, every helper gives its core back at its next boundary once own threads fill the
 * budget, and a request's own thread is never cut. The scheduler's clock is the test's and it never
 * ticks: every decision here is made at an arrival, a fork or a unit's end.
 */
final class LentThreadsTest {

  private static final int WORKERS = 2;
  private static final int UNITS = 12;

  private static Scheduler scheduler(ControlledPolicy policy, int slack, AtomicLong clock) {
    return Scheduler.builder()
        .policy(policy)
        .workers(WORKERS)
        .slack(slack)
        .quantum(Duration.ofDays(1)) // ticks only when the test calls tick()
        .spinBeforePark(Duration.ZERO)
        .clock(clock::get)
        .build();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2})
  void anArrivalStartsAtOnceWhileHelpersHoldEveryCoreAndEveryHelperThenLeaves(int slack)
      throws Exception {
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    ControlledPolicy policy = new ControlledPolicy();
    int limit = WORKERS + slack;
    policy.degree = limit; // every thread there is, as steal-first asks
    Semaphore gate = new Semaphore(0, true);
    AtomicInteger ran = new AtomicInteger();
    AtomicReference<RequestView> longView = new AtomicReference<>();
    try (Scheduler s = scheduler(policy, slack, clock)) {
      assertEquals(s.budget() + slack, s.systemView().threadLimit(), "the core lends the slack");
      CompletableFuture<Integer> longRequest =
          s.submit(
              ctx -> {
                longView.set(ctx.view());
                for (int i = 0; i < UNITS; i++) {
                  ctx.fork(
                      () -> {
                        gate.acquireUninterruptibly();
                        ran.incrementAndGet();
                      });
                }
                ctx.joinUnits();
                return ran.get();
              });
      until(() -> gate.getQueueLength() == limit, "the own thread and every helper in a unit");
      assertEquals(limit, s.systemView().busyWorkers(), "every core and the slack held");

      // The arrival starts on its own thread at once, though helpers hold every core.
      CountDownLatch arrivalRuns = new CountDownLatch(1);
      CountDownLatch arrivalMayEnd = new CountDownLatch(1);
      CompletableFuture<String> arrival =
          s.submit(
              ctx -> {
                arrivalRuns.countDown();
                await(arrivalMayEnd);
                return "arrival";
              });
      await(arrivalRuns);
      assertEquals(0, s.systemView().queuedRequests(), "nothing waits for a helper's thread");
      assertEquals(0, clock.get() - 1_000_000_000L, "no time passed on the scheduler's clock");
      assertEquals(limit, longView.get().threads(), "nobody is taken away mid-unit");

      // One unit's end on each thread: own threads fill the budget, so every helper leaves and
      // the own thread goes on.
      gate.release(limit);
      until(() -> longView.get().threads() == 1, "every helper gave its core back");
      assertEquals(WORKERS, s.systemView().busyWorkers(), "back within the budget: own threads");
      assertTrue(ran.get() < UNITS, "it left while units were left");
      assertFalse(longRequest.isDone(), "the own thread is never cut");

      arrivalMayEnd.countDown();
      assertEquals("arrival", arrival.get(GUARD_SECONDS, TimeUnit.SECONDS));
      gate.release(UNITS);
      assertEquals(UNITS, longRequest.get(GUARD_SECONDS, TimeUnit.SECONDS));
      assertEquals(UNITS, ran.get(), "every unit ran once");
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1})
  void ownThreadsNeverExceedTheBudgetAndAQueuedHeadGetsNoHelperBesideIt(int slack)
      throws Exception {
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    ControlledPolicy policy = new ControlledPolicy();
    policy.degree = WORKERS + slack;
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    try (Scheduler s = scheduler(policy, slack, clock)) {
      CompletableFuture<?>[] all = new CompletableFuture<?>[WORKERS + 1];
      for (int i = 0; i < all.length; i++) {
        all[i] =
            s.submit(
                ctx -> {
                  most.accumulateAndGet(running.incrementAndGet(), Math::max);
                  await(release);
                  running.decrementAndGet();
                  return null;
                });
      }
      until(() -> running.get() == WORKERS, "the budget's own threads run");
      assertEquals(1, s.systemView().queuedRequests(), "the third waits for an own thread");
      assertEquals(WORKERS, s.systemView().busyWorkers(), "no helper beside a waiting head");
      release.countDown();
      for (CompletableFuture<?> f : all) {
        f.get(GUARD_SECONDS, TimeUnit.SECONDS);
      }
      assertEquals(WORKERS, most.get(), "own threads never exceeded the budget");
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {-1, WORKERS + 1})
  void aSlackBelowZeroOrAboveTheWorkersIsRefusedNamingTheSetting(int slack) {
    Exception e =
        assertThrows(
            RuntimeException.class,
            () -> Scheduler.builder().workers(WORKERS).slack(slack).build().close());
    assertTrue(e.getMessage().contains("slack"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1})
  void withoutPromptAdmissionAnArrivalWaitsForAHelpersThread(int slack) throws Exception {
    ControlledPolicy policy = new ControlledPolicy();
    policy.degree = WORKERS + slack;
    Semaphore gate = new Semaphore(0, true);
    try (Scheduler s =
        Scheduler.builder()
            .policy(policy)
            .workers(WORKERS)
            .slack(slack)
            .promptAdmission(false)
            .quantum(Duration.ofDays(1))
            .build()) {
      CompletableFuture<Integer> longRequest =
          s.submit(
              ctx -> {
                for (int i = 0; i < 2; i++) {
                  ctx.fork(gate::acquireUninterruptibly);
                }
                ctx.joinUnits();
                return 1;
              });
      until(() -> gate.getQueueLength() == WORKERS, "the budget's threads in units");
      CompletableFuture<Integer> arrival = s.submit(ctx -> 2);
      assertEquals(1, s.systemView().queuedRequests(), "no thread is lent: the arrival waits");
      assertEquals(WORKERS, s.systemView().busyWorkers());
      gate.release(2);
      assertEquals(1, longRequest.get(GUARD_SECONDS, TimeUnit.SECONDS));
      assertEquals(2, arrival.get(GUARD_SECONDS, TimeUnit.SECONDS));
    }
  }
}
