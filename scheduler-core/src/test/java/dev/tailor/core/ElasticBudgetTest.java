package dev.tailor.core;

import static dev.tailor.core.Waits.await;
import static dev.tailor.core.Waits.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.core.budget.BudgetSample;
import dev.tailor.core.policy.RequestView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The elastic budget in the runtime: resized once per period within its bounds, threads taken back
 * only at unit boundaries, the returned cores, and every request completing exactly once while the
 * budget moves. Time is the test's clock; periods end when the test says so.
 */
class ElasticBudgetTest {

  private static final Duration PERIOD = Duration.ofMillis(1);
  private static final long PERIOD_NANOS = PERIOD.toNanos();

  /** A budget policy that answers what the test sets, and keeps what it was told. */
  private static final class TargetBudget implements BudgetPolicy {
    volatile int target;
    final List<BudgetSample> samples = new ArrayList<>();

    TargetBudget(int target) {
      this.target = target;
    }

    @Override
    public synchronized int resize(BudgetSample last) {
      samples.add(last);
      return target;
    }

    @Override
    public String spec() {
      return "target";
    }
  }

  private static Scheduler scheduler(
      AtomicLong clock, BudgetPolicy budget, int workers, int min, ControlledPolicy policy) {
    return Scheduler.builder()
        .policy(policy)
        .workers(workers)
        .quantum(Duration.ofDays(1)) // ticks only when the test calls tick()
        .spinBeforePark(Duration.ZERO)
        .elasticBudget(budget, min, PERIOD)
        .clock(clock::get)
        .build();
  }

  /** Ends the current period on the test's clock and lets the scheduler resize. */
  private static void endPeriod(Scheduler s, AtomicLong clock) {
    clock.addAndGet(PERIOD_NANOS);
    s.tick();
  }

  @Test
  void anIdleBudgetShrinksOneThreadPerPeriodToItsLeastAndReturnsTheRest() {
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    try (Scheduler s =
        scheduler(clock, BudgetPolicy.of("utilization-range"), 4, 2, new ControlledPolicy())) {
      assertEquals(4, s.budget());
      assertEquals(0, s.backgroundCores().returned());
      int[] expected = {3, 2, 2, 2};
      for (int want : expected) {
        endPeriod(s, clock);
        assertEquals(want, s.budget());
        assertEquals(4 - want, s.backgroundCores().returned());
        assertEquals(want, s.systemView().budget(), "policies see the budget as the pool");
      }
      assertEquals(4, s.workers());
      // 4 for the first period, 3 for the second, 2 for the last two: a mean of 11/4.
      assertEquals(11.0 / 4, s.meanBudget(), 1e-9);
    }
  }

  @Test
  void aBusyBudgetGrowsOneThreadPerPeriodAndNeverAboveTheWorkers() throws Exception {
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    CountDownLatch release = new CountDownLatch(1);
    try (Scheduler s =
        scheduler(clock, BudgetPolicy.of("utilization-range"), 3, 1, new ControlledPolicy())) {
      endPeriod(s, clock);
      endPeriod(s, clock);
      assertEquals(1, s.budget());
      List<CompletableFuture<Integer>> futures = new ArrayList<>();
      AtomicInteger started = new AtomicInteger();
      for (int i = 0; i < 5; i++) {
        futures.add(
            s.submit(
                ctx -> {
                  started.incrementAndGet();
                  await(release);
                  return 1;
                }));
      }
      until(() -> started.get() == 1, "one request runs on the budget of one");
      assertEquals(4, s.systemView().queuedRequests());
      for (int want = 2; want <= 3; want++) {
        endPeriod(s, clock);
        assertEquals(want, s.budget());
        int runs = want;
        until(() -> started.get() == runs, "the thread added admits the next request");
      }
      endPeriod(s, clock);
      assertEquals(3, s.budget(), "never above the workers");
      assertEquals(3, started.get());
      release.countDown();
      for (CompletableFuture<Integer> f : futures) {
        assertEquals(1, f.get(Waits.GUARD_SECONDS, TimeUnit.SECONDS));
      }
    }
  }

