package dev.tailor.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The future {@link Scheduler#submit} returns. Cancelling it cancels the request, cooperatively
 * (see {@link #cancel}); completing it from outside (for example through {@link #orTimeout})
 * abandons the request the same way. Dependent futures are plain ones: cancelling them does not
 * reach the request.
 *
 * <p>Waiting for it with {@link #get()}, {@link #get(long, TimeUnit)} or {@link #join()} from
 * inside a request of the same scheduler (a body submitting a request and waiting for it) cannot
 * deadlock: if the request is still queued, the waiting thread takes it out of the queue and runs
 * it itself, as a request of its own, instead of holding its slot of the budget while the request
 * waits for one. Waiting through a dependent future ({@code thenApply}, {@code allOf}) is a plain
 * wait.
 */
final class RequestFuture<T> extends CompletableFuture<T> {

  private final Request<T> request;

  RequestFuture(Request<T> request) {
    this.request = request;
  }

  /**
   * Cancels the request. Cancellation is cooperative, whatever {@code mayInterruptIfRunning} says:
   * the scheduler never interrupts a thread. A queued request leaves the queue and never runs. A
   * running one has its held units dropped and is flagged: its body and units see it at their next
   * check ({@link RequestContext#isCancelled()}, {@link RequestContext#mayContinue()}, which the
   * drop-in searcher polls between windows, and {@link RequestContext#joinUnits()}, which throws),
   * and its threads return to the pool as their current units finish. The future is cancelled at
   * once; the request is reported as cancelled when its last thread has left it.
   *
   * <p>Why no interrupt: the thread may be inside Lucene, and an interrupt that reaches a thread
   * blocked in a read of an {@code NIOFSDirectory} closes the file's channel, for every search of
   * the index, until it is reopened (the warning in {@code NIOFSDirectory}'s javadoc); an interrupt
   * in a body could as well reach the next request the worker runs. A body that blocks (on a lock,
   * on I/O of its own) and must stop early polls {@link RequestContext#isCancelled()} around it.
   *
   * @param mayInterruptIfRunning ignored: no thread is interrupted
   * @return whether this call cancelled the future
   */
  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    return abandonIf(super.cancel(false));
  }

  @Override
  public boolean complete(T value) {
    return abandonIf(super.complete(value));
  }

  @Override
  public boolean completeExceptionally(Throwable failure) {
    return abandonIf(super.completeExceptionally(failure));
  }

  /** The future was ended from outside if {@code ended}: the request is abandoned (cancelled). */
  private boolean abandonIf(boolean ended) {
    if (ended) {
      request.pool.cancel(request);
    }
    return ended;
  }

  @Override
  public T get() throws InterruptedException, ExecutionException {
    request.pool.runIfQueuedForWaiter(request);
    return super.get();
  }

  @Override
  public T get(long timeout, TimeUnit unit)
      throws InterruptedException, ExecutionException, TimeoutException {
    request.pool.runIfQueuedForWaiter(request);
    return super.get(timeout, unit);
  }

  @Override
  public T join() {
    request.pool.runIfQueuedForWaiter(request);
    return super.join();
  }

  /** Cancels with the request's own cancellation; the scheduler's path, which abandons nothing. */
  boolean cancelFromRequest() {
    return super.cancel(false);
  }

  /** Completes with the request's own result; the scheduler's path, which abandons nothing. */
  boolean completeFromRequest(T value) {
    return super.complete(value);
  }

  /** Fails with the request's own failure; the scheduler's path, which abandons nothing. */
  boolean failFromRequest(Throwable failure) {
    return super.completeExceptionally(failure);
  }

  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    return new CompletableFuture<>();
  }

  @Override
  public String toString() {
    return "RequestFuture[" + request.id + ", " + super.toString() + "]";
  }
}
