package dev.tailor.load;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The time a replay keeps and waits on: the system's ({@link #SYSTEM}), or in a test one that moves
 * only as the test says, so that a replay's latencies are exact and its tests need no wall clock.
 */
interface ReplayClock {

  /** The system's monotonic clock. */
  ReplayClock SYSTEM = new SystemClock();

  /** Now, in nanoseconds on this clock. */
  long nanoTime();

  /** Returns at {@code deadline} (or at once if it has passed), as precisely as it can. */
  void waitUntil(long deadline);

  /**
   * Waits until {@code latch} reaches zero or the clock reaches {@code deadline}.
   *
   * @return whether the latch reached zero
   */
  boolean awaitUntil(CountDownLatch latch, long deadline) throws InterruptedException;

  /** {@link System#nanoTime()}, and waits that park then spin. */
  final class SystemClock implements ReplayClock {

    private static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private SystemClock() {}

    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    /**
     * Parks until close to the time, then spins: parking alone overshoots by tens of microseconds.
     */
    @Override
    public void waitUntil(long deadline) {
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

    @Override
    public boolean awaitUntil(CountDownLatch latch, long deadline) throws InterruptedException {
      return latch.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
    }
  }
}