  @Test
  void theSampleCarriesTheQueueingDelayAndTheServiceTime() throws Exception {
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    TargetBudget budget = new TargetBudget(1);
    CountDownLatch first = new CountDownLatch(1);
    try (Scheduler s = scheduler(clock, budget, 2, 1, new ControlledPolicy())) {
      endPeriod(s, clock); // budget 1
      CompletableFuture<Integer> a =
          s.submit(
              ctx -> {
                await(first);
                return 1;
              });
      until(() -> s.systemView().busyWorkers() == 1, "a runs");
      CompletableFuture<Integer> b = s.submit(ctx -> 2);
      clock.addAndGet(400_000); // b waits 0.4 ms, a has run 0.4 ms
      first.countDown();
      assertEquals(1, a.get(Waits.GUARD_SECONDS, TimeUnit.SECONDS));
      assertEquals(2, b.get(Waits.GUARD_SECONDS, TimeUnit.SECONDS));
      clock.addAndGet(PERIOD_NANOS - 400_000);
      s.tick();
      BudgetSample last = budget.samples.get(budget.samples.size() - 1);
      assertEquals(1, last.budget());
      assertEquals(2, last.maxBudget());
      assertEquals(1, last.minBudget());
      // a was admitted at once, b after 0.4 ms: a mean delay of 0.2 ms.
      assertEquals(200_000, last.meanQueueingDelayNanos(), 1e-6);
      assertTrue(last.meanServiceNanos() > 0, "completions give a service time");
      // Busy for the 0.4 ms of a (b took no clock time) on a budget of one, over 1 ms.
      assertEquals(0.4, last.utilization(), 1e-9);
    }
  }

  @Test
  void aShrinkSendsHelpersAwayAtTheirNextUnitBoundaryAndTheRequestFinishes() throws Exception {
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    TargetBudget budget = new TargetBudget(3);
    ControlledPolicy policy = new ControlledPolicy();
    policy.degree = 3;
    Semaphore gate = new Semaphore(0, true);
    AtomicInteger ran = new AtomicInteger();
    AtomicReference<RequestView> view = new AtomicReference<>();
    int units = 12;
    try (Scheduler s = scheduler(clock, budget, 3, 1, policy)) {
      CompletableFuture<Integer> f =
          s.submit(
              ctx -> {
                view.set(ctx.view());
                for (int i = 0; i < units; i++) {
                  ctx.fork(
                      () -> {
                        gate.acquireUninterruptibly();
                        ran.incrementAndGet();
                      });
                }
                ctx.joinUnits();
                return ran.get();
              });
      until(() -> gate.getQueueLength() == 3, "three threads in units");
      budget.target = 1;
      endPeriod(s, clock);
      assertEquals(1, s.budget());
      assertEquals(3, view.get().threads(), "nobody is taken away mid-unit");
      gate.release(3); // each of the three finishes the unit it is in
      until(() -> view.get().threads() == 1, "both helpers left at their boundary");
      assertTrue(ran.get() < units, "they left while units were left");
      assertEquals(1, s.systemView().busyWorkers());
      gate.release(units);
      assertEquals(units, f.get(Waits.GUARD_SECONDS, TimeUnit.SECONDS));
      assertEquals(units, ran.get(), "every unit ran once");
    }
  }

  @Test
  void backgroundCoresFollowTheBudgetAndComeBackAtChunkBoundaries() throws Exception {
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    TargetBudget budget = new TargetBudget(1);
    Scheduler s = scheduler(clock, budget, 4, 1, new ControlledPolicy());
    BackgroundCores cores = s.backgroundCores();
    assertFalse(cores.tryAcquire(), "a full budget returns nothing");
    endPeriod(s, clock);
    assertEquals(3, cores.returned());
    for (int i = 0; i < 3; i++) {
      assertTrue(cores.tryAcquire());
    }
    assertFalse(cores.tryAcquire());
    budget.target = 3;
    endPeriod(s, clock);
    assertEquals(1, cores.returned());
    assertEquals(3, cores.lent(), "held cores are given back at the end of their chunk");
    cores.release();
    cores.release();
    assertFalse(cores.tryAcquire(), "search has them back");
    cores.release();
    assertTrue(cores.runChunk(() -> true));
    assertEquals(4, cores.chunks(), "three cores given back, one chunk run");
    assertThrows(IllegalStateException.class, cores::release);
    s.close();
    assertEquals(4, cores.returned(), "a stopped scheduler returns every core");
  }

