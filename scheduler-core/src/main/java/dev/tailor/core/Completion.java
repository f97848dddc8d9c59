package dev.tailor.core;

import dev.tailor.core.metrics.RequestRecord;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.LockSupport;

/**
 * A request's one exit: what its body left behind (a result or a failure), and {@link #terminate},
 * the only place that fixes how the request ended, records it, tells the listener and the policy,
 * and hands the outcome to whoever waits (its future, or its caller's thread), exactly once.
 *
 * <p>It stands apart from {@link Request} because it is the one piece that runs outside the
 * dispatch lock and may run on any thread (whichever leaves the request last, a canceller, a
 * shutdown): its order (claim, record, report, publish, hand over) is what makes "exactly once" and
 * "the report is made before the waiter wakes" hold, and it reads best in one place. The claim and
 * the publication are bits of the request's control word ({@link Request#claimTermination}, {@link
 * Request#markTerminated}).
 *
 * <p>The body's outcome is written by the request's own thread before it leaves the request under
 * the dispatch lock, and read by {@link #terminate} after that lock, so the lock orders them;
 * {@link #ended} is written before the control word's {@code TERMINATED} bit and read after it.
 *
 * @param <T> the body's result type
 */
final class Completion<T> {

  private final Request<T> request;

  // Outcome of the body; written by the own thread before it leaves, ordered by the dispatch lock.
  private T result;
  private Throwable bodyFailure;

  /** How the request ended, fixed by {@link #terminate} before it publishes TERMINATED. */
  private RequestRecord.Outcome ended;

  Completion(Request<T> request) {
    this.request = request;
  }

  /** The body returned {@code value}; on the own thread. */
  void bodyReturned(T value) {
    result = value;
  }

  /** The body threw {@code t}; on the own thread. */
  void bodyFailed(Throwable t) {
    bodyFailure = t;
  }

  /** Records what made a request opened by {@link RequestScope} fail; the first cause counts. */
  void failOwn(Throwable cause) {
    if (bodyFailure == null) {
      bodyFailure = cause;
    }
  }

  /**
   * Ends the request, once, outside the dispatch lock: records it, tells the listener and the
   * policy, then hands its outcome to whoever waits: its future, or its caller's thread. A request
   * already terminated is left alone, so a second call is harmless.
   *
   * @param end when its last thread left it, or when it left the queue
   */
  void terminate(long end) {
    if (!request.claimTermination()) {
      return;
    }
    RequestRecord.Outcome outcome = outcome();
    ended = outcome; // what the caller is told is what was recorded, whatever comes later
    RequestRecord record = request.account.record(end, outcome);
    // The report comes first, so that whoever waits on the request finds it in the metrics.
    WorkerPool pool = request.pool;
    pool.reportCompleted(request, record, request.startNanos != Request.UNKNOWN);
    request.markTerminated(); // a caller that wakes now finds the report made
    RequestFuture<T> future = request.future;
    if (future != null) {
      switch (outcome) {
        case CANCELLED -> future.cancelFromRequest();
        case FAILED -> future.failFromRequest(failure());
        case COMPLETED -> future.completeFromRequest(result);
      }
    } else if (request.caller != Thread.currentThread()) {
      LockSupport.unpark(request.caller);
    }
    pool.lifecycle.requestTerminated();
  }

  /**
   * On the caller's thread, after its body returned: waits until the request has terminated (its
   * helpers finish their current unit quickly, so an interrupt does not end the wait; the flag is
   * restored), then returns the result or throws the outcome: the body's exception as it threw it,
   * a unit's failure it did not see wrapped once in a {@link CompletionException}, or a {@link
   * CancellationException}.
   */
  T awaitOnCaller() throws Exception {
    boolean interrupted = false;
    while (!request.isTerminated()) {
      LockSupport.park(request);
      interrupted |= Thread.interrupted();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return outcomeOnCaller();
  }

  private T outcomeOnCaller() throws Exception {
    switch (ended) {
      case CANCELLED -> throw new CancellationException("request " + request.id + " was cancelled");
      case FAILED -> {
        if (bodyFailure instanceof Exception e) {
          throw e;
        }
        if (bodyFailure instanceof Error e) {
          throw e;
        }
        throw new CompletionException(failure());
      }
      default -> {
        return result;
      }
    }
  }

  /** The body's failure, else the first unit's, else null. */
  private Throwable failure() {
    return bodyFailure != null ? bodyFailure : request.units.failure();
  }

  /** How the request ended. */
  private RequestRecord.Outcome outcome() {
    RequestFuture<T> future = request.future;
    if (request.stop.isCancelled() || (future != null && future.isCancelled())) {
      return RequestRecord.Outcome.CANCELLED;
    }
    return failure() != null ? RequestRecord.Outcome.FAILED : RequestRecord.Outcome.COMPLETED;
  }
}
