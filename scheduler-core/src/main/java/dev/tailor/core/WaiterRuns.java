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
   * unlike it, {@code r} stays a request of its own, run, released and terminated on the path every
   * request takes. The dispatch core adopts it ({@link dev.tailor.core.dispatch.Dispatcher#adopt}):
   * it leaves the queue without an admission question, at degree 1, on the waiting thread's slot,
   * which it gives back to nobody when its body returns.
   */
  static void runIfQueuedForWaiter(Request<?> r) {
    Request<?> waiter = Request.current();
    if (waiter != null
        && waiter.pool == r.pool
        && r.caller == null
        && r.phase() == Request.Phase.QUEUED) {
      r.pool.runForWaiter(r);
    }
  }
}
