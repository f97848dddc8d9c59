package dev.tailor.core;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policies;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A request's life as one state machine with one exit: the outcome handed back on the caller's
 * thread, the policy's completion hook outside the dispatch lock, the live policy swap, the stop
 * state and the view a policy cannot act through.
 */
class RequestLifeTest {

  @Test
  void aCallerGetsItsBodysResultAndItsOwnExceptionUnwrapped() throws Exception {
    try (Scheduler scheduler = Scheduler.builder().policy("fixed:2").workers(2).build()) {
      assertEquals("answer", scheduler.run(ctx -> "answer"));
      IOException thrown = new IOException("disk");
      IOException seen =
          assertThrows(
              IOException.class,
              () ->
                  scheduler.run(
                      ctx -> {
                        throw thrown;
                      }));
      assertSame(thrown, seen, "the body's exception as it threw it, not wrapped");
      IllegalStateException unit = new IllegalStateException("unit");
      CompletionException wrapped =
          assertThrows(
              CompletionException.class,
              () ->
                  scheduler.run(
                      ctx -> {
                        ctx.fork(
                            () -> {
                              throw unit;
                            });
                        ctx.joinUnits();
                        return null;
                      }));
      assertSame(unit, wrapped.getCause(), "a unit's failure, wrapped once");
    }
  }

  @Test
  void aUnitsFailureTheBodyDidNotJoinFailsTheRequestWrappedOnce() throws Exception {
    CountDownLatch unitRan = new CountDownLatch(1);
    try (Scheduler scheduler = Scheduler.builder().policy("fixed:2").workers(2).build()) {
      IllegalStateException unit = new IllegalStateException("unjoined");
      CompletionException e =
          assertThrows(
              CompletionException.class,
              () ->
                  scheduler.run(
                      ctx -> {
                        ctx.fork(
                            () -> {
                              unitRan.countDown();
                              throw unit;
                            });
                        // Return only once a helper runs it: the request ends with its helper.
                        assertTrue(unitRan.await(1, TimeUnit.MINUTES));
                        return "ignored";
                      }));
      assertSame(unit, e.getCause());
      assertEquals(1, scheduler.metrics().count(RequestRecord.Outcome.FAILED));
    }
  }

  @Test
  void aCallerReturnsOnlyOnceItsRequestIsReportedEvenWhenAHelperEndsIt() throws Exception {
    AtomicInteger heard = new AtomicInteger();
    SchedulerListener slowListener =
        new SchedulerListener() {
          @Override
          public void requestCompleted(RequestRecord record) {
            LockSupport.parkNanos(200_000); // a report that takes a while: the caller must wait
            heard.incrementAndGet();
          }
        };
    try (Scheduler scheduler =
        Scheduler.builder().policy("fixed:2").workers(2).listener(slowListener).build()) {
      for (int i = 1; i <= 200; i++) {
        CountDownLatch onHelper = new CountDownLatch(1);
        scheduler.run(
            ctx -> {
              // A unit the body does not join, which a helper runs past the body's return, so
              // that the helper ends the request while the caller waits for it.
              ctx.fork(
                  () -> {
                    onHelper.countDown();
                    LockSupport.parkNanos(300_000);
                  });
              assertTrue(onHelper.await(1, TimeUnit.MINUTES));
              LockSupport.unpark(Thread.currentThread()); // a stray permit: an early wake-up
              return null;
            });
        assertEquals(i, heard.get(), "run " + i + " returned before its report");
        assertEquals(i, scheduler.metrics().count(RequestRecord.Outcome.COMPLETED), "run " + i);
      }
    }
  }

  /** A policy that records whether its hooks ran under the dispatch lock, by the assertion. */
  private static final class HookedPolicy implements Policy {
    final Set<Long> completed = ConcurrentHashMap.newKeySet();
    final AtomicInteger duplicates = new AtomicInteger();
    final AtomicBoolean sawContext = new AtomicBoolean();

