package dev.tailor.core;

/**
 * A request's stop state: whether it was cancelled, stopped early (its result partial), or is past
 * its deadline. Every thread of the request reads it at its boundaries ({@link
 * Request#mayContinue}), with no lock, so it is two volatile fields and nothing else.
 *
 * <p>It stands apart from the request's control word ({@link Request}'s {@code ctl}) because it
 * moves on a different rule: the word's phase and threads change only under the dispatch lock, as
 * the dispatch moves the request; the stop state is set from anywhere (a user's cancel, a body's
 * {@link RequestContext#stopAt}, a deadline seen by any thread) and is never under the lock. A stop
 * drops the request's held units at once, so that no thread starts one after it.
 */
final class StopState {

  private static final int LIVE = 0;
  private static final int STOPPED_EARLY = 1; // by a deadline or a timeout: the result is partial
  private static final int CANCELLED = 2;

  /** {@link #deadlineNanos} without a deadline. */
  static final long NO_DEADLINE = Long.MAX_VALUE;

  private final ForkedUnits units;
  private volatile int stop = LIVE;
  private volatile long deadlineNanos = NO_DEADLINE; // on System.nanoTime()

  /**
   * @param units the request's units, dropped when it stops
   */
  StopState(ForkedUnits units) {
    this.units = units;
  }

  /** Whether nothing has stopped the request yet, not reading the deadline (no clock read). */
  boolean isLive() {
    return stop == LIVE;
  }

  /**
   * Flags the request cancelled and drops its held units; its threads see the flag at their next
   * boundary.
   */
  void cancel() {
    stop = CANCELLED;
    units.drop();
  }

  boolean isCancelled() {
    return stop == CANCELLED;
  }

  /**
   * Whether the request's threads should stop taking work: it was cancelled, stopped early, or its
   * deadline has passed (which stops it early now).
   */
  boolean stopped() {
    if (stop != LIVE) {
      return true;
    }
    long d = deadlineNanos;
    if (d != NO_DEADLINE && System.nanoTime() - d >= 0) {
      stopEarly();
      return true;
    }
    return false;
  }

  /**
   * Stops the request early, its result partial, and drops its held units. A cancellation stays a
   * cancellation.
   */
  void stopEarly() {
    if (stop == LIVE) {
      stop = STOPPED_EARLY;
      units.drop();
    }
  }

  /**
   * Whether the request was stopped early, by its deadline (which stops it now if it has passed) or
   * {@link #stopEarly}.
   */
  boolean stoppedEarly() {
    return stopped() && stop == STOPPED_EARLY;
  }

  /**
   * Sets the deadline, on {@link System#nanoTime()}, to {@code nanoTime} if that is earlier than
   * the one it has. Returns the deadline it had, for {@link #restoreDeadline}.
   */
  long deadline(long nanoTime) {
    long old = deadlineNanos;
    if (old == NO_DEADLINE || nanoTime - old < 0) {
      deadlineNanos = nanoTime;
    }
    return old;
  }

  /** Puts back a deadline {@link #deadline} returned, once a nested search is over. */
  void restoreDeadline(long nanoTime) {
    deadlineNanos = nanoTime;
  }

  /** The deadline on {@link System#nanoTime()}, or {@link #NO_DEADLINE}. */
  long deadlineNanos() {
    return deadlineNanos;
  }
}
