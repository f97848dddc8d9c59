package dev.tailor.core.policy;

/**
 * A policy's decision for the request at the head of the admission queue: start it now with a
 * degree, delay it until a time, or hold it until another request exits.
 *
 * <p>Admission is FIFO: while the head is held back, the requests behind it wait too. Instances are
 * immutable; {@link #start(int)} returns shared instances for small degrees so that a decision
 * allocates nothing on the hot path.
 */
public final class Admission {

  /** The three kinds of decision. */
  public enum Kind {
    /** Start now with {@link #degree()}. */
    START,
    /** Ask again at {@link #untilNanos()}. */
    DELAY,
    /** Ask again when a running request exits. */
    AWAIT_EXIT
  }

  private static final Admission[] STARTS = new Admission[129];
  private static final Admission AWAIT_EXIT = new Admission(Kind.AWAIT_EXIT, 0, 0L);

  static {
    for (int d = 0; d < STARTS.length; d++) {
      STARTS[d] = new Admission(Kind.START, d, 0L);
    }
  }

  private final Kind kind;
  private final int degree;
  private final long untilNanos;

  private Admission(Kind kind, int degree, long untilNanos) {
    this.kind = kind;
    this.degree = degree;
    this.untilNanos = untilNanos;
  }

  /**
   * Start now with the given degree.
   *
   * @throws IllegalArgumentException if {@code degree} is negative
   */
  public static Admission start(int degree) {
    if (degree < 0) {
      throw new IllegalArgumentException("degree must be >= 0, got " + degree);
    }
    return degree < STARTS.length ? STARTS[degree] : new Admission(Kind.START, degree, 0L);
  }

  /** Hold the request until {@code nanoTime} on the system's clock, then ask again. */
  public static Admission delayUntil(long nanoTime) {
    return new Admission(Kind.DELAY, 0, nanoTime);
  }

  /**
   * Hold the request until a running request exits, then ask again. If nothing is running the
   * runtime starts the request with degree 1 rather than wait for an exit that cannot come.
   */
  public static Admission awaitExit() {
    return AWAIT_EXIT;
  }

  /** The kind of decision. */
  public Kind kind() {
    return kind;
  }

  /** The degree to start with; meaningful for {@link Kind#START} only. */
  public int degree() {
    return degree;
  }

  /** When to ask again; meaningful for {@link Kind#DELAY} only. */
  public long untilNanos() {
    return untilNanos;
  }

  @Override
  public String toString() {
    return switch (kind) {
      case START -> "start(" + degree + ")";
      case DELAY -> "delayUntil(" + untilNanos + ")";
      case AWAIT_EXIT -> "awaitExit";
    };
  }
}
