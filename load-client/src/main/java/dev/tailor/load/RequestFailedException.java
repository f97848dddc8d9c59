package dev.tailor.load;

import dev.tailor.measure.Failures;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;

/**
 * What a {@link Target}'s future completes with when its request got no result, saying why: the
 * replay counts it by {@linkplain #kind() kind} and keeps it out of the latencies. It carries no
 * stack trace: under overload a target may fail thousands of requests a second, and where the
 * failure happened is the target's, not the caller's, business.
 */
public final class RequestFailedException extends RuntimeException {

  private final Failures.Kind kind;

  /**
   * A failure of a kind a target can tell.
   *
   * @param kind why the request got no result: not {@link Failures.Kind#UNANSWERED}, which only the
   *     client that stopped waiting can tell
   * @param message what happened, e.g. {@code HTTP 503}
   * @param cause what the target caught, or null
   * @throws IllegalArgumentException if the kind is {@code UNANSWERED}
   */
  public RequestFailedException(Failures.Kind kind, String message, Throwable cause) {
    super(message, cause, false, false);
    if (kind == Failures.Kind.UNANSWERED) {
      throw new IllegalArgumentException("a target cannot tell that its request went unanswered");
    }
    this.kind = kind;
  }

  /** Why the request got no result. */
  public Failures.Kind kind() {
    return kind;
  }

  /**
   * Why a request whose future completed with {@code error} got no result: the kind of a {@link
   * RequestFailedException}; {@link Failures.Kind#REJECTED} for a {@link
   * RejectedExecutionException} (how an executor refuses work); {@link Failures.Kind#ERROR} for
   * anything else. Completion and execution wrappers are looked through.
   */
  public static Failures.Kind kindOf(Throwable error) {
    Throwable e = error;
    while ((e instanceof CompletionException || e instanceof ExecutionException)
        && e.getCause() != null) {
      e = e.getCause();
    }
    if (e instanceof RequestFailedException f) {
      return f.kind();
    }
    return e instanceof RejectedExecutionException ? Failures.Kind.REJECTED : Failures.Kind.ERROR;
  }
}
