package dev.tailor.core;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.WorkerPreference;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The runtime's behaviour. Waits are for states, with hang guards (30 s), never for times; where a
 * test shows that something does not happen, it runs a tick itself ({@link Scheduler#tick()}) and
 * checks the state the tick's decisions leave, and where time matters the test moves the
 * scheduler's clock itself.
 */
class SchedulerTest {

  private static final int GUARD = Waits.GUARD_SECONDS;
  private static final Duration QUANTUM = Duration.ofMillis(2);

  private final ControlledPolicy policy = new ControlledPolicy();
  private Scheduler scheduler;

  private Scheduler start(int workers) {
    scheduler = Scheduler.builder().policy(policy).workers(workers).quantum(QUANTUM).build();
    return scheduler;
  }

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
  void submitRunsTheBodyOnAWorkerAndCompletesWithItsResult() throws Exception {
    start(2);
    Thread caller = Thread.currentThread();
    CompletableFuture<Thread> f = scheduler.submit(ctx -> Thread.currentThread());
    Thread ranOn = f.get(GUARD, SECONDS);
    assertNotEquals(caller, ranOn);
    assertTrue(ranOn.getName().startsWith("tailor-worker-"), ranOn.getName());
  }

  @Test
  void runRunsTheBodyOnTheCallersThread() throws Exception {
    start(2);
    Thread caller = Thread.currentThread();
    assertSame(caller, scheduler.run(ctx -> Thread.currentThread()));
    assertEquals(1, scheduler.metrics().count(RequestRecord.Outcome.COMPLETED));
  }

  @Test
  void everyForkedUnitRunsExactlyOnce() throws Exception {
    start(4);
    policy.degree = 3;
    int units = 200;
    AtomicInteger[] runs = new AtomicInteger[units];
    for (int i = 0; i < units; i++) {
      runs[i] = new AtomicInteger();
    }
    int sum =
        scheduler
            .submit(
                ctx -> {
                  for (AtomicInteger r : runs) {
                    ctx.fork(r::incrementAndGet);
                  }
                  ctx.joinUnits();
                  int total = 0;
                  for (AtomicInteger r : runs) {
                    total += r.get();
                  }
                  return total;
                })
            .get(GUARD, SECONDS);
    assertEquals(units, sum);
    for (AtomicInteger r : runs) {
      assertEquals(1, r.get());
    }
  }

  @Test
  void degreeIsReachedWhenThreadsAreFree() throws Exception {
    start(4);
    policy.degree = 3;
    CyclicBarrier allThree = new CyclicBarrier(3);
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    scheduler
        .submit(
            ctx -> {
              for (int i = 0; i < 3; i++) {
                ctx.fork(
                    () -> {
                      threads.add(Thread.currentThread());
                      try {
                        allThree.await(GUARD, SECONDS); // only passes with three at once
                      } catch (Exception e) {
                        throw new AssertionError(e);
                      }
                    });
              }
              ctx.joinUnits();
              return null;
            })
        .get(GUARD, SECONDS);
    assertEquals(3, threads.size());
  }

  @Test
  void degreeBoundsTheThreadsOnARequest() throws Exception {
    start(4);
    policy.degree = 2;
    AtomicInteger now = new AtomicInteger();
    AtomicInteger max = new AtomicInteger();
    CountDownLatch twoAtOnce = new CountDownLatch(1);
    scheduler
        .submit(
            ctx -> {
              for (int i = 0; i < 40; i++) {
                ctx.fork(
                    () -> {
                      int running = now.incrementAndGet();
                      max.accumulateAndGet(running, Math::max);
                      if (running >= 2) {
                        twoAtOnce.countDown();
                      }
                      await(twoAtOnce); // every unit holds its thread until two ran at once
                      now.decrementAndGet();
                    });
              }
              ctx.joinUnits();
              return null;
            })
        .get(GUARD, SECONDS);
    assertEquals(2, max.get());
    long atDegreeTwo = 0;
    for (long[] counts : scheduler.metrics().degreeDistribution().values()) {
      atDegreeTwo += counts[2];
    }
    assertEquals(1, atDegreeTwo);
  }

  @Test
  void aRunningRequestGainsThreadsAndStopsGainingThem() throws Exception {
    start(4);
    policy.degree = 1;
    CountDownLatch bothRunning = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    Set<Thread> unitThreads = ConcurrentHashMap.newKeySet();
    AtomicReference<Thread> own = new AtomicReference<>();
    CompletableFuture<String> f =
        scheduler.submit(
            ctx -> {
              own.set(Thread.currentThread());
              for (int i = 0; i < 2; i++) {
                ctx.fork(
                    () -> {
                      unitThreads.add(Thread.currentThread());
                      bothRunning.countDown();
                      await(release);
                    });
              }
              // Degree 1: a tick sends no helper while the own thread is busy here.
              scheduler.tick();
              int before = ctx.view().threads();
              policy.degree = 3; // the next tick raises the degree and releases both units
              await(bothRunning);
              release.countDown();
              // Degree 0: serialize. Re-read now on this thread; the helpers leave after their
              // units, and new units are held for the own thread.
              policy.degree = 0;
              ctx.mayContinue();
              Waits.until(() -> ctx.view().threads() == 1, "the helpers left");
              AtomicInteger late = new AtomicInteger();
              Thread self = Thread.currentThread();
              for (int i = 0; i < 3; i++) {
                ctx.fork(
                    () -> {
                      if (Thread.currentThread() == self) {
                        late.incrementAndGet();
                      }
                    });
              }
              ctx.joinUnits();
              return "threads before the raise " + before + ", late units on self " + late.get();
            });
    assertEquals("threads before the raise 1, late units on self 3", f.get(GUARD, SECONDS));
    assertEquals(2, unitThreads.size());
    assertFalse(unitThreads.contains(own.get()), "raised units ran on helpers");
  }

  @Test
  void anExceptionInAUnitFailsThatRequestOnly() throws Exception {
    start(3);
    policy.degree = 3;
    IllegalStateException boom = new IllegalStateException("boom");
    CompletableFuture<Object> failing =
        scheduler.submit(
            ctx -> {
              ctx.fork(
                  () -> {
                    throw boom;
                  });
              ctx.fork(() -> {});
              ctx.joinUnits();
              return "not reached";
            });
    CompletableFuture<String> fine = scheduler.submit(ctx -> "fine");
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> failing.get(GUARD, SECONDS));
    assertSame(boom, e.getCause());
    assertEquals("fine", fine.get(GUARD, SECONDS));
    assertEquals("after", scheduler.submit(ctx -> "after").get(GUARD, SECONDS));
    assertEquals(1, scheduler.metrics().count(RequestRecord.Outcome.FAILED));
  }

  @Test
  void aUnitFailureFailsTheRequestEvenIfTheBodyDoesNotJoin() throws Exception {
    start(2);
    policy.degree = 2;
    CountDownLatch failed = new CountDownLatch(1);
    CompletableFuture<String> f =
        scheduler.submit(
            ctx -> {
              ctx.fork(
                  () -> {
                    failed.countDown();
                    throw new ArithmeticException("unit");
                  });
              await(failed);
              return "ignored";
            });
    ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(GUARD, SECONDS));
    assertTrue(e.getCause() instanceof ArithmeticException);
  }

  @Test
  void runRethrowsTheBodysOwnException() {
    start(1);
    java.io.IOException io = new java.io.IOException("disk");
    java.io.IOException thrown =
        assertThrows(
            java.io.IOException.class,
            () ->
                scheduler.run(
                    ctx -> {
                      throw io;
                    }));
    assertSame(io, thrown);
  }

  @Test
  void cancellingAQueuedRequestRemovesItUnrun() throws Exception {
    start(1);
    CountDownLatch blocker = new CountDownLatch(1);
    CompletableFuture<Object> first =
        scheduler.submit(
            ctx -> {
              await(blocker);
              return null;
            });
    AtomicInteger ran = new AtomicInteger();
    CompletableFuture<Object> second = scheduler.submit(ctx -> ran.incrementAndGet());
    assertEquals(1, scheduler.systemView().queuedRequests());
    assertTrue(second.cancel(false));
    assertEquals(0, scheduler.systemView().queuedRequests());
    blocker.countDown();
    first.get(GUARD, SECONDS);
    assertEquals("next", scheduler.submit(ctx -> "next").get(GUARD, SECONDS));
    assertEquals(0, ran.get());
    assertTrue(second.isCancelled());
  }

  @Test
  void cancellingARunningRequestDropsItsHeldUnitsAndFreesItsWorker() throws Exception {
    start(1);
    policy.degree = 1;
    AtomicInteger unitsRun = new AtomicInteger();
    CountDownLatch forked = new CountDownLatch(1);
    AtomicReference<String> bodySaw = new AtomicReference<>();
    CompletableFuture<Object> f =
        scheduler.submit(
            ctx -> {
              for (int i = 0; i < 5; i++) {
                ctx.fork(unitsRun::incrementAndGet);
              }
              forked.countDown();
              Waits.until(ctx::isCancelled, "cancelled");
              bodySaw.set("interrupted " + Thread.currentThread().isInterrupted());
              return null;
            });
    await(forked);
    assertTrue(f.cancel(true));
    assertEquals("free", scheduler.submit(ctx -> "free").get(GUARD, SECONDS));
    assertEquals("interrupted false", bodySaw.get(), "cancellation is cooperative");
    assertEquals(0, unitsRun.get());
    // Its record is made at its exit, outside the dispatch lock: after its slot came back, so
    // perhaps after the next request completed on that slot.
    Waits.until(
        () -> scheduler.metrics().count(RequestRecord.Outcome.CANCELLED) == 1, "recorded once");
    assertEquals(1, scheduler.metrics().count(RequestRecord.Outcome.CANCELLED));
  }

  @Test
  void aFullQueueRejectsNamingTheLimit() throws Exception {
    scheduler =
        Scheduler.builder().policy(policy).workers(1).queueCapacity(1).quantum(QUANTUM).build();
    CountDownLatch blocker = new CountDownLatch(1);
    scheduler.submit(
        ctx -> {
          await(blocker);
          return null;
        });
    CompletableFuture<String> queued = scheduler.submit(ctx -> "queued");
    RejectedExecutionException e =
        assertThrows(RejectedExecutionException.class, () -> scheduler.submit(ctx -> "third"));
    assertTrue(e.getMessage().contains("limit 1"), e.getMessage());
    blocker.countDown();
    assertEquals("queued", queued.get(GUARD, SECONDS));
  }

  @Test
  void shutdownLetsPendingRequestsFinishAndRejectsNewOnes() throws Exception {
    start(1);
    CountDownLatch blocker = new CountDownLatch(1);
    CompletableFuture<String> running =
        scheduler.submit(
            ctx -> {
              await(blocker);
              return "a";
            });
    CompletableFuture<String> queued = scheduler.submit(ctx -> "b");
    scheduler.shutdown();
    assertTrue(scheduler.isShutdown());
    assertThrows(RejectedExecutionException.class, () -> scheduler.submit(ctx -> "c"));
    assertFalse(scheduler.isTerminated(), "a request still runs");
    blocker.countDown();
    assertTrue(scheduler.awaitTermination(GUARD, SECONDS));
    assertTrue(scheduler.isTerminated());
    assertEquals("a", running.get());
    assertEquals("b", queued.get());
  }

  @Test
  void shutdownNowFailsQueuedAndCancelsRunningRequests() throws Exception {
    start(1);
    CountDownLatch started = new CountDownLatch(1);
    AtomicReference<String> bodySaw = new AtomicReference<>();
    CompletableFuture<Object> running =
        scheduler.submit(
            ctx -> {
              started.countDown();
              Waits.until(ctx::isCancelled, "cancelled by shutdownNow");
              bodySaw.set("interrupted " + Thread.currentThread().isInterrupted());
              return null;
            });
    CompletableFuture<String> queued = scheduler.submit(ctx -> "never");
    await(started);
    assertEquals(1, scheduler.shutdownNow());
    assertTrue(scheduler.awaitTermination(GUARD, SECONDS));
    assertThrows(CancellationException.class, queued::join);
    assertThrows(CancellationException.class, running::join);
    assertEquals("interrupted false", bodySaw.get());
  }

  @Test
  void aCallerRunningARequestHoldsASlotOfTheBudget() throws Exception {
    start(1);
    CountDownLatch callerRunning = new CountDownLatch(1);
    CountDownLatch callerMayFinish = new CountDownLatch(1);
    AtomicInteger submittedStarted = new AtomicInteger();
    Thread caller =
        new Thread(
            () -> {
              try {
                scheduler.run(
                    ctx -> {
                      callerRunning.countDown();
                      await(callerMayFinish);
                      return null;
                    });
              } catch (Exception e) {
                throw new AssertionError(e);
              }
            });
    caller.start();
    await(callerRunning);
    CompletableFuture<Integer> submitted =
        scheduler.submit(ctx -> submittedStarted.incrementAndGet());
    scheduler.tick();
    assertEquals(1, scheduler.systemView().queuedRequests(), "the only slot is the caller's");
    assertEquals(0, submittedStarted.get());
    assertEquals(1, scheduler.systemView().busyWorkers());
    callerMayFinish.countDown();
    assertEquals(1, submitted.get(GUARD, SECONDS));
    caller.join(GUARD * 1000L);
  }

  @Test
  void aCallerWaitsForAdmissionLikeAnyRequest() throws Exception {
    start(1);
    CountDownLatch blocker = new CountDownLatch(1);
    List<String> order = new CopyOnWriteArrayList<>();
    scheduler.submit(
        ctx -> {
          await(blocker);
          order.add("submitted");
          return null;
        });
    Thread caller =
        new Thread(
            () -> {
              try {
                scheduler.run(ctx -> order.add("caller"));
              } catch (Exception e) {
                throw new AssertionError(e);
              }
            });
    caller.start();
    Waits.until(() -> scheduler.systemView().queuedRequests() == 1, "the caller queued");
    scheduler.tick();
    assertEquals(1, scheduler.systemView().queuedRequests(), "the caller still waits");
    assertEquals(List.of(), order);
    blocker.countDown();
    caller.join(GUARD * 1000L);
    assertEquals(List.of("submitted", "caller"), order);
  }

  @Test
  void aNestedRunInsideAWorkerDoesNotDeadlock() throws Exception {
    start(1);
    String result = scheduler.submit(ctx -> scheduler.run(inner -> "nested")).get(GUARD, SECONDS);
    assertEquals("nested", result);
  }

  @Test
  void aDelayedAdmissionStartsWhenItsTimeComesAndNotBefore() throws Exception {
    AtomicLong clock = new AtomicLong(1_000_000);
    scheduler =
        Scheduler.builder().policy(policy).workers(2).quantum(QUANTUM).clock(clock::get).build();
    long delay = Duration.ofMillis(30).toNanos();
    policy.admission =
        (r, s) -> s.nanoTime() - r.arrivalNanos() < delay ? delayUntil(r, delay) : null;
    CompletableFuture<RequestView> f = scheduler.submit(RequestContext::view);
    scheduler.tick();
    assertEquals(1, scheduler.systemView().queuedRequests(), "delayed at arrival");
    clock.addAndGet(delay - 1);
    scheduler.tick();
    assertEquals(1, scheduler.systemView().queuedRequests(), "a nanosecond early: still delayed");
    clock.addAndGet(1);
    scheduler.tick();
    RequestView v = f.get(GUARD, SECONDS);
    assertEquals(delay, v.startNanos() - v.arrivalNanos(), "started when its time came");
  }

  private static Admission delayUntil(RequestView r, long delay) {
    return Admission.delayUntil(r.arrivalNanos() + delay);
  }

  @Test
  void anAdmissionAwaitingAnExitStartsWhenARequestExits() throws Exception {
    start(2);
    policy.admission = (r, s) -> s.activeRequests() > 0 ? Admission.awaitExit() : null;
    CountDownLatch blocker = new CountDownLatch(1);
    List<String> order = new CopyOnWriteArrayList<>();
    CompletableFuture<Object> first =
        scheduler.submit(
            ctx -> {
              await(blocker);
              order.add("first done");
              return null;
            });
    CompletableFuture<Boolean> second = scheduler.submit(ctx -> order.add("second started"));
    scheduler.tick();
    assertEquals(1, scheduler.systemView().queuedRequests(), "held for an exit, a slot free");
    assertEquals(List.of(), order);
    blocker.countDown();
    first.get(GUARD, SECONDS);
    second.get(GUARD, SECONDS);
    assertEquals(List.of("first done", "second started"), order);
  }

  @Test
  void awaitingAnExitWithNothingRunningStartsAtOnce() throws Exception {
    start(1);
    policy.admission = (r, s) -> Admission.awaitExit();
    assertEquals("ran", scheduler.submit(ctx -> "ran").get(GUARD, SECONDS));
  }

  @Test
  void admitFirstAdmitsBeforeHelpingAndHelpFirstHelpsBeforeAdmitting() throws Exception {
    assertEquals(List.of("B", "U"), order(WorkerPreference.ADMIT_FIRST, false));
    assertEquals(List.of("U", "B"), order(WorkerPreference.HELP_FIRST, false));
  }

  @Test
  void underPromptAdmissionAWaitingRequestIsAdmittedBeforeHelpingWhateverThePreference()
      throws Exception {
    assertEquals(List.of("B", "U"), order(WorkerPreference.ADMIT_FIRST, true));
    assertEquals(List.of("B", "U"), order(WorkerPreference.HELP_FIRST, true));
  }

  /**
   * Two workers: A (degree 2) holds one unit U and waits for B; C blocks the other worker while B
   * queues. When C finishes, the freed worker either helps A with U or admits B.
   */
  private List<String> order(WorkerPreference preference, boolean prompt) throws Exception {
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
    scheduler =
        Scheduler.builder()
            .policy(policy)
            .workers(2)
            .slack(0) // no thread lent: A's unit waits for C's worker
            .quantum(QUANTUM)
            .promptAdmission(prompt)
            .build();
    policy.degree = 2;
    policy.preference = preference;
    List<String> order = new CopyOnWriteArrayList<>();
    CountDownLatch cRunning = new CountDownLatch(1);
    CountDownLatch cRelease = new CountDownLatch(1);
    CountDownLatch bDone = new CountDownLatch(1);
    CountDownLatch uForked = new CountDownLatch(1);
    CompletableFuture<Object> c =
        scheduler.submit(
            ctx -> {
              cRunning.countDown();
              await(cRelease);
              return null;
            });
    await(cRunning);
    policy.degree = 1; // A's unit stays held until C's worker is free...
    CompletableFuture<Object> a =
        scheduler.submit(
            ctx -> {
              ctx.fork(() -> order.add("U"));
              uForked.countDown();
              await(bDone);
              ctx.joinUnits();
              return null;
            });
    await(uForked);
    policy.degree = 2; // ...then A may take a second thread, but none is free.
    CompletableFuture<Object> b =
        scheduler.submit(
            ctx -> {
              order.add("B");
              bDone.countDown();
              return null;
            });
    scheduler.tick(); // A's degree is 2 now
    cRelease.countDown();
    c.get(GUARD, SECONDS);
    b.get(GUARD, SECONDS);
    a.get(GUARD, SECONDS);
    return order;
  }

  @Test
  void theListenerHearsAdmissionDegreeChangesAndExactlyOneCompletion() throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    policy.degree = 1;
    scheduler =
        Scheduler.builder()
            .policy(policy)
            .workers(2)
            .quantum(QUANTUM)
            .listener(
                new SchedulerListener() {
                  @Override
                  public void requestAdmitted(RequestView request, int degree) {
                    events.add("admitted " + degree);
                  }

                  @Override
                  public void degreeChanged(RequestView request, int from, int to) {
                    events.add("degree " + from + "->" + to);
                  }

                  @Override
                  public void requestCompleted(RequestRecord record) {
                    events.add("completed " + record.outcome() + " max " + record.maxDegree());
                  }
                })
            .build();
    scheduler
        .submit(
            ctx -> {
              policy.degree = 2;
              while (!events.contains("degree 1->2")) {
                Thread.onSpinWait();
              }
              return null;
            })
        .get(GUARD, SECONDS);
    assertEquals(List.of("admitted 1", "degree 1->2", "completed COMPLETED max 2"), events);
  }

  @Test
  void accountingAddsUpWorkAndDegree() throws Exception {
    policy.degree = 2;
    AtomicReference<RequestRecord> record = new AtomicReference<>();
    AtomicLong clock = new AtomicLong();
    long unitTime = Duration.ofMillis(20).toNanos();
    scheduler =
        Scheduler.builder()
            .policy(policy)
            .workers(2)
            .quantum(QUANTUM)
            .clock(clock::get)
            .listener(
                new SchedulerListener() {
                  @Override
                  public void requestCompleted(RequestRecord r) {
                    record.set(r);
                  }
                })
            .build();
    CountDownLatch bothBusy = new CountDownLatch(2);
    CountDownLatch clockMoved = new CountDownLatch(1);
    CompletableFuture<Object> f =
        scheduler.submit(
            ctx -> {
              for (int i = 0; i < 2; i++) {
                ctx.fork(
                    () -> {
                      bothBusy.countDown();
                      await(clockMoved);
                    });
              }
              ctx.joinUnits();
              return null;
            });
    await(bothBusy); // both threads are in a unit: 20 ms pass for each
    clock.addAndGet(unitTime);
    clockMoved.countDown();
    f.get(GUARD, SECONDS);
    RequestRecord r = record.get();
    assertEquals(2, r.maxThreads());
    assertEquals(2, r.maxDegree());
    assertEquals(2.0, r.meanDegree(), 1e-9);
    assertEquals(2 * unitTime, r.workNanos(), "two threads, 20 ms each");
    assertEquals(unitTime, r.runNanos());
    assertEquals(0, r.queueingNanos());
    assertEquals(1, scheduler.metrics().latency().getTotalCount());
  }

  @Test
  void joiningFromAUnitFailsTheRequestInsteadOfDeadlocking() throws Exception {
    start(2);
    policy.degree = 2;
    CountDownLatch onHelper = new CountDownLatch(1);
    CompletableFuture<Object> f =
        scheduler.submit(
            ctx -> {
              ctx.fork(
                  () -> {
                    onHelper.countDown();
                    ctx.joinUnits();
                  });
              await(onHelper); // the unit runs on a helper, not on this thread
              ctx.joinUnits();
              return null;
            });
    ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(GUARD, SECONDS));
    assertTrue(e.getCause() instanceof IllegalStateException, e.getCause().toString());
    assertTrue(e.getCause().getMessage().contains("own thread"), e.getCause().getMessage());
  }

  @Test
  void anInterruptLeftByAUnitDoesNotReachTheNextRequest() throws Exception {
    start(1);
    policy.degree = 2; // one worker: the unit runs on the body's thread in joinUnits
    scheduler
        .submit(
            ctx -> {
              ctx.fork(() -> Thread.currentThread().interrupt());
              ctx.joinUnits();
              return null;
            })
        .get(GUARD, SECONDS);
    assertFalse(
        scheduler.submit(ctx -> Thread.currentThread().isInterrupted()).get(GUARD, SECONDS));
  }

  @Test
  void aDependentStageMayRunARequestOnTheSameScheduler() throws Exception {
    start(1);
    CompletableFuture<String> chained =
        scheduler
            .submit(ctx -> "first")
            .thenApply(
                first -> {
                  try {
                    // Runs on the worker that completed "first": its slot is free by now.
                    return first + "+" + scheduler.run(ctx -> "second");
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                });
    assertEquals("first+second", chained.get(GUARD, SECONDS));
  }

  @Test
  void aWorkerWhoseRequestEndsRunsTheQueuedRequestItselfWakingNoOther() throws Exception {
    start(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Thread> first =
        scheduler.submit(
            ctx -> {
              release.await();
              return Thread.currentThread();
            });
    CompletableFuture<Thread> queued = scheduler.submit(ctx -> Thread.currentThread());
    Waits.until(() -> scheduler.systemView().queuedRequests() == 1, "the second request queued");
    release.countDown();
    assertSame(first.get(GUARD, SECONDS), queued.get(GUARD, SECONDS));
  }

  @Test
  void aSlotHeldBackByABlockedDependentStageGoesToAnotherWorkerAtTheNextTick() throws Exception {
    // No tick comes by itself: the test runs the one it means.
    scheduler = Scheduler.builder().policy(policy).workers(1).quantum(Duration.ofHours(1)).build();
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch stageRuns = new CountDownLatch(1);
    CountDownLatch stageMayEnd = new CountDownLatch(1);
    CompletableFuture<Thread> first =
        scheduler.submit(
            ctx -> {
              release.await();
              return Thread.currentThread();
            });
    CompletableFuture<Void> stage =
        first.thenAccept(
            t -> {
              stageRuns.countDown();
              await(stageMayEnd); // holds the worker that completed "first"
            });
    CompletableFuture<Thread> queued = scheduler.submit(ctx -> Thread.currentThread());
    Waits.until(() -> scheduler.systemView().queuedRequests() == 1, "the second request queued");
    release.countDown();
    await(stageRuns);
    assertEquals(
        1, scheduler.systemView().queuedRequests(), "no other worker was woken at the exit");
    scheduler.tick();
    Thread ranOn = queued.get(GUARD, SECONDS);
    assertNotEquals(first.get(GUARD, SECONDS), ranOn);
    stageMayEnd.countDown();
    stage.get(GUARD, SECONDS);
  }

  @Test
  void aCancelledBodyLeavesJoinUnitsOnlyAfterItsRunningUnitsFinish() throws Exception {
    start(2);
    policy.degree = 2;
    CountDownLatch unitRunning = new CountDownLatch(1);
    CountDownLatch unitMayFinish = new CountDownLatch(1);
    AtomicInteger unitFinished = new AtomicInteger();
    AtomicReference<String> bodySaw = new AtomicReference<>();
    AtomicReference<Thread> own = new AtomicReference<>();
    CountDownLatch bodyDone = new CountDownLatch(1);
    CompletableFuture<Object> f =
        scheduler.submit(
            ctx -> {
              own.set(Thread.currentThread());
              ctx.fork(
                  () -> {
                    unitRunning.countDown();
                    await(unitMayFinish);
                    unitFinished.incrementAndGet();
                  });
              await(unitRunning);
              try {
                ctx.joinUnits();
              } catch (CancellationException e) {
                bodySaw.set("cancelled, unit finished " + unitFinished.get());
              } finally {
                bodyDone.countDown();
              }
              return null;
            });
    await(unitRunning);
    Waits.until(() -> own.get() != null, "the body started");
    Waits.untilInJoin(own.get());
    assertTrue(f.cancel(true));
    assertTrue(Waits.inAwaitHelpers(own.get()), "still waiting for the running unit");
    assertEquals(1, bodyDone.getCount());
    unitMayFinish.countDown();
    await(bodyDone);
    assertEquals("cancelled, unit finished 1", bodySaw.get());
  }

  @Test
  void aThrowingListenerOrAMissingAdmissionDoesNotStopTheScheduler() throws Exception {
    scheduler =
        Scheduler.builder()
            .policy(
                new dev.tailor.core.policy.Policy() {
                  @Override
                  public Admission admit(RequestView request, dev.tailor.core.policy.SystemView s) {
                    return null; // read as start(1)
                  }

                  @Override
                  public int degree(RequestView request, dev.tailor.core.policy.SystemView s) {
                    throw new AssertionError("policy bug");
                  }

                  @Override
                  public String spec() {
                    return "broken";
                  }
                })
            .workers(1)
            .quantum(QUANTUM)
            .listener(
                new SchedulerListener() {
                  @Override
                  public void requestAdmitted(RequestView request, int degree) {
                    throw new AssertionError("listener bug");
                  }

                  @Override
                  public void requestCompleted(RequestRecord record) {
                    throw new OutOfMemoryError("listener bug");
                  }
                })
            .build();
    for (int i = 0; i < 3; i++) {
      int n = i;
      assertEquals(
          n,
          scheduler
              .submit(
                  ctx -> {
                    ctx.fork(() -> {});
                    ctx.mayContinue(); // asks the broken policy here
                    scheduler.tick(); // and on a tick
                    ctx.joinUnits();
                    return n;
                  })
              .get(GUARD, SECONDS));
    }
  }

  @Test
  void completingTheFutureFromOutsideAbandonsTheRequest() throws Exception {
    start(1);
    policy.degree = 1;
    AtomicInteger unitsRun = new AtomicInteger();
    CountDownLatch forked = new CountDownLatch(1);
    CountDownLatch bodyMayReturn = new CountDownLatch(1);
    CompletableFuture<Object> f =
        scheduler.submit(
            ctx -> {
              for (int i = 0; i < 5; i++) {
                ctx.fork(unitsRun::incrementAndGet);
              }
              forked.countDown();
              await(bodyMayReturn);
              return "late";
            });
    await(forked);
    assertTrue(f.completeExceptionally(new java.util.concurrent.TimeoutException("deadline")));
    bodyMayReturn.countDown();
    assertEquals("free", scheduler.submit(ctx -> "free").get(GUARD, SECONDS));
    assertEquals(0, unitsRun.get(), "held units were dropped");
    assertEquals(1, scheduler.metrics().count(RequestRecord.Outcome.CANCELLED));
    assertThrows(ExecutionException.class, f::get);
  }
}