    @Override
    public Admission admit(RequestView request, SystemView system) {
      sawContext.compareAndSet(false, request instanceof RequestContext);
      return Admission.start(2);
    }

    @Override
    public int degree(RequestView request, SystemView system) {
      sawContext.compareAndSet(false, request instanceof RequestContext);
      return 2;
    }

    @Override
    public long longThresholdNanos() {
      return Duration.ofMillis(1).toNanos();
    }

    @Override
    public void completed(RequestRecord record, SystemView system) {
      if (!completed.add(record.id())) {
        duplicates.incrementAndGet();
      }
    }

    @Override
    public String spec() {
      return "hooked";
    }
  }

  @Test
  void thePolicyHearsEveryAdmittedRequestOnceOutsideTheLockAndCannotActThroughItsView()
      throws Exception {
    HookedPolicy policy = new HookedPolicy();
    int requests = 2_000;
    try (Scheduler scheduler = Scheduler.builder().policy(policy).workers(2).build();
        ExecutorService callers = Executors.newFixedThreadPool(4)) {
      List<Future<?>> all = new ArrayList<>();
      for (int i = 0; i < requests; i++) {
        int n = i;
        RequestBody<Integer> body =
            ctx -> {
              ctx.fork(() -> {});
              ctx.fork(() -> {});
              ctx.joinUnits();
              return n;
            };
        if (i % 2 == 0) {
          all.add(scheduler.submit(body));
        } else {
          all.add(callers.submit(() -> scheduler.run(body)));
        }
      }
      for (int i = 0; i < requests; i++) {
        assertEquals(i, all.get(i).get(1, TimeUnit.MINUTES));
      }
      scheduler.shutdown();
      assertTrue(scheduler.awaitTermination(1, TimeUnit.MINUTES));
      // An assertion that a hook ran under the lock would have failed a thread of the scheduler,
      // which reports it as a failure it survived.
      assertEquals(Set.of(), scheduler.failureCounts().keySet());
    }
    assertEquals(requests, policy.completed.size(), "every request, once");
    assertEquals(0, policy.duplicates.get());
    assertFalse(policy.sawContext.get(), "a policy's view is no RequestContext");
  }

  @Test
  void setPolicySwapsOnTheSameThreadsAndTheSchedulerClosesEveryPolicyItWasGiven() throws Exception {
    ControlledPolicy first = new ControlledPolicy();
    first.degree = 1;
    ControlledPolicy second = new ControlledPolicy();
    second.degree = 2;
    ControlledPolicy third = new ControlledPolicy();
    Scheduler scheduler = Scheduler.builder().policy(first).workers(2).build();
    try (scheduler) {
      assertEquals(1, (int) scheduler.run(ctx -> ctx.view().degree()));
      scheduler.setPolicy(second);
      assertSame(second, scheduler.policy());
      assertTrue(first.closed, "the policy a swap replaces is closed");
      assertFalse(second.closed);
      assertEquals(2, (int) scheduler.run(ctx -> ctx.view().degree()));
      scheduler.setPolicy(Policies.fixed(3));
      assertTrue(second.closed);
      assertEquals("fixed:3", scheduler.policy().spec());
      assertEquals(3, (int) scheduler.run(ctx -> ctx.view().degree()), "fixed:3");
      scheduler.setPolicy(third);
      scheduler.setPolicy(third);
      assertFalse(third.closed, "the same policy given again is not closed: it still decides");
      assertFalse(third.closed, "the policy held is closed with the scheduler, not before");
      assertEquals(0, scheduler.metrics().count(RequestRecord.Outcome.FAILED));
    }
    assertTrue(third.closed, "the policy held at close is closed");
    ControlledPolicy late = new ControlledPolicy();
    scheduler.setPolicy(late);
    assertTrue(late.closed, "a policy given to a closed scheduler is closed at once");
    assertSame(third, scheduler.policy());
  }

