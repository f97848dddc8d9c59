package dev.tailor.server;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The searches admitted at once: a search enters before its body is read and exits once its
 * response is written, so the request threads held by searches never exceed the limit. Entering
 * never waits: a full limit is a refusal, which the server answers at once.
 */
final class InFlight {

  private final int limit;
  private final Semaphore permits;
  private final AtomicInteger current = new AtomicInteger();
  private final AtomicInteger peak = new AtomicInteger();
  private final LongAdder refused = new LongAdder();

  InFlight(int limit) {
    this.limit = limit;
    this.permits = new Semaphore(limit);
  }

  /** Enters if fewer than the limit are in; otherwise counts a refusal. */
  boolean tryEnter() {
    if (!permits.tryAcquire()) {
      refused.increment();
      return false;
    }
    // Counted only while holding a permit, so the count (and the peak) never passes the limit.
    peak.accumulateAndGet(current.incrementAndGet(), Math::max);
    return true;
  }

  /** Exits; once for every successful {@link #tryEnter()}. */
  void exit() {
    current.decrementAndGet();
    permits.release();
  }

  int limit() {
    return limit;
  }

  /**
   * Searches in now: the permits held, so that 0 means the next search is let in. (The count the
   * peak is taken from is lowered before a leaving search's permit is released, and may read 0
   * while that permit is still held.)
   */
  int current() {
    return limit - permits.availablePermits();
  }

  /** The most searches that were ever in at once. */
  int peak() {
    return peak.get();
  }

  /** Searches refused because the limit was reached. */
  long refused() {
    return refused.sum();
  }
}
