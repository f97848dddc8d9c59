package dev.tailor.core;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.policy.RequestView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Idle workers, and a request's own thread waiting for its helpers, spin before they park ({@link
 * Tuning#withSpinBeforePark}). Spinning must change nothing but how soon a thread takes its next
 * work: every request completes exactly once, a stop still ends a spinning worker, a wait in {@code
 * joinUnits} still keeps an interrupt for afterwards. Waits are hang guards (30 s), never speed
 * checks; a spin of a day stands for "spins until something happens".
 */
class SpinBeforeParkTest {

  private static final int GUARD = Waits.GUARD_SECONDS;
  private static final Duration FOREVER = Duration.ofDays(1);

  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
  private Scheduler scheduler;

  private final ThreadFactory factory =
      r -> {
        Thread t = new Thread(r);
        t.setDaemon(true);
        t.setUncaughtExceptionHandler((th, e) -> uncaught.add(e));
        threads.add(t);
        return t;
      };

  @AfterEach
  void stop() throws InterruptedException {
    if (scheduler != null) {
      scheduler.shutdownNow();
      assertTrue(scheduler.awaitTermination(GUARD, SECONDS), "scheduler terminated");
    }
  }

  private static void await(CountDownLatch latch) {
    Waits.await(latch);
  }

  @Test
  void aNegativeSpinIsRejectedNamingTheOption() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Scheduler.builder().spinBeforePark(Duration.ofNanos(-1)));
    assertTrue(e.getMessage().contains("spinBeforePark"), e.getMessage());
    assertTrue(e.getMessage().contains(Duration.ofNanos(-1).toString()), e.getMessage());
    assertThrows(NullPointerException.class, () -> Scheduler.builder().spinBeforePark(null));
  }

  @Test
  void zeroAndHugeSpinsAreAccepted() throws Exception {
    for (Duration spin : List.of(Duration.ZERO, Duration.ofNanos(1), FOREVER, maxDuration())) {
      try (Scheduler s = Scheduler.builder().workers(2).spinBeforePark(spin).build()) {
        assertEquals(7, s.submit(ctx -> 7).get(GUARD, SECONDS), spin.toString());
      }
    }
  }

  private static Duration maxDuration() {
    return Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
  }

  @Test
  void withSpinningEveryRequestCompletesExactlyOnce() throws Exception {
    stress(Duration.ofMillis(1), "fixed:2");
    stress(FOREVER, "fixed:4");
  }

  @Test
  void withSpinningOffEveryRequestCompletesExactlyOnce() throws Exception {
    stress(Duration.ZERO, "fixed:2");
    stress(Duration.ZERO, "fixed:4");
  }

  @Test
  void withTheDefaultSpinEveryRequestCompletesExactlyOnce() throws Exception {
    stress(null, "fixed:3");
  }

  /**
   * Three submitters and a caller running requests on its own thread, many small requests that fork
   * a few trivial units, half of them joining: every future completes exactly once with its own
   * result, every unit of a joined request ran exactly once, and the listener and the metrics count
   * each request once.
   */
  private void stress(Duration spin, String policy) throws Exception {
    int submitters = 3;
    int perSubmitter = 2_000;
    int onCaller = 500;
    Map<Long, AtomicInteger> reported = new ConcurrentHashMap<>();
    threads.clear();
    Scheduler.Builder b =
        Scheduler.builder()
            .policy(policy)
            .workers(4)
            .queueCapacity(submitters * perSubmitter + onCaller + 1)
            .quantum(Duration.ofMillis(1))
            .threadFactory(factory)
            .listener(
                new SchedulerListener() {
                  @Override
                  public void requestCompleted(RequestRecord record) {
                    reported
                        .computeIfAbsent(record.id(), k -> new AtomicInteger())
                        .incrementAndGet();
                  }
                });
    if (spin != null) {
      b.spinBeforePark(spin);
    }
    Scheduler s = b.build();
    List<Small> all = new CopyOnWriteArrayList<>();
    List<Thread> clients = new ArrayList<>();
    AtomicReference<Throwable> clientFailure = new AtomicReference<>();
    for (int c = 0; c < submitters + 1; c++) {
      boolean caller = c == submitters;
      long seed = 1_000L * c + 16;
      Thread client =
          new Thread(
              () -> {
                SplittableRandom random = new SplittableRandom(seed);
                List<CompletableFuture<Integer>> futures = new ArrayList<>();
                try {
                  for (int i = 0; i < (caller ? onCaller : perSubmitter); i++) {
                    Small r = new Small(all.size() + 1_000_000 * (int) seed, random);
                    all.add(r);
                    if (caller) {
                      r.outcome(s.run(r::body), null);
                    } else {
                      CompletableFuture<Integer> f = s.submit(r::body);
                      futures.add(f.whenComplete(r::outcome)); // done once recorded
                    }
                  }
                  for (CompletableFuture<Integer> f : futures) {
                    f.get(GUARD, SECONDS);
                  }
                } catch (Throwable t) {
                  clientFailure.compareAndSet(null, t);
                }
              });
      clients.add(client);
      client.start();
    }
    for (Thread client : clients) {
      client.join(SECONDS.toMillis(GUARD));
      assertFalse(client.isAlive(), "hang guard");
    }
    s.shutdown();
    assertTrue(s.awaitTermination(GUARD, SECONDS), "terminated");
    String where = policy + ", spin " + spin;
    assertEquals(null, clientFailure.get(), where);
    assertEquals(List.of(), uncaught, where + ": no thread died");
    assertEquals(submitters * perSubmitter + onCaller, all.size());
    for (Small r : all) {
      r.check(where);
    }
    assertEquals(all.size(), reported.size(), where + ": every request reported");
    for (AtomicInteger count : reported.values()) {
      assertEquals(1, count.get(), where + ": reported exactly once");
    }
    long total = 0;
    for (RequestRecord.Outcome o : RequestRecord.Outcome.values()) {
      total += s.metrics().count(o);
    }
    assertEquals(all.size(), total, where + ": metrics count every request once");
    for (Thread t : threads) {
      // Terminated means no thread works any more; one may still be returning from its run.
      t.join(SECONDS.toMillis(GUARD));
      assertFalse(t.isAlive(), where + ": " + t.getName() + " exited");
    }
  }

  /** A small request: a few trivial units, joined or not, and its outcomes counted. */
  private static final class Small {
    final int index;
    final int units;
    final boolean joins;
    final AtomicInteger unitRuns = new AtomicInteger();
    final AtomicInteger outcomes = new AtomicInteger();
    volatile Integer result;
    volatile Throwable failure;

    Small(int index, SplittableRandom random) {
      this.index = index;
      this.units = random.nextInt(6);
      this.joins = random.nextBoolean();
    }

    Integer body(RequestContext ctx) {
      for (int u = 0; u < units; u++) {
        ctx.fork(unitRuns::incrementAndGet);
      }
      if (joins) {
        ctx.joinUnits();
      }
      return index;
    }

    void outcome(Integer value, Throwable error) {
      outcomes.incrementAndGet();
      result = value;
      failure = error;
    }

    void check(String where) {
      where = where + ": request " + index;
      assertEquals(1, outcomes.get(), where + " completed exactly once");
      assertEquals(null, failure, where);
      assertEquals(index, result, where + " result");
      assertTrue(unitRuns.get() <= units, where + " no unit ran twice");
      if (joins) {
        assertEquals(units, unitRuns.get(), where + " joined every unit");
      }
    }
  }

  @Test
  void aSchedulerThatSpinsShutsDownAndItsWorkersTerminate() throws Exception {
    scheduler =
        Scheduler.builder()
            .policy("fixed:2")
            .workers(2)
            .spinBeforePark(FOREVER)
            .threadFactory(factory)
            .build();
    for (int i = 0; i < 100; i++) {
      int n = i;
      assertEquals(
          n,
          scheduler
              .submit(
                  ctx -> {
                    ctx.fork(() -> {});
                    ctx.fork(() -> {});
                    ctx.joinUnits();
                    return n;
                  })
              .get(GUARD, SECONDS));
    }
    // The workers that have worked spin until they are given work or stopped.
    scheduler.shutdown();
    assertTrue(scheduler.awaitTermination(GUARD, SECONDS), "terminated");
    assertTrue(scheduler.isTerminated());
    // Pool threads: twice the budget plus the slack less one, so that an admitted pool body
    // always finds one idle while helpers finish their claims.
    assertEquals(
        2 * 2 + Scheduler.DEFAULT_SLACK - 1 + 1, threads.size(), "pool and the reevaluator");
    for (Thread t : threads) {
      t.join(SECONDS.toMillis(GUARD));
      assertFalse(t.isAlive(), t.getName() + " exited");
    }
    assertEquals(List.of(), uncaught);
  }

  @Test
  void shutdownNowEndsASpinningSchedulerWithARequestRunning() throws Exception {
    scheduler =
        Scheduler.builder()
            .policy("fixed:2")
            .workers(2)
            .spinBeforePark(FOREVER)
            .threadFactory(factory)
            .build();
    assertEquals(1, scheduler.submit(ctx -> 1).get(GUARD, SECONDS)); // one worker now spins
    CountDownLatch running = new CountDownLatch(1);
    CompletableFuture<Object> blocked =
        scheduler.submit(
            ctx -> {
              running.countDown();
              Waits.until(ctx::isCancelled, "cancelled"); // shutdownNow cancels it
              return null;
            });
    await(running);
    scheduler.shutdownNow();
    assertTrue(scheduler.awaitTermination(GUARD, SECONDS), "terminated");
    assertThrows(CancellationException.class, blocked::join);
    for (Thread t : threads) {
      t.join(SECONDS.toMillis(GUARD));
      assertFalse(t.isAlive(), t.getName() + " exited");
    }
  }

  @Test
  void aJoinThatSpinsKeepsTheInterruptAndWaitsForTheHelpersUnit() throws Exception {
    joinKeepsTheInterruptAndWaitsForTheHelpersUnit(FOREVER);
  }

  @Test
  void aJoinThatParksAtOnceKeepsTheInterruptAndWaitsForTheHelpersUnit() throws Exception {
    joinKeepsTheInterruptAndWaitsForTheHelpersUnit(Duration.ZERO);
  }

  /**
   * A caller's body (never interrupted by the scheduler) hands a unit to a helper and joins; the
   * caller is interrupted while it waits in the join: it still waits for the unit, then returns
   * with its interrupt flag set.
   */
  private void joinKeepsTheInterruptAndWaitsForTheHelpersUnit(Duration spin) throws Exception {
    startDegreeTwo(spin);
    CountDownLatch onHelper = new CountDownLatch(1);
    CountDownLatch unitMayFinish = new CountDownLatch(1);
    AtomicInteger unitFinished = new AtomicInteger();
    AtomicReference<String> seen = new AtomicReference<>();
    Thread caller =
        new Thread(
            () -> {
              try {
                scheduler.run(
                    ctx -> {
                      ctx.fork(
                          () -> {
                            onHelper.countDown();
                            await(unitMayFinish);
                            unitFinished.incrementAndGet();
                          });
                      await(onHelper); // the unit runs on the helper, not on this thread
                      ctx.joinUnits();
                      seen.set(
                          "unit finished "
                              + unitFinished.get()
                              + ", interrupted "
                              + Thread.currentThread().isInterrupted());
                      return null;
                    });
              } catch (Exception e) {
                seen.set(e.toString());
              }
            });
    caller.start();
    awaitInJoin(caller);
    caller.interrupt();
    awaitInJoin(caller); // interrupted, it keeps waiting for the unit
    unitMayFinish.countDown();
    caller.join(SECONDS.toMillis(GUARD));
    assertFalse(caller.isAlive(), "hang guard");
    assertEquals("unit finished 1, interrupted true", seen.get());
  }

  @Test
  void waitingForHelpersIsNotWorkWhetherItSpinsOrParks() throws Exception {
    for (Duration spin : List.of(FOREVER, Duration.ZERO)) {
      AtomicLong clock = new AtomicLong();
      startDegreeTwo(spin, clock::get);
      CountDownLatch onHelper = new CountDownLatch(1);
      CountDownLatch unitMayFinish = new CountDownLatch(1);
      AtomicReference<RequestView> view = new AtomicReference<>();
      AtomicReference<Thread> own = new AtomicReference<>();
      CompletableFuture<Object> f =
          scheduler.submit(
              ctx -> {
                view.set(ctx.view());
                own.set(Thread.currentThread());
                ctx.fork(
                    () -> {
                      onHelper.countDown();
                      await(unitMayFinish);
                    });
                await(onHelper);
                ctx.joinUnits();
                return null;
              });
      await(onHelper);
      while (own.get() == null) {
        Thread.onSpinWait();
      }
      try {
        awaitInJoin(own.get());
        // Only the helper counts as working now, so work grows as fast as the clock; were the
        // waiting own thread counted too, it would grow twice as fast.
        long work1 = view.get().workNanos();
        clock.addAndGet(20_000_000);
        long work2 = view.get().workNanos();
        assertTrue(inAwaitHelpers(own.get()), "still waiting");
        assertEquals(20_000_000, work2 - work1, spin + ": work grew with one thread");
      } finally {
        unitMayFinish.countDown();
      }
      f.get(GUARD, SECONDS);
      scheduler.close();
      scheduler = null;
    }
  }

  private void startDegreeTwo(Duration spin) {
    startDegreeTwo(spin, System::nanoTime);
  }

  private void startDegreeTwo(Duration spin, LongSupplier clock) {
    ControlledPolicy policy = new ControlledPolicy();
    policy.degree = 2;
    scheduler =
        Scheduler.builder()
            .policy(policy)
            .workers(2)
            .spinBeforePark(spin)
            .threadFactory(factory)
            .clock(clock)
            .build();
  }

  private static void awaitInJoin(Thread t) {
    Waits.untilInJoin(t);
  }

  private static boolean inAwaitHelpers(Thread t) {
    return Waits.inAwaitHelpers(t);
  }
}
