package dev.tailor.core;

import java.util.concurrent.CompletableFuture;

/**
 * The future {@link Scheduler#submit} returns. Cancelling it cancels the request: a queued request
 * leaves the queue, a running one has its held units dropped and, if asked, its body interrupted;
 * its threads return to the pool as their current units finish. Completing it from outside (for
 * example through {@link #orTimeout}) abandons the request the same way, without the interrupt.
 * Dependent futures are plain ones: cancelling them does not reach the request.
 */
final class RequestFuture<T> extends CompletableFuture<T> {

  private final Request<T> request;

  RequestFuture(Request<T> request) {
    this.request = request;
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled) {
      request.pool.cancel(request, mayInterruptIfRunning);
    }
    return cancelled;
  }

  @Override
  public boolean complete(T value) {
    boolean completed = super.complete(value);
    if (completed) {
      request.pool.cancel(request, false);
    }
    return completed;
  }

  @Override
  public boolean completeExceptionally(Throwable failure) {
    boolean completed = super.completeExceptionally(failure);
    if (completed) {
      request.pool.cancel(request, false);
    }
    return completed;
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
