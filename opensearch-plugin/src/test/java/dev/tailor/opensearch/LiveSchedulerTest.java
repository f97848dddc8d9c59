package dev.tailor.opensearch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.RequestAttributes;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.metrics.RequestRecord;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The node's scheduler across updates: a policy swap keeps the scheduler, its threads and the
 * requests running in it; only a change of the budget or the queue builds a new one.
 */
class LiveSchedulerTest {

  private static final long GUARD_SECONDS = 30; // a hang guard, never a timing

  private final NodeStats stats = new NodeStats();
  private final List<Thread> made = new CopyOnWriteArrayList<>();
  private final ThreadFactory recording =
      r -> {
        Thread t = Executors.defaultThreadFactory().newThread(r);
        made.add(t);
        return t;
      };
  private LiveScheduler live;

  @AfterEach
  void close() {
    live.close();
  }

  @Test
  void aSwapKeepsTheSchedulerAndItsThreads() {
    live = new LiveScheduler("seq", 2, 10, recording, stats);
    Scheduler scheduler = live.scheduler();
    List<Thread> before = List.copyOf(made);
    assertFalse(before.isEmpty(), "the scheduler made its threads");

    live.swap("fixed:2");

    assertSame(scheduler, live.scheduler());
    assertEquals("fixed:2", live.policy());
    assertEquals("fixed:2", scheduler.policy().spec(), "the node's scheduler runs the new policy");
    assertEquals(before, made, "no thread was made for the swap");
    assertTrue(before.stream().allMatch(Thread::isAlive), "and none stopped");
    assertFalse(scheduler.isShutdown());
    assertEquals(1L, stats.policySwaps.sum());
  }

  /**
   * A request opened under {@code seq} (degree 1: its forks wait) runs on while the policy swaps to
   * {@code fixed:2}: the scheduler's own threads then help it, and it ends exactly once, recorded
   * once, under the policy that admitted it.
   */
  @Test
  void aRequestRunningAcrossASwapCompletesExactlyOnce() throws Exception {
    live = new LiveScheduler("seq", 2, 10, recording, stats);
    Scheduler scheduler = live.scheduler();
    LiveScheduler.Entered entered = live.enter(RequestAttributes.NONE);
    assertNotNull(entered);
    CountDownLatch ran = new CountDownLatch(2);
    Set<Thread> ranOn = ConcurrentHashMap.newKeySet();
    Runnable unit =
        () -> {
          ranOn.add(Thread.currentThread());
          ran.countDown();
        };
    entered.executor().execute(unit); // held: seq gives no helper

    live.swap("fixed:2");
    entered.executor().execute(unit);

    assertTrue(ran.await(GUARD_SECONDS, TimeUnit.SECONDS), "helpers of the new policy ran both");
    assertTrue(made.containsAll(ranOn), "on the scheduler's own threads: " + ranOn);
    assertFalse(ranOn.contains(Thread.currentThread()));
    RequestRecord record = entered.close(false, "[docs][0]");
    assertNotNull(record);
    assertEquals(RequestRecord.Outcome.COMPLETED, record.outcome());
    assertEquals(2, record.maxDegree(), "its degree came from the new policy");
    assertSame(scheduler, live.scheduler());
    assertEquals(1L, SchedulerInternals.metrics(scheduler).count(RequestRecord.Outcome.COMPLETED));
    assertEquals(1L, stats.completed.sum(), "recorded once");
    assertNull(entered.close(false, "[docs][0]"), "a second close records nothing");
    assertEquals(1L, stats.completed.sum());
    List<?> recent = (List<?>) stats.snapshot(null, null, 0, 0).get("recent");
    assertEquals(1, recent.size());
    assertEquals("seq", ((Map<?, ?>) recent.get(0)).get("policy"));
  }

  @Test
  void aBadPolicyIsRefusedAndTheCurrentOneKept() {
    live = new LiveScheduler("fixed:2", 2, 10, recording, stats);
    Scheduler scheduler = live.scheduler();
    live.swap("no-such-policy");
    assertSame(scheduler, live.scheduler());
    assertEquals("fixed:2", live.policy());
    assertTrue(live.policyError().contains("no-such-policy"), live.policyError());
    assertEquals(1L, stats.policyErrors.sum());
    assertEquals(0L, stats.policySwaps.sum());
    live.swap("seq");
    assertNull(live.policyError(), "a policy applied clears the error");
  }

  /**
   * A new budget or queue needs a new scheduler, running the current policy; the old one finishes
   * the request it admitted and then stops. Equal values build nothing.
   */
  @Test
  void onlyANewBudgetOrQueueBuildsANewScheduler() throws Exception {
    live = new LiveScheduler("fixed:2", 2, 10, recording, stats);
    Scheduler old = live.scheduler();
    live.resize(2, 10);
    assertSame(old, live.scheduler(), "nothing changed");

    LiveScheduler.Entered running = live.enter(RequestAttributes.NONE);
    live.resize(3, 5);
    Scheduler next = live.scheduler();
    assertNotSame(old, next);
    assertEquals(3, live.workers());
    assertEquals(5, live.queueCapacity());
    assertEquals(3, live.load().workers());
    assertEquals("fixed:2", next.policy().spec());
    assertTrue(old.isShutdown(), "the old one admits nothing new");

    assertNotNull(running.close(false, "[docs][0]"), "but finishes what it admitted");
    assertTrue(old.awaitTermination(GUARD_SECONDS, TimeUnit.SECONDS));
    LiveScheduler.Entered after = live.enter(RequestAttributes.NONE);
    assertNotNull(after.close(false, "[docs][1]"));
    assertEquals(2L, stats.completed.sum());
  }
}
