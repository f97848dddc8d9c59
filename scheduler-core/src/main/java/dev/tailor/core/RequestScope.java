package dev.tailor.core;

/**
 * A request of a {@link Scheduler} opened on the calling thread by {@link Scheduler#enter} and
 * closed later on the same thread: for a caller whose work is not a body it can hand over, such as
 * a search engine's query phase, which already runs on the engine's own thread between a callback
 * before it and one after it.
 *
 * <p>While the scope is open the thread is the request's own thread, exactly as if it ran a body
 * given to {@link Scheduler#run}: it holds one slot of the budget, {@link RequestContext#current()}
 * is the request, units it {@linkplain RequestContext#fork forks} go to helpers as the request's
 * degree allows, and its time counts as work on the request. {@link #close()} ends the request as a
 * body's return does: it drops the units still held, waits for the helpers still running units, and
 * completes the request exactly once, reported to the metrics and the listener as completed, as
 * failed if {@link #fail} was called or a unit threw, or as cancelled.
 *
 * <p>Not thread-safe: call every method on the thread that entered the scope. A scope that is never
 * closed holds its slot for good; close it in a {@code finally} block or in the failure callback of
 * the engine as well as in its success callback ({@link #close()} is idempotent).
 */
@Internal
@Experimental
public final class RequestScope implements AutoCloseable {

  /** The body of a scope's request, which never runs: the caller's own code is its body. */
  static final RequestBody<Void> NO_BODY =
      ctx -> {
        throw new IllegalStateException("a request opened by Scheduler.enter has no body to run");
      };

  private final WorkerPool pool;
  private final Request<?> request;
  private final Thread owner;
  private final Request<?> outer;
  private final boolean nested;
  private boolean closed;

  private RequestScope(WorkerPool pool, Request<?> request, Request<?> outer, boolean nested) {
    this.pool = pool;
    this.request = request;
    this.owner = Thread.currentThread();
    this.outer = outer;
    this.nested = nested;
  }

  /** Opens the scope of an admitted request on the calling thread, its caller. */
  static RequestScope open(WorkerPool pool, Request<?> admitted) {
    pool.openOnCaller(admitted);
    Request<?> outer = admitted.beginOwn();
    return new RequestScope(pool, admitted, outer, false);
  }

  /**
   * A scope entered inside a request of the same scheduler: it is part of that request, as a nested
   * {@link Scheduler#run} is, and closing it ends nothing.
   */
  static RequestScope nested(Request<?> enclosing) {
    return new RequestScope(enclosing.pool, enclosing, null, true);
  }

  /** The request, as its own code sees it: the place to fork units. */
  public RequestContext context() {
    return request.context;
  }

  /**
   * Whether this scope is part of a request entered earlier on this thread, which it leaves open.
   */
  public boolean isNested() {
    return nested;
  }

  /**
   * Records that the caller's work failed, so that the request completes as failed when the scope
   * closes; the first cause counts. Ignored in a {@linkplain #isNested() nested} scope (the
   * enclosing request's own code decides its outcome) and after {@link #close()}.
   *
   * @throws IllegalStateException if called by another thread than the one that entered
   */
  public void fail(Throwable cause) {
    checkOwner("fail");
    if (!closed && !nested) {
      request.exit.failOwn(cause == null ? new IllegalStateException("failed") : cause);
    }
  }

  /**
   * Ends the request: drops its held units, waits for its helpers to finish the units they run (an
   * interrupt does not cut the wait short; the thread's flag is restored afterwards), and completes
   * it exactly once. Restores the request the thread was in before {@link Scheduler#enter}.
   * Idempotent; a nested scope's close does nothing.
   *
   * @throws IllegalStateException if called by another thread than the one that entered: the
   *     request must end on its own thread, whose current request it resets
   */
  @Override
  public void close() {
    checkOwner("close");
    if (closed) {
      return;
    }
    closed = true;
    if (nested) {
      return;
    }
    long end = request.endOwn(outer);
    pool.closeOnCaller(request, end);
    try {
      request.exit.awaitOnCaller();
    } catch (Exception e) {
      // The outcome is reported to the metrics and the listener; the caller knows its own.
    }
  }

  private void checkOwner(String what) {
    if (Thread.currentThread() != owner) {
      throw new IllegalStateException(
          what
              + " must be called by the thread that entered request "
              + request.id
              + " ("
              + owner.getName()
              + "), not by "
              + Thread.currentThread().getName());
    }
  }

  @Override
  public String toString() {
    return "RequestScope["
        + request
        + (nested ? ", nested" : "")
        + (closed ? ", closed" : "")
        + "]";
  }
}
