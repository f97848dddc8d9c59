package dev.tailor.core.policy;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.SchedulerListener;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.model.Schedule;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TableSource;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The FM policy on the real runtime: the table's rows decide admissions. No timing asserted. */
class FewToManyRuntimeTest {

  static final long MS = 1_000_000L;
  static final long GUARD = 30;

  /** Alone: degree 3 at once. Two or more in the system: wait for an exit. */
  static IntervalTable aloneOrAwaitExit() {
    IntervalTable.Inputs in =
        new IntervalTable.Inputs(
            "p.json",
            "sha256:" + "0".repeat(64),
            2,
            0,
            2,
            IntervalTable.Rule.paper(2),
            3,
            new int[] {1, 2, 3},
            50 * MS,
            150 * MS,
            0.99,
            2,
            null);
    return new IntervalTable(
        in,
        "2026-11-22T06:00:00Z",
        0,
        List.of(
            new IntervalTable.Row(1, Schedule.ofMillis(0, 0, 0), 0, 0, 3),
            new IntervalTable.Row(2, Schedule.awaitingExit(150 * MS, 150 * MS, 0), 0, 0, 0.5)));
  }

  @Test
  void aSecondRequestWaitsForTheFirstToExitThenStartsAsItsRowSays() throws Exception {
    Map<Long, Integer> admittedAt = new ConcurrentHashMap<>();
    Map<Long, RequestRecord> records = new ConcurrentHashMap<>();
    CountDownLatch firstRunning = new CountDownLatch(1);
    CountDownLatch releaseFirst = new CountDownLatch(1);
    try (Scheduler scheduler =
        Scheduler.builder()
            .policy(FewToManyPolicy.of(TableSource.fixed(aloneOrAwaitExit())))
            .workers(4)
            .listener(
                new SchedulerListener() {
                  @Override
                  public void requestAdmitted(RequestView request, int degree) {
                    admittedAt.put(request.id(), degree);
                  }

                  @Override
                  public void requestCompleted(RequestRecord record) {
                    records.put(record.id(), record);
                  }
                })
            .build()) {
      CompletableFuture<String> first =
          SchedulerInternals.submit(
              scheduler,
              ctx -> {
                firstRunning.countDown();
                releaseFirst.await();
                return "first";
              });
      assertTrue(firstRunning.await(GUARD, SECONDS));
      CompletableFuture<String> second = SchedulerInternals.submit(scheduler, ctx -> "second");
      // Two in the system: the second is held although three workers are free (the decision is
      // made as it is submitted).
      assertEquals(1, SchedulerInternals.systemView(scheduler).queuedRequests());
      assertFalse(second.isDone());
      assertEquals(1, admittedAt.size());
      releaseFirst.countDown();
      assertEquals("first", first.get(GUARD, SECONDS));
      assertEquals("second", second.get(GUARD, SECONDS));
      TreeMap<Long, Integer> byId = new TreeMap<>(admittedAt);
      assertEquals(List.of(3, 3), List.copyOf(byId.values()), "both alone when admitted");
      long firstId = byId.firstKey();
      long secondId = byId.lastKey();
      scheduler.shutdown();
      assertTrue(scheduler.awaitTermination(GUARD, SECONDS));
      assertTrue(
          records.get(secondId).startNanos() >= records.get(firstId).endNanos(),
          "the second started only after the first exited");
    }
  }
}
