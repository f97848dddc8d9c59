package dev.tailor.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.metrics.PointResult;
import dev.tailor.sim.arrival.ArrivalProcess;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class OpenLoopReplayerTest {

  private static final long MS = 1_000_000L;

  private static OpenLoopReplayer.Labels labels(double rps) {
    return new OpenLoopReplayer.Labels(rps, "test", 1, "measured on this machine", "none");
  }

  private static int[] order(int n) {
    return new int[n];
  }

  /**
   * Answers in FIFO order on one thread; the first request sent after the stall's start waits it
   * out.
   */
  private static final class StallingTarget implements Target {
    private final ExecutorService server = Executors.newSingleThreadExecutor();
    private final long stallFrom;
    private final long stallNanos;
    private volatile boolean stalled;

    StallingTarget(long stallFrom, long stallNanos) {
      this.stallFrom = stallFrom;
      this.stallNanos = stallNanos;
    }

    @Override
    public CompletableFuture<?> send(int query) {
      return CompletableFuture.runAsync(
          () -> {
            if (!stalled && System.nanoTime() >= stallFrom) {
              stalled = true;
              try {
                Thread.sleep(stallNanos / MS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          },
          server);
    }

    @Override
    public String policy() {
      return "stalling";
    }

    @Override
    public void close() {
      server.shutdownNow();
    }
  }

  @Test
  void everyRequestMeantToBeSentDuringAStallShowsTheStall() throws Exception {
    long[] offsets = new long[1_000];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = i * MS; // one request per millisecond for a second
    }
    long stall = 200 * MS;
    // The stall starts about 300 ms into the run (the replayer starts 20 ms after the call).
    try (StallingTarget target = new StallingTarget(System.nanoTime() + 320 * MS, stall)) {
      PointResult r =
          OpenLoopReplayer.run(
              target,
              offsets,
              order(offsets.length),
              new OpenLoopReplayer.Settings(
                  0, 100_000, TimeUnit.SECONDS.toNanos(30), List.of(50 * MS)),
              labels(1000));
      Histogram latency = r.decodeLatency();
      assertEquals(1_000, latency.getTotalCount());
      // Requests intended in the first 150 ms of the stall waited at least 50 ms each: about 150 of
      // them. A client that waited for each answer before sending on would show one slow request.
      long slow = latency.getTotalCount() - latency.getCountBetweenValues(0, 50 * MS);
      assertTrue(slow >= 120, slow + " requests of 50 ms or more");
      assertTrue(r.missRatio().get("50ms") >= 0.12, r.missRatio().toString());
      assertTrue(
          latency.getMaxValue() >= stall * 9 / 10, "the first stalled request waited the stall");
    }
  }

  @Test
  void warmUpRequestsAreSentButNotCounted() throws Exception {
    long[] offsets = ArrivalProcess.poisson(400, 3).schedule(500 * MS);
    long warmup = 200 * MS;
    long counted = java.util.Arrays.stream(offsets).filter(o -> o >= warmup).count();
    try (NoopTarget target = new NoopTarget()) {
      PointResult r =
          OpenLoopReplayer.run(
              target,
              offsets,
              order(offsets.length),
              new OpenLoopReplayer.Settings(warmup, 1_000, TimeUnit.SECONDS.toNanos(5), List.of()),
              labels(400));
      assertEquals(counted, r.sent());
      assertEquals(counted, r.completed());
      assertEquals(0, r.failed());
      assertFalse(r.saturated());
      assertEquals((double) counted, r.sendLag().get("count"));
      assertTrue(r.achievedRps() > 0);
    }
  }

  @Test
  void aBacklogPastTheLimitStopsThePointAsSaturated() throws Exception {
    long[] offsets = new long[500];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = i * MS / 10;
    }
    Target never =
        new Target() {
          @Override
          public CompletableFuture<?> send(int query) {
            return new CompletableFuture<>();
          }

          @Override
          public String policy() {
            return "never";
          }

          @Override
          public void close() {}
        };
    PointResult r =
        OpenLoopReplayer.run(
            never,
            offsets,
            order(offsets.length),
            new OpenLoopReplayer.Settings(0, 50, 10 * MS, List.of()),
            labels(10_000));
    assertTrue(r.saturated());
    assertTrue(r.sent() <= 51, "stopped early: " + r.sent());
  }
}
