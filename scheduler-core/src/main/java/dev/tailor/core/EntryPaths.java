package dev.tailor.core;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The three ways a request enters a {@link Scheduler}: {@linkplain #submit submitted} (its body on
 * a pool worker, a future returned), {@linkplain #run run} on the calling thread, or {@linkplain
 * #enter entered} on it without a body ({@link RequestScope}). Each makes the {@link Request} with
 * the scheduler's next id and the pool's clock, and queues it.
 *
 * <p>It stands apart from {@link Scheduler} because the rules of entry are the same for the three
 * and for nothing else: inside a request of the same scheduler, {@code run} and {@code enter} join
 * that request rather than queue a new one, so that nested work can never deadlock waiting for a
 * slot its own caller holds; outside, a caller waits for admission and a request cancelled while it
 * waits never runs.
 */
final class EntryPaths {

  private final Scheduler scheduler;
  private final WorkerPool pool;
  private final AtomicLong ids = new AtomicLong();

  EntryPaths(Scheduler scheduler, WorkerPool pool) {
    this.scheduler = scheduler;
    this.pool = pool;
  }

  /**
   * Queues a request whose body runs on a pool worker.
   *
   * @return a future completed exactly once with the body's result or failure; cancelling it
   *     cancels the request, cooperatively: no thread is interrupted. Waiting for it from inside a
   *     request of this scheduler runs it on the waiting thread if it is still queued, so that
   *     nested work cannot deadlock
   * @throws RejectedExecutionException if the scheduler is shut down or the admission queue is full
   */
  <T> CompletableFuture<T> submit(RequestBody<T> body, RequestAttributes attributes) {
    Request<T> r = newRequest(body, attributes, null);
    pool.enqueue(r);
    return r.future;
  }

  /**
   * Runs a request on the calling thread: waits for admission like any queued request, then runs
   * the body here, holding one slot of the budget until the request completes. Called from inside a
   * request of this scheduler, the body runs at once as part of that request.
   *
   * @return the body's result, handed back on this thread (no future is made)
   * @throws Exception what the body threw, as it threw it; a failure of one of its units that the
   *     body did not see (it forked and returned without joining) as a {@link
   *     java.util.concurrent.CompletionException} whose cause is that failure
   * @throws CancellationException if the request was cancelled or the scheduler shut down now
   * @throws RejectedExecutionException if the scheduler is shut down or the admission queue is full
   * @throws InterruptedException if interrupted while waiting for admission (the request leaves the
   *     queue)
   */
  <T> T run(RequestBody<T> body, RequestAttributes attributes) throws Exception {
    Request<?> outer = Request.current();
    if (outer != null && outer.scheduler == scheduler) {
      return body.run(outer.context);
    }
    Request<T> r = newRequest(body, attributes, Thread.currentThread());
    pool.enqueue(r);
    pool.awaitAdmission(r);
    if (r.phase() == Request.Phase.RETIRED) {
      throw new CancellationException("request " + r.id + " was cancelled before it ran");
    }
    pool.runOnThisThread(r);
    return r.exit.awaitOnCaller();
  }

  /**
   * Opens a request on the calling thread and returns at once when it is admitted, for a caller
   * whose work runs on its own thread between two callbacks rather than as a body it can hand over
   * (a search engine's query phase). The request waits for admission like any queued request; once
   * admitted, the thread holds one slot of the budget and is the request's own thread until the
   * returned scope is {@linkplain RequestScope#close() closed} on it: {@link
   * RequestContext#current()} is the request and the units it forks go to helpers as its degree
   * allows. Called from inside a request of this scheduler, the scope is part of that request (as a
   * nested {@link #run} is) and its close ends nothing.
   *
   * @return the open scope; close it on this thread, also when the work fails
   * @throws CancellationException if the request was cancelled, or the scheduler shut down now,
   *     while it waited for admission
   * @throws RejectedExecutionException if the scheduler is shut down or the admission queue is full
   * @throws InterruptedException if interrupted while waiting for admission (the request leaves the
   *     queue and completes as cancelled)
   */
  RequestScope enter(RequestAttributes attributes) throws InterruptedException {
    Request<?> outer = Request.current();
    if (outer != null && outer.scheduler == scheduler) {
      return RequestScope.nested(outer);
    }
    Request<Void> r = newRequest(RequestScope.NO_BODY, attributes, Thread.currentThread());
    pool.enqueue(r);
    pool.awaitAdmission(r);
    if (r.phase() == Request.Phase.RETIRED) {
      throw new CancellationException("request " + r.id + " was cancelled before it was admitted");
    }
    return RequestScope.open(pool, r);
  }

  private <T> Request<T> newRequest(RequestBody<T> body, RequestAttributes attrs, Thread caller) {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(attrs, "attributes");
    return new Request<>(
        scheduler, pool, ids.incrementAndGet(), attrs, body, caller, pool.nanoTime());
  }
}
