package dev.tailor.core;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.policy.PriorityClass;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Priority classes in the runtime: the highest class is admitted first, a lower-class helper leaves
 * at its next boundary for a waiting higher-class request, and with one class nothing changes.
 * Waits are for states (latches), with hang guards only.
 */
class PriorityClassTest {

  private static final int GUARD = Waits.GUARD_SECONDS;
  private static final RequestAttributes BACKGROUND =
      RequestAttributes.NONE.withPriority(PriorityClass.BACKGROUND);

  private final ControlledPolicy policy = new ControlledPolicy();
  private Scheduler scheduler;

  @AfterEach
  void stop() throws InterruptedException {
    if (scheduler != null) {
      scheduler.shutdownNow();
      assertTrue(scheduler.awaitTermination(GUARD, SECONDS), "scheduler terminated");
    }
  }

  @Test
  void aQueuedInteractiveRequestIsAdmittedBeforeAnOlderBackgroundOne() throws Exception {
    scheduler =
        Scheduler.builder()
            .policy(policy)
            .workers(1)
            .classShare(PriorityClass.BACKGROUND, 0) // strict: no floor to let background first
            .build();
    assertEquals(List.of("second", "first"), admissionOrder(BACKGROUND, RequestAttributes.NONE));
  }

  @Test
  void withOneClassTheOldestQueuedRequestIsAdmittedFirst() throws Exception {
    scheduler = Scheduler.builder().policy(policy).workers(1).build();
    assertEquals(
        List.of("first", "second"), admissionOrder(RequestAttributes.NONE, RequestAttributes.NONE));
  }

  /**
   * Queues two requests behind a blocker on the scheduler's only thread, then releases it: the
   * order the two ran in.
   */
  private List<String> admissionOrder(RequestAttributes first, RequestAttributes second)
      throws Exception {
    CountDownLatch blocking = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> started = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> blocker =
        scheduler.submit(
            ctx -> {
              blocking.countDown();
              Waits.await(release);
              return null;
            });
    Waits.await(blocking);
    CompletableFuture<Boolean> f1 = scheduler.submit(ctx -> started.add("first"), first);
    CompletableFuture<Boolean> f2 = scheduler.submit(ctx -> started.add("second"), second);
    release.countDown();
    blocker.get(GUARD, SECONDS);
    f1.get(GUARD, SECONDS);
    f2.get(GUARD, SECONDS);
    return List.copyOf(started);
  }

  @Test
  void aBackgroundHelperLeavesAtItsNextBoundaryWhenAnInteractiveArrivalTookItsCore()
      throws Exception {
    policy.degree = 2;
    scheduler = Scheduler.builder().policy(policy).workers(2).slack(0).build();
    Outcome o = run(BACKGROUND, RequestAttributes.NONE);
    assertFalse(o.mayContinue, "the background helper is told to leave");
    assertEquals(List.of("waiting", "unit 2"), o.events, "the interactive request ran first");
  }

  @Test
  void withoutPromptAdmissionAHelperStaysWhenTheWaitingRequestIsOfItsOwnClass() throws Exception {
    policy.degree = 2;
    scheduler = Scheduler.builder().policy(policy).workers(2).promptAdmission(false).build();
    Outcome o = run(RequestAttributes.NONE, RequestAttributes.NONE);
    assertTrue(o.mayContinue, "an interactive helper is not preempted by interactive work");
    assertEquals(List.of("unit 2", "waiting"), o.events, "the helper stayed for the held unit");
  }

  @Test
  void underPromptAdmissionAHelperGivesBackTheCoreAnArrivalOfItsOwnClassTook() throws Exception {
    policy.degree = 2;
    scheduler = Scheduler.builder().policy(policy).workers(2).slack(0).build();
    Outcome o = run(RequestAttributes.NONE, RequestAttributes.NONE);
    assertFalse(o.mayContinue, "the helper is told to leave");
    assertEquals(List.of("waiting", "unit 2"), o.events, "the arrival ran first");
  }

  @Test
  void aBackgroundHelperAtItsFloorLeavesOnceOwnThreadsFillTheBudget() throws Exception {
    // A share of 1 (of 2 threads): background keeps both its threads against promptness, but the
    // interactive arrival's own thread and background's fill both cores, and a helper beside them
    // would only time-slice with them: the floor holds within the budget, not beyond it.
    policy.degree = 2;
    scheduler =
        Scheduler.builder()
            .policy(policy)
            .workers(2)
            .slack(1)
            .classShare(PriorityClass.BACKGROUND, 1.0)
            .build();
    Outcome o = run(BACKGROUND, RequestAttributes.NONE);
    assertFalse(o.mayContinue, "no helper stays beside own threads on every core");
    assertEquals(2, o.events.size(), o.events.toString());
  }

