package dev.tailor.auto;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.Tuning;
import dev.tailor.core.metrics.RequestRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class AutoPolicyTest {

  private static final AutoSettings FAST =
      AutoSettings.parse(
          "samples=200,requests=100,period=0s,requests-per-point=200,seeds=1,iterations=1,"
              + "probes=0.2");

  @Test
  void probesAreAShareOfIdsAQuarterAtDegreeOne() {
    try (AutoPolicy p = AutoPolicy.create(AutoSettings.parse("probes=0.04"))) {
      int[] counts = new int[17];
      int n = 200_000;
      for (long id = 0; id < n; id++) {
        counts[p.probeDegree(id, 16)]++;
      }
      int probed = n - counts[0];
      assertEquals(0.04, probed / (double) n, 0.004);
      assertEquals(AutoPolicy.ALONE, counts[1] / (double) probed, 0.03);
      for (int d : new int[] {2, 8, 16}) {
        assertTrue(counts[d] > probed / 8, "degree " + d + " probed " + counts[d]);
      }
      assertEquals(probed, counts[1] + counts[2] + counts[8] + counts[16], "no other degree");
      assertEquals(0, p.probeDegree(12345, 1), "one worker: nothing to probe");
      for (long id = 0; id < 1000; id++) {
        int d = p.probeDegree(id, 2);
        assertTrue(d == 0 || d == 1 || d == 2);
      }
    }
  }

  @Test
  void coldStartIsWqLinearUntilARebuildSwaps() {
    try (AutoPolicy p = AutoPolicy.create(AutoSettings.DEFAULTS)) {
      assertEquals("wq-linear:1", p.liveSpec(), "no budget seen yet");
      AutoStatus s = p.status();
      assertEquals(0, s.rebuilds());
      assertEquals(0, s.samplesHeld());
      assertEquals(4096, s.samplesCapacity());
      assertEquals((4096L + 1024) * Reservoir.BYTES_PER_SAMPLE, s.reservoirBytes());
      assertEquals(null, s.last());
      assertEquals("auto", p.spec());
    }
  }

  @Test
  void everyRequestCompletesExactlyOnceWhileEveryRebuildFails() throws Exception {
    try (AutoPolicy auto = AutoPolicy.drill(FAST, 1.0)) {
      runExactlyOnce(auto, 3000, 3000);
      waitFor(() -> auto.status().rebuilds() >= 2, "two rebuilds");
      AutoStatus s = auto.status();
      assertEquals(s.rebuilds(), s.failures(), "every rebuild failed: " + s);
      assertTrue(s.lastFailure().contains("fault drill"), s.lastFailure());
      assertEquals("wq-linear:4", s.liveSpec(), "the live policy kept serving");
      assertEquals(0, auto.tableSwaps(), "no policy was swapped in");
    }
  }

  @Test
  void everyRequestCompletesExactlyOnceWhileRebuildsSwap() throws Exception {
    try (AutoPolicy auto = AutoPolicy.create(FAST)) {
      // In pairs, so that the load is light and requests are probed.
      runExactlyOnce(auto, 3000, 2);
      waitFor(() -> auto.status().rebuilds() >= 1, "a rebuild");
      long swapsBefore = auto.tableSwaps();
      AutoStatus s = auto.status();
      long replaced = s.swaps() + s.rollbacks();
      assertTrue(
          swapsBefore <= replaced && replaced <= auto.tableSwaps(),
          "tableSwaps counts swaps and rollbacks: " + s);
      assertEquals(0, s.failures(), s.lastFailure());
      assertTrue(s.probes() > 0);
      assertEquals(s.rebuilds(), s.swaps() + s.kept() + s.skipped());
    }
  }

  /** Submits {@code requests} in batches of {@code batch}, each awaited before the next. */
  private static void runExactlyOnce(AutoPolicy policy, int requests, int batch) throws Exception {
    Scheduler scheduler =
        Scheduler.builder()
            .policy(policy)
            .workers(4)
            .tuning(Tuning.defaults().withQueueCapacity(requests).withQuantum(Duration.ofMillis(1)))
            .build();
    try {
      AtomicIntegerArray completions = new AtomicIntegerArray(requests);
      AtomicInteger wrong = new AtomicInteger();
      List<CompletableFuture<Integer>> futures = new ArrayList<>();
      for (int i = 0; i < requests; i++) {
        int index = i;
        int units = i % 5;
        CompletableFuture<Integer> f =
            SchedulerInternals.submit(
                scheduler,
                ctx -> {
                  AtomicInteger ran = new AtomicInteger();
                  for (int u = 0; u < units; u++) {
                    ctx.fork(
                        () -> {
                          ctx.mayContinue();
                          ran.incrementAndGet();
                        });
                  }
                  ctx.joinUnits();
                  return ran.get() == units ? index : -1;
                });
        // The future the check waits for is the one after the count, so the count is done.
        futures.add(
            f.whenComplete(
                (value, failure) -> {
                  completions.incrementAndGet(index);
                  if (failure != null || value != index) {
                    wrong.incrementAndGet();
                  }
                }));
        if (futures.size() % batch == 0) {
          CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(60, SECONDS);
        }
      }
      CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(60, SECONDS);
      for (int i = 0; i < requests; i++) {
        assertEquals(1, completions.get(i), "request " + i + " completed exactly once");
      }
      assertEquals(0, wrong.get(), "every request returned its own result");
      assertEquals(
          requests, SchedulerInternals.metrics(scheduler).count(RequestRecord.Outcome.COMPLETED));
    } finally {
      scheduler.shutdownNow();
      assertTrue(scheduler.awaitTermination(60, SECONDS));
    }
  }

  /** Waits for a background rebuild; the bound only stops a hung test, it is never the subject. */
  private static void waitFor(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("gave up waiting for " + what);
      }
      Thread.sleep(10);
    }
  }
}
