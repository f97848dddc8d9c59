package dev.tailor.core.dispatch;

import dev.tailor.core.policy.PriorityClass;
import java.util.ArrayDeque;

/**
 * One priority class's place in the dispatch core: its FIFO queue of requests waiting for
 * admission, its head's state (delayed until a time, or waiting for an exit) and its floor of
 * threads. Mutated only under the host's exclusion; the volatile fields may be read without it.
 *
 * @param <R> the host's request type
 */
final class ClassQueue<R> {
  final PriorityClass priority;
  final int floor;
  final ArrayDeque<R> queue = new ArrayDeque<>();
  volatile int queued;
  volatile long headDelayedUntil = Dispatcher.NOT_DELAYED;
  volatile boolean headAwaitsExit;
  boolean mayHelp = true;

  ClassQueue(PriorityClass priority, int floor) {
    this.priority = priority;
    this.floor = floor;
  }

  /** Forgets the head's delay or wait: the next head is asked afresh. */
  void clearHead() {
    headDelayedUntil = Dispatcher.NOT_DELAYED;
    headAwaitsExit = false;
  }

  /**
   * Whether the head is one the policy would be asked about now: queued, not waiting for an exit,
   * its delay (if any) over. May be read without the host's exclusion.
   */
  boolean headAdmissible(long now) {
    if (queued == 0 || headAwaitsExit) {
      return false;
    }
    long until = headDelayedUntil;
    return until == Dispatcher.NOT_DELAYED || now - until >= 0;
  }
}
