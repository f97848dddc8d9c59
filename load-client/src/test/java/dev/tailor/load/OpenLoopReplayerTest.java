package dev.tailor.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.Failures;
import dev.tailor.measure.LatencyBreakdown;
import dev.tailor.measure.MachineNoise;
import dev.tailor.measure.NoiseMeter;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.arrival.ArrivalProcess;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class OpenLoopReplayerTest {

  private static final long MS = 1_000_000L;
  private static final long US = 1_000L;

  private static OpenLoopReplayer.Labels labels(double rps) {
    return new OpenLoopReplayer.Labels(rps, "test", 1, "measured on this machine", "none");
  }

  /** Request {@code i} sends query {@code i % queries}. */
  private static int[] order(int n, int queries) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i % queries;
    }
    return order;
  }

  /** {@code n} requests, one every {@code spacing} nanoseconds from 0. */
  private static long[] evenly(int n, long spacing) {
    long[] offsets = new long[n];
    for (int i = 0; i < n; i++) {
      offsets[i] = i * spacing;
    }
    return offsets;
  }

  private static long slowerThan(Histogram h, long nanos) {
    return h.getTotalCount() - h.getCountBetweenValues(0, nanos);
  }

  @Test
  void everyRequestMeantToBeSentDuringAStallShowsTheStall() throws Exception {
    ManualClock clock = new ManualClock();
    long[] first = {-1};
    // Answers in 0.1 ms, except that nothing sent from 300 ms after the first request until
    // 500.5 ms is answered before 500.5 ms.
    ScriptedTarget target =
        new ScriptedTarget(
            clock,
            (query, now) -> {
              if (first[0] < 0) {
                first[0] = now;
              }
              long t = now - first[0];
              long stallFrom = 300 * MS;
              long stallTo = 500 * MS + 500 * US;
              long at = t >= stallFrom && t < stallTo ? stallTo : t + 100 * US;
              return new ScriptedTarget.Answer(first[0] + at, null);
            });
    long[] offsets = evenly(1_000, MS); // one request per millisecond for a second
    PointResult r =
        OpenLoopReplayer.run(
            target,
            offsets,
            order(offsets.length, 1),
            new OpenLoopReplayer.Settings(
                0, 100_000, TimeUnit.SECONDS.toNanos(30), List.of(50 * MS)),
            labels(1000),
            clock);
    Histogram latency = r.decodeLatency();
    assertEquals(1_000, latency.getTotalCount());
    // Request j of 300..500 waited 500.5 - j ms: those to 450 waited more than 50 ms, 151 of them.
    // A client that waited for each answer before sending on would show one slow request.
    assertEquals(151, slowerThan(latency, 50 * MS));
    assertEquals(0.151, r.missRatio().get("50ms"), 1e-9);
    assertEquals(200.5, latency.getMaxValue() / 1e6, 0.2, "the first stalled request's wait");
    assertEquals(1_000, r.completed());
    assertEquals(Failures.NONE, r.failures());
    assertFalse(r.saturated());
  }

  @Test
  void failuresAreCountedByKindAndAreNoLatencies() throws Exception {
    ManualClock clock = new ManualClock();
    // Query 0 is answered in 2 ms; 1 rejected after 900 ms; 2 a 500 in 0.5 ms; 3 an I/O error
    // after 700 ms; 4 never answered.
    ScriptedTarget target =
        new ScriptedTarget(
            clock,
            (query, now) ->
                switch (query) {
                  case 0 -> new ScriptedTarget.Answer(now + 2 * MS, null);
                  case 1 ->
                      new ScriptedTarget.Answer(
                          now + 900 * MS,
                          new RequestFailedException(Failures.Kind.REJECTED, "HTTP 503", null));
                  case 2 ->
                      new ScriptedTarget.Answer(
                          now + 500 * US,
                          new RequestFailedException(Failures.Kind.STATUS, "HTTP 500", null));
                  case 3 -> new ScriptedTarget.Answer(now + 700 * MS, new IOException("reset"));
                  default -> null;
                });
    long[] offsets = evenly(100, MS);
    PointResult r =
        OpenLoopReplayer.run(
            target,
            offsets,
            order(offsets.length, 5),
            // The first 10 requests are warm-up: 18 of each kind are counted.
            new OpenLoopReplayer.Settings(
                10 * MS, 1_000, TimeUnit.SECONDS.toNanos(1), List.of(10 * MS)),
            labels(1000),
            clock);
    assertEquals(90, r.sent());
    assertEquals(18, r.completed());
    assertEquals(new Failures(18, 18, 18, 18), r.failures());
    assertEquals(72, r.failed());
    Histogram latency = r.decodeLatency();
    assertEquals(18, latency.getTotalCount(), "only the answered requests are latencies");
    assertEquals(2.0, latency.getMaxValue() / 1e6, 0.01, "no failure's latency, fast or slow");
    assertEquals(2.0, r.latencyAt("p99") / 1e6, 0.01);
    // Every answered request met 10 ms; every failed one missed it.
    assertEquals(0.8, r.missRatio().get("10ms"), 1e-9);
    // The window runs from the warm-up's end to the last intended send: 10 ms to 99 ms.
    assertEquals(18.0 / 0.089, r.achievedRps(), 1e-6, "answers per second of the window");
    assertTrue(r.saturated(), "requests still out at the drain deadline");
  }

  @Test
  void aBacklogPastTheLimitStopsThePointAsSaturatedWithItsBacklogUnanswered() throws Exception {
    ManualClock clock = new ManualClock();
    ScriptedTarget never = new ScriptedTarget(clock, (query, now) -> null);
    long[] offsets = evenly(500, 100 * US);
    PointResult r =
        OpenLoopReplayer.run(
            never,
            offsets,
            order(offsets.length, 1),
            new OpenLoopReplayer.Settings(0, 50, 10 * MS, List.of()),
            labels(10_000),
            clock);
    assertTrue(r.saturated());
    assertEquals(50, r.sent(), "the 51st request was refused, not sent");
    assertEquals(new Failures(0, 0, 0, 50), r.failures());
    assertEquals(0, r.decodeLatency().getTotalCount());
  }

  @Test
  void warmUpRequestsAreSentButNotCounted() throws Exception {
    long[] offsets = ArrivalProcess.poisson(400, 3).schedule(500 * MS);
    long warmup = 200 * MS;
    long counted = Arrays.stream(offsets).filter(o -> o >= warmup).count();
    try (NoopTarget target = new NoopTarget()) {
      PointResult r =
          OpenLoopReplayer.run(
              target,
              offsets,
              order(offsets.length, 1),
              new OpenLoopReplayer.Settings(warmup, 1_000, TimeUnit.SECONDS.toNanos(5), List.of()),
              labels(400));
      assertEquals(counted, r.sent());
      assertEquals(counted, r.completed());
      assertEquals(Failures.NONE, r.failures());
      assertFalse(r.saturated());
      assertEquals((double) counted, r.sendLag().get("count"));
      assertTrue(r.achievedRps() > 0);
      assertNull(r.noise(), "no meter, no noise");
    }
  }

  @Test
  void aMeterGivesEachPointTheMachinesNoiseOverItsMeasuredWindow() throws Exception {
    long[] offsets = ArrivalProcess.poisson(400, 3).schedule(400 * MS);
    long warmup = 100 * MS;
    OpenLoopReplayer.Settings settings =
        new OpenLoopReplayer.Settings(warmup, 1_000, TimeUnit.SECONDS.toNanos(5), List.of());
    try (NoiseMeter meter = NoiseMeter.start();
        NoopTarget target = new NoopTarget()) {
      for (int point = 0; point < 2; point++) {
        long before = System.nanoTime();
        PointResult r =
            OpenLoopReplayer.run(
                target, offsets, order(offsets.length, 1), settings, labels(400), meter);
        long elapsed = System.nanoTime() - before;
        MachineNoise noise = r.noise();
        assertTrue(noise != null, "the point carries the meter's reading");
        assertEquals(NoiseMeter.DEFAULT_PERIOD_NANOS, noise.periodNanos());
        // The window begins after the warm-up and ends within the run: this point's alone.
        assertTrue(noise.windowNanos() <= elapsed - warmup, noise + " in " + elapsed + " ns");
      }
    }
  }

  /**
   * Answers race the drain deadline from other threads, on the system clock: whichever wins, every
   * request counts exactly once, as a latency, a failure or unanswered.
   */
  @Test
  void answersRacingTheDrainDeadlineCountExactlyOnce() throws Exception {
    ScheduledExecutorService server = Executors.newScheduledThreadPool(4);
    ExecutorService completer = Executors.newFixedThreadPool(4);
    try {
      for (int round = 0; round < 30; round++) {
        SplittableRandom random = new SplittableRandom(round);
        AtomicInteger completions = new AtomicInteger();
        Target racing =
            new Target() {
              @Override
              public CompletableFuture<?> send(int query) {
                CompletableFuture<Object> f = new CompletableFuture<>();
                long delay = random.nextLong(3 * MS);
                boolean fails = random.nextInt(3) == 0;
                server.schedule(
                    () ->
                        completer.execute(
                            () -> {
                              boolean first =
                                  fails
                                      ? f.completeExceptionally(new IOException("reset"))
                                      : f.complete("result");
                              if (first) {
                                completions.incrementAndGet();
                              }
                            }),
                    delay,
                    TimeUnit.NANOSECONDS);
                return f;
              }

              @Override
              public String policy() {
                return "racing";
              }

              @Override
              public void close() {}
            };
        long[] offsets = new long[200]; // all at once
        PointResult r =
            OpenLoopReplayer.run(
                racing,
                offsets,
                order(offsets.length, 1),
                new OpenLoopReplayer.Settings(0, 1_000, MS, List.of(MS)),
                labels(1));
        assertEquals(200, r.sent());
        assertEquals(200, r.completed() + r.failed(), "round " + round);
        assertEquals(r.completed(), r.decodeLatency().getTotalCount(), "round " + round);
        assertEquals(0, r.failures().rejected() + r.failures().status(), "round " + round);
      }
    } finally {
      server.shutdownNow();
      completer.shutdownNow();
    }
  }

  /**
   * On a controlled clock every request is sent on time and answered 5 ms later by a server that
   * says it queued it 1 ms, woke it in 0.2 ms and ran it 3 ms: the rest, 0.8 ms, is completion, and
   * the parts add up to the latency.
   */
  @Test
  void theBreakdownsPartsAddUpToTheLatency() throws Exception {
    ManualClock clock = new ManualClock();
    ScriptedTarget answers =
        new ScriptedTarget(clock, (query, now) -> new ScriptedTarget.Answer(now + 5 * MS, null));
    ServerTiming server = new ServerTiming(MS, 200 * US, 3 * MS);
    Target timed =
        new Target() {
          @Override
          public CompletableFuture<?> send(int query) {
            return answers.send(query);
          }

          @Override
          public ServerTiming timing(Object answer) {
            return "result".equals(answer) ? server : null;
          }

          @Override
          public String policy() {
            return "timed";
          }

          @Override
          public void close() {}
        };
    long[] offsets = evenly(200, MS);
    OpenLoopReplayer.Settings settings =
        new OpenLoopReplayer.Settings(0, 1_000, TimeUnit.SECONDS.toNanos(1), List.of());
    PointResult r =
        OpenLoopReplayer.run(
            timed, offsets, order(offsets.length, 1), settings, labels(1000), clock);
    LatencyBreakdown b = r.breakdown();
    assertEquals(200, b.part("run").count());
    assertEquals(0, b.part("sendLag").p50Nanos(), 1);
    assertEquals(MS, b.part("queued").p50Nanos(), MS / 1000);
    assertEquals(200 * US, b.part("dispatch").p50Nanos(), 200);
    assertEquals(3 * MS, b.part("run").p50Nanos(), 3 * MS / 1000);
    assertEquals(800 * US, b.part("completion").p50Nanos(), 800);
    double sum = LatencyBreakdown.PARTS.stream().mapToDouble(p -> b.part(p).meanNanos()).sum();
    assertEquals(r.latency().get("mean"), sum, 5 * MS / 1000.0);

    // A target that says nothing of its server gives no breakdown, not a wrong one.
    PointResult none =
        OpenLoopReplayer.run(
            new ScriptedTarget(
                new ManualClock(), (q, now) -> new ScriptedTarget.Answer(now + MS, null)),
            offsets,
            order(offsets.length, 1),
            settings,
            labels(1000),
            new ManualClock());
    assertNull(none.breakdown());
  }

  /**
   * A target that says when each request ran gives its point the co-run record: here every request
   * ran alone, at twice its profiled time, and the warm-up's requests are not counted.
   */
  @Test
  void spansGiveThePointItsCoRunRecord() throws Exception {
    ManualClock clock = new ManualClock();
    ScriptedTarget answers =
        new ScriptedTarget(clock, (query, now) -> new ScriptedTarget.Answer(now + MS, null));
    java.util.concurrent.atomic.AtomicLong k = new java.util.concurrent.atomic.AtomicLong();
    Target spanned =
        new Target() {
          @Override
          public CompletableFuture<?> send(int query) {
            return answers.send(query);
          }

          @Override
          public dev.tailor.measure.CoRun.Span span(Object answer) {
            long at = 10 * MS * k.getAndIncrement();
            return new dev.tailor.measure.CoRun.Span(at, at + 4 * MS, 1, 2 * MS);
          }

          @Override
          public String policy() {
            return "seq";
          }

          @Override
          public void close() {}
        };
    long[] offsets = evenly(100, MS);
    OpenLoopReplayer.Settings settings =
        new OpenLoopReplayer.Settings(10 * MS, 1_000, TimeUnit.SECONDS.toNanos(1), List.of());
    PointResult r =
        OpenLoopReplayer.run(
            spanned, offsets, order(offsets.length, 1), settings, labels(1000), clock);
    assertEquals(90, r.coRun().level(1).requests());
    assertEquals(
        2.0, r.coRun().level(1).ratios().getValueAtPercentile(50) / 1e4, 0.01, "run / profiled");
  }
}