  @Test
  void aRequestWithADeadlineStopsEarlyOnEveryThreadAndSaysSo() throws Exception {
    try (Scheduler scheduler = Scheduler.builder().policy("fixed:2").workers(2).build()) {
      boolean[] seen =
          scheduler.run(
              ctx -> {
                boolean before = ctx.mayContinue();
                long outer = ctx.stopAt(System.nanoTime() - 1);
                assertEquals(Long.MAX_VALUE, outer, "no deadline before");
                boolean after = ctx.mayContinue();
                boolean stopped = ctx.stoppedEarly();
                ctx.restoreDeadline(outer);
                return new boolean[] {before, after, stopped, ctx.isCancelled()};
              });
      assertTrue(seen[0]);
      assertFalse(seen[1], "the deadline passed: no thread takes more work");
      assertTrue(seen[2], "the result is partial");
      assertFalse(seen[3], "a stop is not a cancellation");
      assertEquals(
          1,
          scheduler.metrics().count(RequestRecord.Outcome.COMPLETED),
          "a partial result completes");
    }
  }

  @Test
  void aNestedWaitRunsTheQueuedRequestThroughTheDispatchCoreAndReportsItOnce() throws Exception {
    List<String> decisions = new ArrayList<>();
    try (Scheduler scheduler =
        SchedulerInternals.decisionListener(
                Scheduler.builder().policy("fixed:1").workers(1),
                (d, id, v) -> {
                  synchronized (decisions) {
                    decisions.add(d + " " + id + " " + v);
                  }
                })
            .build()) {
      CompletableFuture<Integer> outer =
          scheduler.submit(ctx -> scheduler.submit(inner -> 41).get() + 1);
      assertEquals(42, outer.get(1, TimeUnit.MINUTES));
      scheduler.shutdown();
      assertTrue(scheduler.awaitTermination(1, TimeUnit.MINUTES));
      assertEquals(
          2, scheduler.metrics().count(RequestRecord.Outcome.COMPLETED), "both, once each");
    }
    synchronized (decisions) {
      assertEquals(List.of("START 1 1", "START 2 1"), decisions, "the inner one adopted at 1");
    }
  }

  @Test
  void aRequestExitsWithoutWaitingForAHelperThatHasNotWokenYet() throws Exception {
    // Every pool thread is held at its start, so a helper sent to the request cannot start.
    CountDownLatch gate = new CountDownLatch(1);
    java.util.concurrent.ThreadFactory gated =
        r -> {
          Thread t =
              new Thread(
                  () -> {
                    Waits.await(gate);
                    r.run();
                  });
          t.setDaemon(true);
          return t;
        };
    try (Scheduler scheduler =
        Scheduler.builder()
            .policy("fixed:2")
            .workers(2)
            .quantum(Duration.ofHours(1))
            .threadFactory(gated)
            .build()) {
      AtomicInteger ranUnits = new AtomicInteger();
      AtomicInteger threadsAfterFork = new AtomicInteger();
      ExecutorService caller = Executors.newSingleThreadExecutor();
      try {
        Future<String> searched =
            caller.submit(
                () ->
                    scheduler.run(
                        ctx -> {
                          ctx.fork(ranUnits::incrementAndGet);
                          threadsAfterFork.set(ctx.view().threads());
                          ctx.joinUnits(); // the own thread runs the unit the helper would have
                          return "done";
                        }));
        assertEquals("done", searched.get(Waits.GUARD_SECONDS, TimeUnit.SECONDS));
        assertEquals(2, threadsAfterFork.get(), "a helper was sent");
        assertEquals(1, ranUnits.get());
        assertEquals(0, scheduler.systemView().busyWorkers(), "the helper's slot came back");
        gate.countDown(); // the helper wakes to a request that has exited, and goes idle
        assertEquals("again", scheduler.submit(ctx -> "again").get(Waits.GUARD_SECONDS, SECONDS));
        assertEquals(2, scheduler.metrics().count(RequestRecord.Outcome.COMPLETED));
        Waits.until(
            () -> scheduler.systemView().busyWorkers() == 0, "every slot back after the wake");
      } finally {
        gate.countDown();
        caller.shutdownNow();
      }
    }
  }
}