  /**
   * An interactive request already running that wants a helper is higher-class work waiting, as a
   * queued one is: the background helper leaves at its next boundary and helps it, before the
   * background request's own next unit.
   */
  @Test
  void aBackgroundHelperLeavesForARunningInteractiveRequestThatWantsAHelper() throws Exception {
    policy.degree = 2;
    // No slack: the interactive request's unit finds no thread but the background helper's.
    scheduler = Scheduler.builder().policy(policy).workers(3).slack(0).build();
    CountDownLatch helperIn = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch secondHeld = new CountDownLatch(1);
    CountDownLatch interactiveForked = new CountDownLatch(1);
    CountDownLatch interactiveUnitRan = new CountDownLatch(1);
    List<String> events = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> background =
        scheduler.submit(
            ctx -> {
              ctx.fork(
                  () -> {
                    helperIn.countDown();
                    Waits.await(release);
                  });
              Waits.await(helperIn);
              ctx.fork(() -> events.add("background unit 2"));
              secondHeld.countDown();
              Waits.await(interactiveUnitRan);
              ctx.joinUnits();
              return null;
            },
            BACKGROUND);
    Waits.await(secondHeld);
    CompletableFuture<Void> interactive =
        scheduler.submit(
            ctx -> {
              ctx.fork(
                  () -> {
                    events.add("interactive unit");
                    interactiveUnitRan.countDown();
                  });
              interactiveForked.countDown();
              Waits.await(interactiveUnitRan); // only a helper can run it meanwhile
              ctx.joinUnits();
              return null;
            });
    Waits.await(interactiveForked);
    assertEquals(0, scheduler.systemView().queuedRequests(), "the interactive request runs");
    assertEquals(3, scheduler.systemView().busyWorkers(), "no slot is free for its unit");
    release.countDown(); // the background helper reaches its boundary
    interactive.get(GUARD, SECONDS);
    background.get(GUARD, SECONDS);
    assertEquals(List.of("interactive unit", "background unit 2"), events);
  }

  @Test
  void aShareOutsideZeroToOneOrForTheHighestClassIsRefused() {
    Scheduler.Builder b = Scheduler.builder();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> b.classShare(PriorityClass.BACKGROUND, 1.5));
    assertTrue(e.getMessage().contains("1.5"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> b.classShare(PriorityClass.INTERACTIVE, 0.1));
    assertTrue(e.getMessage().contains("interactive"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> PriorityClass.parse("urgent", "parameter class"));
    assertEquals(
        "parameter class: unknown priority class 'urgent', expected interactive or background",
        e.getMessage());
    assertEquals(PriorityClass.BACKGROUND, PriorityClass.parse("Background", "x"));
  }

  /** What the helper of the first request saw, and what ran first once it reached a boundary. */
  private record Outcome(boolean mayContinue, List<String> events) {}

  /**
   * A request of class {@code first} on two threads of two: its body holds one, a helper runs its
   * first unit and, once a request of class {@code waiting} has arrived (started at once under
   * prompt admission, queued behind both slots without it), asks {@link
   * RequestContext#mayContinue()} at a boundary; a second unit is held meanwhile. The helper then
   * either stays and runs the second unit, or leaves and the waiting request takes its slot: the
   * events say which came first. The body joins only after one of them happened, so the second unit
   * can run only on a helper until then.
   */
  private Outcome run(RequestAttributes first, RequestAttributes waiting) throws Exception {
    CountDownLatch helperIn = new CountDownLatch(1);
    CountDownLatch waitingQueued = new CountDownLatch(1);
    CountDownLatch secondHeld = new CountDownLatch(1);
    CountDownLatch something = new CountDownLatch(1);
    CountDownLatch asked = new CountDownLatch(1);
    AtomicBoolean mayContinue = new AtomicBoolean();
    List<String> events = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> f =
        scheduler.submit(
            ctx -> {
              ctx.fork(
                  () -> {
                    helperIn.countDown();
                    Waits.await(waitingQueued);
                    Waits.await(secondHeld);
                    mayContinue.set(ctx.mayContinue());
                    asked.countDown();
                  });
              Waits.await(helperIn);
              ctx.fork(
                  () -> {
                    events.add("unit 2");
                    something.countDown();
                  });
              secondHeld.countDown();
              Waits.await(something);
              ctx.joinUnits();
              return null;
            },
            first);
    Waits.await(helperIn);
    CompletableFuture<Void> w =
        scheduler.submit(
            ctx -> {
              // Runs until the helper has asked, so that the helper's answer is about it.
              Waits.await(asked);
              events.add("waiting");
              something.countDown();
              return null;
            },
            waiting);
    boolean prompt = scheduler.tuning().promptAdmission();
    assertEquals(
        prompt ? 0 : 1,
        scheduler.systemView().queuedRequests(),
        prompt ? "the arrival starts at once" : "the request waits in the queue");
    waitingQueued.countDown();
    f.get(GUARD, SECONDS);
    w.get(GUARD, SECONDS);
    return new Outcome(mayContinue.get(), List.copyOf(events));
  }
}