  @Test
  void aWaitingBackgroundThreadGetsTheCoreWhenTheBudgetShrinks() throws Exception {
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    try (Scheduler s = scheduler(clock, new TargetBudget(1), 2, 1, new ControlledPolicy())) {
      CountDownLatch chunkRan = new CountDownLatch(1);
      Thread background =
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      s.backgroundCores().runChunk(() -> chunkRan.getCount() > 1);
                      chunkRan.countDown();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  });
      until(() -> background.getState() == Thread.State.WAITING, "background waits for a core");
      assertEquals(1, chunkRan.getCount());
      endPeriod(s, clock);
      await(chunkRan);
      background.join();
    }
  }

  @Test
  void aFailingBudgetPolicyKeepsTheBudget() {
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    BudgetPolicy failing =
        new BudgetPolicy() {
          @Override
          public int resize(BudgetSample last) {
            throw new IllegalStateException("boom");
          }

          @Override
          public String spec() {
            return "failing";
          }
        };
    try (Scheduler s = scheduler(clock, failing, 3, 1, new ControlledPolicy())) {
      endPeriod(s, clock);
      endPeriod(s, clock);
      assertEquals(3, s.budget());
      assertEquals(2, s.failures().count("budgetPolicy.resize"));
    }
  }

  @Test
  void badBudgetSettingsAreRefusedWithTheirRange() {
    BudgetPolicy p = BudgetPolicy.staticBudget();
    assertThrows(
        IllegalArgumentException.class, () -> Scheduler.builder().elasticBudget(p, 0, PERIOD));
    assertThrows(
        IllegalArgumentException.class,
        () -> Scheduler.builder().elasticBudget(p, 1, Duration.ZERO));
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> Scheduler.builder().workers(2).elasticBudget(p, 3, PERIOD).build());
    assertTrue(e.getMessage().contains("minWorkers (3) exceeds workers (2)"), e.getMessage());
  }

  /**
   * A budget that jumps at random every 50 µs of real time while requests with units come and go:
   * every request completes exactly once, every unit runs once, and no more threads are busy than
   * the workers.
   */
  @Test
  void everyRequestCompletesExactlyOnceWhileTheBudgetJumps() throws Exception {
    int workers = 4;
    int requests = 3_000;
    SplittableRandom random = new SplittableRandom(7);
    BudgetPolicy jumping =
        new BudgetPolicy() {
          @Override
          public synchronized int resize(BudgetSample last) {
            assertTrue(last.budget() >= 1 && last.budget() <= workers);
            return 1 + random.nextInt(workers + 1); // sometimes above the workers: clamped
          }

          @Override
          public String spec() {
            return "jumping";
          }
        };
    ControlledPolicy policy = new ControlledPolicy();
    policy.degree = workers;
    AtomicIntegerArray completions = new AtomicIntegerArray(requests);
    AtomicInteger units = new AtomicInteger();
    AtomicInteger maxBusy = new AtomicInteger();
    try (Scheduler s =
        Scheduler.builder()
            .policy(policy)
            .workers(workers)
            .quantum(Duration.ofMillis(1))
            .elasticBudget(jumping, 1, Duration.ofNanos(50_000))
            .build()) {
      List<CompletableFuture<Integer>> futures = new ArrayList<>();
      for (int i = 0; i < requests; i++) {
        int id = i;
        futures.add(
            s.submit(
                ctx -> {
                  for (int u = 0; u < 4; u++) {
                    ctx.fork(
                        () -> {
                          units.incrementAndGet();
                          maxBusy.accumulateAndGet(s.systemView().busyWorkers(), Math::max);
                        });
                  }
                  ctx.joinUnits();
                  completions.incrementAndGet(id);
                  return id;
                }));
      }
      for (int i = 0; i < requests; i++) {
        assertEquals(i, futures.get(i).get(Waits.GUARD_SECONDS, TimeUnit.SECONDS));
      }
      for (int i = 0; i < requests; i++) {
        assertEquals(1, completions.get(i), "request " + i);
      }
      assertEquals(4 * requests, units.get());
      // Own threads within the workers, helpers within the workers plus the slack when they
      // joined: busy beyond the workers plus the slack only while helpers finish their claim.
      int most = 2 * workers + Scheduler.DEFAULT_SLACK - 1;
      assertTrue(maxBusy.get() <= most, "busy " + maxBusy.get());
      assertTrue(s.budget() >= 1 && s.budget() <= workers);
    }
  }
}
