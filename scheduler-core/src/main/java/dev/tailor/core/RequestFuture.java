package dev.tailor.core;

import java.util.concurrent.CompletableFuture;

/**
 * The future {@link Scheduler#submit} returns. Cancelling it cancels the request: a queued request
 * leaves the queue, a running one has its held units dropped and, if asked, its body interrupted;
 * its threads return to the pool as their current units finish. Dependent futures are plain ones:
 * cancelling them does not reach the request.
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
      request.scheduler.cancel(request, mayInterruptIfRunning);
    }
    return cancelled;
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
