package dev.tailor.core.policy;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.SchedulerListener;
import dev.tailor.core.Tuning;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.table.TableSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Tail-control on the real runtime: a request past its threshold gets no new helper. */
class TailControlRuntimeTest {

  static final long GUARD = 30;

  @Test
  void aRequestPastItsThresholdIsSerializedAtItsNextUnitBoundary() throws Exception {
    // Threshold 0 at every load: a request is large as soon as it has done any work, but not at
    // admission, so it starts with every worker and is marked at its next check. No tick comes
    // (a quantum of a day): the check is the helper's, at the end of unit 0, so that no race with
    // a tick decides where unit 0 runs.
    TailControlPolicy tc =
        TailControlPolicy.of(
            TailControlPolicy.Variant.TC, TableSource.fixed(TailControlPolicyTest.table(0, 0)));
    CountDownLatch serialized = new CountDownLatch(1);
    CountDownLatch inUnit0 = new CountDownLatch(1);
    CountDownLatch endUnit0 = new CountDownLatch(1);
    List<String> changes = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger completed = new AtomicInteger();
    try (Scheduler scheduler =
        Scheduler.builder()
            .policy(tc)
            .workers(4)
            .tuning(Tuning.defaults().withQuantum(Duration.ofDays(1)))
            .listener(
                new SchedulerListener() {
                  @Override
                  public void degreeChanged(RequestView request, int from, int to) {
                    changes.add(from + "->" + to);
                    if (to == 0) {
                      serialized.countDown();
                    }
                  }

                  @Override
                  public void requestCompleted(RequestRecord record) {
                    completed.incrementAndGet();
                  }
                })
            .build()) {
      Thread[] ranOn = new Thread[10];
      Thread[] owner = new Thread[1];
      String result =
          SchedulerInternals.submit(
                  scheduler,
                  ctx -> {
                    owner[0] = Thread.currentThread();
                    // Unit 0 goes to a helper (degree 4); its end is the boundary that marks.
                    ctx.fork(
                        () -> {
                          ranOn[0] = Thread.currentThread();
                          inUnit0.countDown();
                          await(endUnit0);
                        });
                    await(inUnit0);
                    endUnit0.countDown();
                    await(serialized);
                    for (int i = 1; i < ranOn.length; i++) {
                      int unit = i;
                      ctx.fork(() -> ranOn[unit] = Thread.currentThread());
                    }
                    ctx.joinUnits();
                    return "done";
                  })
              .get(GUARD, SECONDS);
      assertEquals("done", result);
      assertNotSame(owner[0], ranOn[0], "the first unit ran on a helper");
      for (int i = 1; i < ranOn.length; i++) {
        assertSame(
            owner[0],
            ranOn[i],
            "unit " + i + " forked after the mark ran serially; unit 0 ran on " + ranOn[0]);
      }
      assertEquals(List.of("4->0"), changes, "marked once, and the mark stays");
      scheduler.shutdown();
      assertTrue(scheduler.awaitTermination(GUARD, SECONDS));
      assertEquals(1, completed.get());
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(GUARD, SECONDS)) {
        throw new AssertionError("never serialized");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
