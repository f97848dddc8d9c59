package dev.tailor.core;

/**
 * A queued request run at once by a thread of the same scheduler that is about to wait for it (a
 * body submitting a request and waiting for its future): the runtime's way out of the deadlock that
 * nested waits would otherwise make. See {@link #runIfQueuedForWaiter}.
 */
final class WaiterRuns {

  private WaiterRuns() {}

  /**
   * Runs {@code r} at once on the calling thread if that thread is about to wait for it from inside
   * a request of this scheduler and {@code r} is still queued. Such a wait holds a slot of the
   * budget while {@code r} waits for one: with every slot held so, nothing would ever run again. As
   * {@link Scheduler#run} nested in a request does, the waiting thread then does the work itself;
   * unlike it, {@code r} stays a request of its own, reported and completed as every request is. It
   * leaves the queue without an admission decision and takes no slot (its thread holds one
   * already), so no helper is sent to it: its own thread runs its units in {@link
   * RequestContext#joinUnits()}.
   */
  static void runIfQueuedForWaiter(Request<?> r) {
    WorkerPool pool = r.pool;
    Request<?> waiter = Request.current();
    if (waiter == null
        || waiter.pool != pool
        || r.caller != null
        || r.phase() != Request.Phase.QUEUED) {
      return;
    }
    boolean adopted;
    pool.lock.lock();
    try {
      adopted = r.phase() == Request.Phase.QUEUED && !r.isCancelled();
      if (adopted) {
        long now = pool.nanoTime();
        if (pool.dispatch.removeQueued(r)) {
          pool.dispatchLocked(now); // a new head: it may be admitted now
        }
        r.markRunning(1, now);
      }
    } finally {
      pool.lock.unlockAndWake();
    }
    if (!adopted) {
      return;
    }
    long end = Request.UNKNOWN;
    try {
      pool.admitted(r);
      end = r.runBody(false);
    } finally {
      pool.lock.lock();
      try {
        r.threadLeft(true); // its only thread: no helper is ever sent to it
        r.markDone();
        pool.finishingLocked();
      } finally {
        pool.lock.unlockAndWake();
      }
      pool.finish(r, end != Request.UNKNOWN ? end : pool.nanoTime());
      pool.finished(null);
    }
  }
}
