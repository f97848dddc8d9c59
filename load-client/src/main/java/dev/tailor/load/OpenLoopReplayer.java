package dev.tailor.load;

import dev.tailor.core.metrics.RunMetrics;
import dev.tailor.measure.CoRun;
import dev.tailor.measure.Failures;
import dev.tailor.measure.LatencyBreakdown;
import dev.tailor.measure.MachineNoise;
import dev.tailor.measure.NoiseMeter;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Replays one point of a sweep, open loop: request {@code i} is sent at its intended time {@code
 * start + offsets[i]} whatever the backlog, and its latency is completion minus intended send, so
 * that a stall in the target (or in this client) shows in every request meant to be sent during it.
 * The client's own lag, actual minus intended send, is recorded apart. Requests intended within the
 * warm-up are sent but not counted. A point whose backlog grows past the limit stops early and is
 * marked saturated.
 *
 * <p>Only requests answered with a result are latencies. A request that got none is counted by kind
 * ({@link Failures}): as its target says when its future fails ({@link
 * RequestFailedException#kindOf}), or unanswered when the drain deadline passes (or the point stops
 * saturated) before its answer. Its latency is recorded nowhere, so that failing fast cannot lower
 * a percentile; it counts as a miss of every latency target instead ({@link PointResultBuilder}).
 * Every request sent in the measured window is counted exactly once: {@code sent == completed +
 * failed}, however its answer races the deadline.
 *
 * <p>Where the target says how the server spent a request's time ({@link Target#timing}), the point
 * also gets its {@link LatencyBreakdown}: for each request answered with a result, its send lag,
 * its server's queued, dispatch and run parts, and the rest of its latency as completion, so that
 * the parts of every request add up to its latency.
 *
 * <p>Given a {@link NoiseMeter}, the point also gets the machine's noise ({@link MachineNoise}:
 * stalls, GC pauses, steal, other processes' CPU) over a window of the meter's from the first
 * measured request's intended send until the last answer came (or the drain deadline passed). The
 * meter's own thread begins the window, so that the sending thread pays nothing for it.
 *
 * <p>Where the target says when each request first ran and ended ({@link Target#span}), the point
 * also records how long its requests ran beside how many others ({@link CoRun}), the measurement
 * the simulator's co-run slowdown is calibrated from.
 */
public final class OpenLoopReplayer {

  private static final long HIGHEST = TimeUnit.HOURS.toNanos(1);
  private static final long LEAD_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

  /**
   * How to run a point.
   *
   * @param warmupNanos the first part of the run, sent but not counted
   * @param maxBacklog the most requests in flight before the point counts as saturated
   * @param drainNanos how long to wait for the last answers after the last send; those that do not
   *     come by then count as unanswered failures, and the point as saturated
   * @param targetsNanos latency targets for the miss ratios
   */
  public record Settings(
      long warmupNanos, int maxBacklog, long drainNanos, List<Long> targetsNanos) {}

  /**
   * What the point is, for its result.
   *
   * @param offeredRps the arrival rate asked for
   * @param arrivals the arrival process's description
   * @param seed the seed of arrivals and query order
   * @param environment e.g. "measured on this machine (2 cores)"
   * @param corpus the index's source label
   */
  public record Labels(
      double offeredRps, String arrivals, long seed, String environment, String corpus) {}

  private OpenLoopReplayer() {}

  /**
   * Runs a point on the system's clock, without measuring the machine's noise (its {@link
   * PointResult#noise} is null).
   *
   * @param offsetsNanos intended send times from the start, ascending
   * @param queryOrder the query sent as request {@code i}
   */
  public static PointResult run(
      Target target, long[] offsetsNanos, int[] queryOrder, Settings settings, Labels labels)
      throws InterruptedException {
    return run(target, offsetsNanos, queryOrder, settings, labels, ReplayClock.SYSTEM, null);
  }

  /**
   * Runs a point on the system's clock, with the machine's noise over its measured window read from
   * {@code noise} (a window of its own; the meter stays open).
   *
   * @param offsetsNanos intended send times from the start, ascending
   * @param queryOrder the query sent as request {@code i}
   * @param noise the meter, or null not to measure the machine's noise
   */
  public static PointResult run(
      Target target,
      long[] offsetsNanos,
      int[] queryOrder,
      Settings settings,
      Labels labels,
      NoiseMeter noise)
      throws InterruptedException {
    return run(target, offsetsNanos, queryOrder, settings, labels, ReplayClock.SYSTEM, noise);
  }

  /** Runs a point on {@code clock}, without measuring the machine's noise. */
  static PointResult run(
      Target target,
      long[] offsetsNanos,
      int[] queryOrder,
      Settings settings,
      Labels labels,
      ReplayClock clock)
      throws InterruptedException {
    return run(target, offsetsNanos, queryOrder, settings, labels, clock, null);
  }

  /**
   * Runs a point on {@code clock}, reading the machine's noise from {@code noise} unless it is
   * null; a meter's windows keep {@link System#nanoTime} time, so it goes with the system's clock.
   */
  static PointResult run(
      Target target,
      long[] offsetsNanos,
      int[] queryOrder,
      Settings settings,
      Labels labels,
      ReplayClock clock,
      NoiseMeter noise)
      throws InterruptedException {
    long start = clock.nanoTime() + LEAD_NANOS;
    NoiseMeter.Window window = null;
    try {
      if (noise != null) {
        window = noise.windowFrom(start + settings.warmupNanos());
      }
      return replay(target, offsetsNanos, queryOrder, settings, labels, clock, start, window);
    } finally {
      if (window != null) {
        window.close();
      }
    }
  }

  private static PointResult replay(
      Target target,
      long[] offsetsNanos,
      int[] queryOrder,
      Settings settings,
      Labels labels,
      ReplayClock clock,
      long start,
      NoiseMeter.Window noise)
      throws InterruptedException {
    Histogram lag = new Histogram(1, HIGHEST, 3);
    long measureFrom = start + settings.warmupNanos();
    Answers answers = new Answers(target, clock, start, offsetsNanos, settings.warmupNanos());
    RunMetrics serverSide = target.measureFrom(measureFrom);
    long cpuBefore = processCpuNanos();
    int n = offsetsNanos.length;
    long sent = 0;
    boolean saturated = false;
    int i = 0;
    for (; i < n; i++) {
      long intended = start + offsetsNanos[i];
      clock.waitUntil(intended);
      long now = clock.nanoTime();
      if (!answers.admit(settings.maxBacklog())) {
        saturated = true;
        break;
      }
      if (answers.measured(i)) {
        lag.recordValue(clamp(now - intended));
        sent++;
      }
      answers.sentAt(i, now);
      int request = i;
      target
          .send(queryOrder[i])
          .whenComplete((result, error) -> answers.answer(request, result, error));
    }
    boolean drained = answers.drain(i, clock.nanoTime() + settings.drainNanos());
    MachineNoise machine = noise == null ? null : noise.read();
    long lastIntended = start + (i == 0 ? 0 : offsetsNanos[i - 1]);
    long end =
        saturated
            ? clock.nanoTime()
            : Math.max(lastIntended, start + (n == 0 ? 0 : offsetsNanos[n - 1]));
    long window = Math.max(1, end - measureFrom);
    long cpu = cpuBefore < 0 ? -1 : processCpuNanos() - cpuBefore;
    Failures failures = answers.failures();
    long completed = answers.completed();
    if (completed + failures.total() != sent) {
      throw new IllegalStateException(
          "lost count: sent " + sent + ", completed " + completed + ", failed " + failures);
    }
    return new PointResultBuilder(target.policy(), answers.latency())
        .labels(
            labels.offeredRps(),
            labels.arrivals(),
            labels.seed(),
            labels.environment(),
            labels.corpus())
        .outcome(window, sent, completed, failures, saturated || !drained)
        .cpuNanos(cpu)
        .queueing(serverSide == null ? null : serverSide.queueing())
        .sendLag(lag)
        .missTargets(settings.targetsNanos())
        .degreeDistribution(serverSide == null ? null : serverSide.degreeDistribution())
        .breakdown(answers.breakdown())
        .noise(machine)
        .coRun(answers.coRun())
        .build();
  }

  /**
   * The answers of a point's requests, as they come from any thread: each request is settled once,
   * by its answer or, if the drain deadline passes first, as unanswered; an answer that comes after
   * is ignored. Recording an answer allocates nothing beyond what the target's timing and span
   * give.
   */
  private static final class Answers {
    private static final int OPEN = 0;
    private static final int ANSWERED = 1;
    private static final int UNANSWERED = 2;

    private final Target target;
    private final ReplayClock clock;
    private final long start;
    private final long[] offsetsNanos;
    private final long[] sentAt; // written before the send, read once its answer came
    private final int firstMeasured;
    private final AtomicIntegerArray state;
    private final CountDownLatch unsettled;
    private final AtomicLong inFlight = new AtomicLong();
    private final ConcurrentHistogram latency = new ConcurrentHistogram(1, HIGHEST, 3);
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLongArray failed = new AtomicLongArray(Failures.Kind.values().length);
    // The breakdown of the measured requests answered with a result whose timing the target gave.
    private final ConcurrentHistogram sendLag = new ConcurrentHistogram(1, HIGHEST, 3);
    private final ConcurrentHistogram queued = new ConcurrentHistogram(1, HIGHEST, 3);
    private final ConcurrentHistogram dispatch = new ConcurrentHistogram(1, HIGHEST, 3);
    private final ConcurrentHistogram run = new ConcurrentHistogram(1, HIGHEST, 3);
    private final ConcurrentHistogram completion = new ConcurrentHistogram(1, HIGHEST, 3);
    // Each answered request's run as the server recorded it, warm-up included, for the co-run.
    private final CoRun.Span[] spans;

    Answers(Target target, ReplayClock clock, long start, long[] offsetsNanos, long warmupNanos) {
      this.target = target;
      this.clock = clock;
      this.sentAt = new long[offsetsNanos.length];
      this.start = start;
      this.offsetsNanos = offsetsNanos;
      int first = 0;
      while (first < offsetsNanos.length && offsetsNanos[first] < warmupNanos) {
        first++;
      }
      this.firstMeasured = first;
      this.state = new AtomicIntegerArray(offsetsNanos.length);
      this.unsettled = new CountDownLatch(offsetsNanos.length);
      this.spans = new CoRun.Span[offsetsNanos.length];
    }

    /** Whether request {@code i} was intended after the warm-up. */
    boolean measured(int i) {
      return i >= firstMeasured;
    }

    /** Takes one more request in flight, unless {@code maxBacklog} already are. */
    boolean admit(int maxBacklog) {
      if (inFlight.incrementAndGet() > maxBacklog) {
        inFlight.decrementAndGet();
        return false;
      }
      return true;
    }

    /** Notes when request {@code i} was sent, before it is. */
    void sentAt(int i, long nanos) {
      sentAt[i] = nanos;
    }

    /** Settles request {@code i} by its answer: a result if {@code error} is null. */
    void answer(int i, Object result, Throwable error) {
      long done = clock.nanoTime();
      inFlight.decrementAndGet();
      if (!state.compareAndSet(i, OPEN, ANSWERED)) {
        return; // it came after the deadline and already counts as unanswered
      }
      try {
        if (error == null) {
          spans[i] = target.span(result); // read once drained, after the latch's countDown
        }
        if (measured(i)) {
          if (error == null) {
            long intended = start + offsetsNanos[i];
            latency.recordValue(clamp(done - intended));
            completed.incrementAndGet();
            breakDown(done - intended, sentAt[i] - intended, target.timing(result));
          } else {
            failed.incrementAndGet(RequestFailedException.kindOf(error).ordinal());
          }
        }
      } finally {
        unsettled.countDown();
      }
    }

    /**
     * Waits until every one of the first {@code launched} requests is answered or the clock reaches
     * {@code deadline}, then settles those still open as unanswered (the rest were never sent).
     *
     * @return whether every request was answered in time
     */
    boolean drain(int launched, long deadline) throws InterruptedException {
      for (int i = launched; i < offsetsNanos.length; i++) {
        unsettled.countDown(); // never sent
      }
      boolean drained = clock.awaitUntil(unsettled, deadline);
      if (!drained) {
        for (int i = 0; i < launched; i++) {
          if (state.compareAndSet(i, OPEN, UNANSWERED)) {
            if (measured(i)) {
              failed.incrementAndGet(Failures.Kind.UNANSWERED.ordinal());
            }
            unsettled.countDown();
          }
        }
        // Answers that settled their request before the sweep finish recording without blocking.
        unsettled.await();
      }
      return drained;
    }

    /**
     * Records one answered request's parts: what the server says, the client's lag, and the rest of
     * its latency as completion, so that the parts add up to the latency.
     */
    private void breakDown(long latency, long lag, ServerTiming server) {
      if (server == null) {
        return;
      }
      long lagNanos = Math.max(0, lag);
      long rest =
          latency - lagNanos - server.queuedNanos() - server.dispatchNanos() - server.runNanos();
      sendLag.recordValue(clamp(lagNanos));
      queued.recordValue(clamp(server.queuedNanos()));
      dispatch.recordValue(clamp(server.dispatchNanos()));
      run.recordValue(clamp(server.runNanos()));
      completion.recordValue(clamp(rest));
    }

    /**
     * The breakdown of the measured requests answered with a result, or null where the target gave
     * the timing of none; call once drained.
     */
    LatencyBreakdown breakdown() {
      if (run.getTotalCount() == 0) {
        return null;
      }
      return LatencyBreakdown.of(
          sendLag.copy(), queued.copy(), dispatch.copy(), run.copy(), completion.copy());
    }

    /**
     * How long the measured requests ran beside how many others ({@link CoRun}), or null where the
     * target gave no spans or the point cannot measure it; call once drained.
     */
    CoRun coRun() {
      boolean[] counted = new boolean[spans.length];
      for (int i = 0; i < spans.length; i++) {
        counted[i] = measured(i) && state.get(i) == ANSWERED;
      }
      return CoRun.measure(spans.clone(), counted);
    }

    /** The latencies of the measured requests answered with a result; call once drained. */
    Histogram latency() {
      return latency.copy();
    }

    /** How many measured requests were answered with a result; call once drained. */
    long completed() {
      return completed.get();
    }

    /** The measured requests that got no result, by kind; call once drained. */
    Failures failures() {
      long[] byKind = new long[failed.length()];
      for (int k = 0; k < byKind.length; k++) {
        byKind[k] = failed.get(k);
      }
      return Failures.of(byKind);
    }
  }

  private static long clamp(long nanos) {
    return Math.max(1, Math.min(HIGHEST, nanos));
  }

  private static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }
}
