package dev.tailor.core;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The work units a request's body forked and no thread has finished: those held for a thread to
 * take (a lock-free queue), those running on helpers, and the first failure among them. The own
 * thread runs held units itself and waits for the helpers' last ones; a helper runs them one at a
 * time. Whether a thread may take one is the {@link Request}'s and the dispatch core's to say; this
 * class only runs, counts and waits.
 */
final class ForkedUnits {

  private final ConcurrentLinkedDeque<Runnable> held = new ConcurrentLinkedDeque<>();

  /** Units taken by helpers and not yet finished; the own thread's join waits for zero. */
  private final AtomicInteger inFlight = new AtomicInteger();

  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final BooleanSupplier cancelled;
  private volatile Thread joiner;

  /**
   * @param cancelled whether the request was cancelled: then no held unit is run
   */
  ForkedUnits(BooleanSupplier cancelled) {
    this.cancelled = cancelled;
  }

  /** Holds a forked unit and wakes the own thread if it waits: it may run the unit itself. */
  void hold(Runnable unit) {
    held.offer(unit);
    Thread j = joiner;
    if (j != null) {
      LockSupport.unpark(j);
    }
  }

  boolean noneHeld() {
    return held.isEmpty();
  }

  /** Drops every held unit (the body returned, the request was cancelled, a unit failed). */
  void drop() {
    held.clear();
  }

  /** The first failure of a unit, or null. */
  Throwable failure() {
    return failure.get();
  }

  /**
   * Runs one held unit on a helper, if the helper still {@code stays} once it holds the unit;
   * returns false if none was held or the helper gave it back. Asked after the unit is taken, so
   * that a unit forked after the request stopped wanting this helper (a degree that fell, a
   * tail-control mark, an arrival to give way to) is seen with that change and goes back to the
   * front of the queue for the request's own thread.
   */
  boolean runOneOnHelper(BooleanSupplier stays) {
    inFlight.incrementAndGet();
    Runnable unit = held.pollFirst();
    if (unit != null && !stays.getAsBoolean()) {
      held.offerFirst(unit);
      unit = null;
    }
    if (unit == null) {
      unitDone();
      return false;
    }
    try {
      unit.run();
    } catch (Throwable t) {
      fail(t);
    } finally {
      unitDone();
    }
    return true;
  }

  /** Runs held units on the own thread until none is held or the request is cancelled. */
  void runHeldOnOwnThread() {
    Runnable unit;
    while (!cancelled.getAsBoolean() && (unit = held.poll()) != null) {
      try {
        unit.run();
      } catch (Throwable t) {
        fail(t);
      }
    }
  }

  /** Whether a unit runs on a helper. */
  boolean helpersBusy() {
    return inFlight.get() > 0;
  }

  /**
   * Waits until no unit runs on a helper or a new unit is held (a cancelled request waits for its
   * helpers only: its units may use what the body is about to close). It spins for {@code
   * spinNanos} before it parks: a helper's last unit often ends within it, and the own thread then
   * goes on without the wake-up of a parked thread. Only a parking thread names itself the joiner,
   * so that helpers do not unpark a spinning one; it re-checks after naming itself. An interrupt
   * does not end the wait; the flag is restored afterwards.
   */
  void awaitHelpers(long spinNanos) {
    boolean interrupted = false;
    try {
      if (spinNanos > 0) {
        long start = System.nanoTime(); // a spin is measured in real time, whatever the clock
        int step = 0;
        do {
          Worker.spinStep(++step);
        } while (waiting() && System.nanoTime() - start < spinNanos);
      }
      joiner = Thread.currentThread();
      while (waiting()) {
        LockSupport.park(this);
        interrupted |= Thread.interrupted();
      }
    } finally {
      joiner = null;
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private boolean waiting() {
    return inFlight.get() > 0 && (cancelled.getAsBoolean() || held.isEmpty());
  }

  private void unitDone() {
    if (inFlight.decrementAndGet() == 0) {
      Thread j = joiner;
      if (j != null) {
        LockSupport.unpark(j);
      }
    }
  }

  private void fail(Throwable t) {
    failure.compareAndSet(null, t);
    held.clear();
  }
}
