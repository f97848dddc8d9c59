package dev.tailor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.metrics.RequestRecord.Outcome;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link Scheduler#enter}: a request opened on the caller's thread and closed later on it. */
class RequestScopeTest {

  @Test
  void helpersRunForkedUnitsAndCloseWaitsForThem() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    AtomicBoolean unitFinished = new AtomicBoolean();
    AtomicBoolean finishedBeforeClose = new AtomicBoolean(true);
    try (Scheduler scheduler = Scheduler.builder().policy("fixed:2").workers(2).build()) {
      Thread owner =
          new Thread(
              () -> {
                try {
                  RequestScope scope = scheduler.enter(RequestAttributes.NONE);
                  assertSame(scope.context(), RequestContext.current());
                  scope
                      .context()
                      .fork(
                          () -> {
                            ranOn.set(Thread.currentThread());
                            started.countDown();
                            Waits.await(gate);
                            unitFinished.set(true);
                          });
                  Waits.await(started);
                  scope.close();
                  finishedBeforeClose.set(unitFinished.get());
                  assertNull(RequestContext.current());
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                }
              },
              "owner");
      owner.start();
      Waits.await(started);
      Waits.until(() -> inScopeClose(owner), "the owner waits in close for its helper");
      gate.countDown();
      owner.join();
      assertNotSame(owner, ranOn.get(), "the unit ran on a helper");
      assertTrue(finishedBeforeClose.get(), "close returned only after the helper's unit");
      assertEquals(1, scheduler.metrics().count(Outcome.COMPLETED));
      assertEquals(0, scheduler.systemView().activeRequests());
    }
  }

  @Test
  void closeDropsUnitsNoHelperTook() throws Exception {
    AtomicInteger ran = new AtomicInteger();
    try (Scheduler scheduler = Scheduler.builder().policy("seq").workers(2).build()) {
      try (RequestScope scope = scheduler.enter(RequestAttributes.NONE)) {
        for (int i = 0; i < 8; i++) {
          scope.context().fork(ran::incrementAndGet); // degree 1: no helper may take them
        }
      }
      assertEquals(0, ran.get());
      assertEquals(1, scheduler.metrics().count(Outcome.COMPLETED));
    }
  }

  @Test
  void failAndCloseCompleteTheRequestOnceAsFailed() throws Exception {
    List<RequestRecord> records = new CopyOnWriteArrayList<>();
    SchedulerListener listener =
        new SchedulerListener() {
          @Override
          public void requestCompleted(RequestRecord record) {
            records.add(record);
          }
        };
    try (Scheduler scheduler = Scheduler.builder().listener(listener).workers(1).build()) {
      RequestScope scope = scheduler.enter(RequestAttributes.labelled("q"));
      scope.fail(new IllegalStateException("the query phase failed"));
      scope.close();
      scope.close(); // idempotent
      scope.fail(new IllegalStateException("too late")); // ignored after close
      assertEquals(1, records.size());
      assertEquals(Outcome.FAILED, records.get(0).outcome());
      assertEquals("q", records.get(0).label());
      assertEquals(1, scheduler.metrics().count(Outcome.FAILED));
      // The slot is free again: another request is admitted at once.
      try (RequestScope next = scheduler.enter(RequestAttributes.NONE)) {
        assertFalse(next.isNested());
      }
      assertEquals(2, records.size());
    }
  }

  @Test
  void onlyTheEnteringThreadMayCloseIt() throws Exception {
    try (Scheduler scheduler = Scheduler.builder().workers(1).build()) {
      RequestScope scope = scheduler.enter(RequestAttributes.NONE);
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      Thread other = new Thread(() -> thrown.set(catchThrowable(scope::close)));
      other.start();
      other.join();
      assertTrue(thrown.get() instanceof IllegalStateException, String.valueOf(thrown.get()));
      assertEquals(1, scheduler.systemView().activeRequests(), "still open");
      scope.close();
      assertEquals(0, scheduler.systemView().activeRequests());
    }
  }

  @Test
  void aScopeEnteredInsideARequestIsPartOfIt() throws Exception {
    try (Scheduler scheduler = Scheduler.builder().workers(1).build()) {
      try (RequestScope outer = scheduler.enter(RequestAttributes.NONE)) {
        // With one slot, held by this thread, a second request could never be admitted.
        try (RequestScope inner = scheduler.enter(RequestAttributes.NONE)) {
          assertTrue(inner.isNested());
          assertSame(outer.context(), inner.context());
        }
        assertSame(outer.context(), RequestContext.current(), "the inner close ended nothing");
        int answer = scheduler.run(ctx -> 42);
        assertEquals(42, answer);
      }
      assertEquals(1, scheduler.metrics().count(Outcome.COMPLETED));
    }
  }

  @Test
  void aSecondCallerWaitsForAdmissionUntilTheFirstCloses() throws Exception {
    try (Scheduler scheduler = Scheduler.builder().policy("seq").workers(1).build()) {
      RequestScope first = scheduler.enter(RequestAttributes.NONE);
      CountDownLatch admitted = new CountDownLatch(1);
      Thread second =
          new Thread(
              () -> {
                try (RequestScope scope = scheduler.enter(RequestAttributes.NONE)) {
                  admitted.countDown();
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                }
              });
      second.start();
      Waits.until(() -> scheduler.systemView().queuedRequests() == 1, "the second is queued");
      assertEquals(1, admitted.getCount());
      first.close();
      Waits.await(admitted);
      second.join();
      assertEquals(2, scheduler.metrics().count(Outcome.COMPLETED));
    }
  }

  @Test
  void aFullQueueOrAShutdownRejectsAndAnInterruptCancelsTheWait() throws Exception {
    try (Scheduler scheduler = Scheduler.builder().workers(1).queueCapacity(1).build()) {
      RequestScope first = scheduler.enter(RequestAttributes.NONE);
      AtomicReference<Throwable> waiterOutcome = new AtomicReference<>();
      Thread waiter =
          new Thread(() -> waiterOutcome.set(catchThrowable(() -> scheduler.enter(null))));
      // A null attributes is refused before queueing; the waiter then queues for real.
      waiter.start();
      waiter.join();
      assertTrue(waiterOutcome.get() instanceof NullPointerException);
      Thread queued =
          new Thread(
              () ->
                  waiterOutcome.set(
                      catchThrowable(() -> scheduler.enter(RequestAttributes.NONE).close())));
      queued.start();
      Waits.until(() -> scheduler.systemView().queuedRequests() == 1, "queued");
      assertThrows(
          RejectedExecutionException.class,
          () -> new ScopeOnNewThread(scheduler).enterOrThrow(),
          "the queue of one is full");
      queued.interrupt();
      queued.join();
      assertTrue(waiterOutcome.get() instanceof InterruptedException, "" + waiterOutcome.get());
      assertEquals(1, scheduler.metrics().count(Outcome.CANCELLED));
      first.close();
      scheduler.shutdown();
      assertThrows(RejectedExecutionException.class, () -> scheduler.enter(RequestAttributes.NONE));
    }
  }

  @Test
  void shutdownNowCancelsAnOpenScopeWhichStillClosesOnce() throws Exception {
    Scheduler scheduler = Scheduler.builder().policy("fixed:2").workers(2).build();
    RequestScope scope = scheduler.enter(RequestAttributes.NONE);
    scheduler.shutdownNow();
    assertTrue(scope.context().isCancelled());
    AtomicInteger ran = new AtomicInteger();
    scope.context().fork(ran::incrementAndGet); // dropped: the request is cancelled
    scope.close();
    assertEquals(0, ran.get());
    assertEquals(1, scheduler.metrics().count(Outcome.CANCELLED));
    scheduler.close();
    assertTrue(scheduler.isTerminated());
  }

  /**
   * Callers on several threads open and close scopes that fork units (some run by helpers, some
   * dropped at close), fail some, nest some and are interrupted while queued now and then; every
   * request must be reported exactly once, and the scheduler must end idle.
   */
  @Test
  void stressEveryScopeCompletesExactlyOnce() throws Exception {
    int callers = 4;
    int perCaller = 2_500;
    Map<Long, AtomicInteger> reported = new ConcurrentHashMap<>();
    SchedulerListener listener =
        new SchedulerListener() {
          @Override
          public void requestCompleted(RequestRecord record) {
            reported.computeIfAbsent(record.id(), id -> new AtomicInteger()).incrementAndGet();
          }
        };
    AtomicInteger opened = new AtomicInteger();
    AtomicInteger failedByCaller = new AtomicInteger();
    AtomicInteger unitsRun = new AtomicInteger();
    List<Throwable> problems = new CopyOnWriteArrayList<>();
    try (Scheduler scheduler =
        Scheduler.builder()
            .policy("rampup:1us,3")
            .workers(3)
            .queueCapacity(callers + 1)
            .listener(listener)
            .build()) {
      Thread[] threads = new Thread[callers];
      for (int c = 0; c < callers; c++) {
        long seed = 20261123L + c;
        threads[c] =
            new Thread(
                () -> {
                  SplittableRandom random = new SplittableRandom(seed);
                  for (int i = 0; i < perCaller; i++) {
                    try (RequestScope scope = scheduler.enter(RequestAttributes.NONE)) {
                      opened.incrementAndGet();
                      int units = random.nextInt(6);
                      AtomicInteger next = new AtomicInteger();
                      for (int u = 0; u < units; u++) {
                        // Lucene-style: every fork claims the next piece; the caller drains.
                        scope
                            .context()
                            .fork(
                                () -> {
                                  if (next.getAndIncrement() < units) {
                                    unitsRun.incrementAndGet();
                                  }
                                });
                      }
                      while (next.getAndIncrement() < units) {
                        unitsRun.incrementAndGet();
                      }
                      if (random.nextInt(8) == 0) {
                        try (RequestScope nested = scheduler.enter(RequestAttributes.NONE)) {
                          assertTrue(nested.isNested());
                        }
                      }
                      if (random.nextInt(5) == 0) {
                        scope.fail(new RuntimeException("planned failure"));
                        failedByCaller.incrementAndGet();
                      }
                    } catch (Throwable t) {
                      problems.add(t);
                    }
                  }
                },
                "caller-" + c);
        threads[c].start();
      }
      for (Thread t : threads) {
        t.join();
      }
      assertEquals(List.of(), problems);
      assertEquals(callers * perCaller, opened.get());
      assertEquals(callers * perCaller, reported.size());
      reported.forEach((id, n) -> assertEquals(1, n.get(), "request " + id + " reports"));
      assertEquals(failedByCaller.get(), scheduler.metrics().count(Outcome.FAILED));
      assertEquals(
          callers * perCaller - failedByCaller.get(), scheduler.metrics().count(Outcome.COMPLETED));
      assertEquals(0, scheduler.systemView().activeRequests());
      assertEquals(0, scheduler.systemView().queuedRequests());
      assertEquals(0, scheduler.systemView().busyWorkers());
    }
  }

  private static boolean inScopeClose(Thread t) {
    for (StackTraceElement e : t.getStackTrace()) {
      if (e.getClassName().equals(RequestScope.class.getName())
          && e.getMethodName().equals("close")) {
        return t.getState() == Thread.State.WAITING;
      }
    }
    return false;
  }

  private interface Action {
    void run() throws Exception;
  }

  private static Throwable catchThrowable(Action action) {
    try {
      action.run();
      return null;
    } catch (Throwable t) {
      return t;
    }
  }

  /** Enters on a fresh thread and rethrows what {@code enter} threw there. */
  private record ScopeOnNewThread(Scheduler scheduler) {
    void enterOrThrow() throws Throwable {
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      Thread t =
          new Thread(
              () ->
                  thrown.set(
                      catchThrowable(() -> scheduler.enter(RequestAttributes.NONE).close())));
      t.start();
      t.join();
      if (thrown.get() != null) {
        throw thrown.get();
      }
    }
  }
}
