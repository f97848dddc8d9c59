package dev.tailor.load;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.CountDownLatch;

/**
 * A replay clock that moves only when the replay waits on it, and then straight to the next thing
 * scheduled on it: a test's replay runs on one thread, its latencies exact, with no wall clock. Not
 * thread-safe.
 */
final class ManualClock implements ReplayClock {

  private record Scheduled(long at, long order, Runnable action) {}

  private final PriorityQueue<Scheduled> pending =
      new PriorityQueue<>(
          Comparator.comparingLong(Scheduled::at).thenComparingLong(Scheduled::order));
  private long now;
  private long scheduled;

  /** Runs {@code action} when the clock reaches {@code at} (at once if it has). */
  void at(long at, Runnable action) {
    pending.add(new Scheduled(at, scheduled++, action));
  }

  @Override
  public long nanoTime() {
    return now;
  }

  @Override
  public void waitUntil(long deadline) {
    runUntil(deadline, null);
  }

  @Override
  public boolean awaitUntil(CountDownLatch latch, long deadline) {
    runUntil(deadline, latch);
    return latch.getCount() == 0;
  }

  /** Runs what is due by {@code deadline} in time order, stopping early once the latch opens. */
  private void runUntil(long deadline, CountDownLatch latch) {
    while (!pending.isEmpty()
        && pending.peek().at() <= deadline
        && (latch == null || latch.getCount() > 0)) {
      Scheduled s = pending.poll();
      now = Math.max(now, s.at());
      s.action().run();
    }
    if (latch == null || latch.getCount() > 0) {
      now = Math.max(now, deadline);
    }
  }
}
