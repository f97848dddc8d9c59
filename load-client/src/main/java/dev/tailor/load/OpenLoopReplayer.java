package dev.tailor.load;

import dev.tailor.core.metrics.PointResult;
import dev.tailor.core.metrics.PointResultBuilder;
import dev.tailor.core.metrics.RunMetrics;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Replays one point of a sweep, open loop: request {@code i} is sent at its intended time {@code
 * start + offsets[i]} whatever the backlog, and its latency is completion minus intended send, so
 * that a stall in the target (or in this client) shows in every request meant to be sent during it.
 * The client's own lag, actual minus intended send, is recorded apart. Requests intended within the
 * warm-up are sent but not counted. A point whose backlog grows past the limit stops early and is
 * marked saturated.
 */
public final class OpenLoopReplayer {

  private static final long HIGHEST = TimeUnit.HOURS.toNanos(1);
  private static final long LEAD_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
  private static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

  /**
   * How to run a point.
   *
   * @param warmupNanos the first part of the run, sent but not counted
   * @param maxBacklog the most requests in flight before the point counts as saturated
   * @param drainNanos how long to wait for the last answers after the last send
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
   * Runs a point.
   *
   * @param offsetsNanos intended send times from the start, ascending
   * @param queryOrder the query sent as request {@code i}
   */
  public static PointResult run(
      Target target, long[] offsetsNanos, int[] queryOrder, Settings settings, Labels labels)
      throws InterruptedException {
    ConcurrentHistogram latency = new ConcurrentHistogram(1, HIGHEST, 3);
    Histogram lag = new Histogram(1, HIGHEST, 3);
    AtomicLong completed = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    AtomicLong inFlight = new AtomicLong();
    long start = System.nanoTime() + LEAD_NANOS;
    long measureFrom = start + settings.warmupNanos();
    RunMetrics serverSide = target.measureFrom(measureFrom);
    long cpuBefore = processCpuNanos();
    int n = offsetsNanos.length;
    CountDownLatch allAnswered = new CountDownLatch(n);
    long sent = 0;
    boolean saturated = false;
    int i = 0;
    for (; i < n; i++) {
      long intended = start + offsetsNanos[i];
      waitUntil(intended);
      long now = System.nanoTime();
      boolean measured = intended - measureFrom >= 0;
      if (measured) {
        lag.recordValue(clamp(now - intended));
        sent++;
      }
      if (inFlight.incrementAndGet() > settings.maxBacklog()) {
        saturated = true;
        inFlight.decrementAndGet();
        break;
      }
      target
          .send(queryOrder[i])
          .whenComplete(
              (result, error) -> {
                long done = System.nanoTime();
                inFlight.decrementAndGet();
                if (measured) {
                  latency.recordValue(clamp(done - intended));
                  if (error == null) {
                    completed.incrementAndGet();
                  } else {
                    failed.incrementAndGet();
                  }
                }
                allAnswered.countDown();
              });
    }
    for (int skipped = i; skipped < n; skipped++) {
      allAnswered.countDown(); // never sent
    }
    long lastIntended = start + (i == 0 ? 0 : offsetsNanos[i - 1]);
    boolean drained = allAnswered.await(settings.drainNanos(), TimeUnit.NANOSECONDS);
    long end =
        saturated
            ? System.nanoTime()
            : Math.max(lastIntended, start + (n == 0 ? 0 : offsetsNanos[n - 1]));
    long window = Math.max(1, end - measureFrom);
    long cpu = cpuBefore < 0 ? -1 : processCpuNanos() - cpuBefore;
    long stillOut = drained ? 0 : allAnswered.getCount();
    return new PointResultBuilder(target.policy(), latency.copy())
        .labels(
            labels.offeredRps(),
            labels.arrivals(),
            labels.seed(),
            labels.environment(),
            labels.corpus())
        .outcome(window, sent, completed.get(), failed.get() + stillOut, saturated || !drained)
        .cpuNanos(cpu)
        .queueing(serverSide == null ? null : serverSide.queueing())
        .sendLag(lag)
        .missTargets(settings.targetsNanos())
        .degreeDistribution(serverSide == null ? null : serverSide.degreeDistribution())
        .build();
  }

  /**
   * Sleeps until close to the time, then spins: parking alone overshoots by tens of microseconds.
   */
  private static void waitUntil(long deadline) {
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return;
      }
      if (left > SPIN_NANOS) {
        LockSupport.parkNanos(left - SPIN_NANOS);
      } else {
        Thread.onSpinWait();
      }
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
