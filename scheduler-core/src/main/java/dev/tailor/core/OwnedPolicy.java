package dev.tailor.core;

import dev.tailor.core.policy.Policy;

/**
 * The policy a {@link Scheduler} owns: the one it was built with or last given, closed when it is
 * replaced and, once, when the scheduler closes.
 *
 * <p>It stands apart because ownership is a small protocol of its own, independent of how the
 * policy is asked: a swap and the close are ordered by one lock ({@code lock}), so that a policy
 * given after the close is closed at once rather than kept, and the policy held at the close is
 * closed exactly once. The policy itself is read without the lock (a volatile), and a policy is
 * closed outside it.
 */
final class OwnedPolicy {

  private final Object lock = new Object(); // orders swaps and the close
  private volatile Policy policy; // owned: closed when replaced, and at close
  private boolean closed; // guarded by lock: the policy held at close is closed once

  OwnedPolicy(Policy policy) {
    this.policy = policy;
  }

  /** The policy now. */
  Policy current() {
    return policy;
  }

  /**
   * Makes {@code next} the policy, through {@code pool} (every later question goes to it), and
   * closes the one it replaces; after the close, closes {@code next} at once instead.
   */
  void swap(Policy next, WorkerPool pool) {
    Policy retired;
    synchronized (lock) {
      if (closed) {
        retired = next; // too late to decide anything: closed at once, as owned
      } else {
        Policy old = pool.setPolicy(next);
        this.policy = next;
        retired = old == next ? null : old; // the same policy again: still in use
      }
    }
    if (retired != null) {
      retired.close();
    }
  }

  /** Closes the policy held now, once; later swaps close what they are given. */
  void close() {
    Policy last;
    synchronized (lock) {
      last = closed ? null : policy;
      closed = true;
    }
    if (last != null) {
      last.close();
    }
  }
}
