package dev.tailor.core.model;

import dev.tailor.core.Internal;

/**
 * How far a request has got through its windows: how many it has, how many have finished and the
 * time those took, and the {@link Projection} made of them. Kept once for the runtime's requests
 * and the simulator's unit model, so that both project alike.
 *
 * <p>It guards its input rather than throw: it is fed on the request path, where a clock that steps
 * back or a window reported twice must not fail the request. Counts and times below zero are
 * ignored, finished windows count at most as many as there are, and their time at most the work
 * done.
 *
 * <p>Not thread-safe: the runtime guards it with its request's monitor. Adding progress and reading
 * the projection allocate nothing.
 */
@Internal
public final class WindowProgress {

  private int windows;
  private int finished;
  private long finishedNanos;

  /** The request's work gains {@code n} windows (a search cut into them is about to start). */
  public void planned(int n) {
    if (n > 0) {
      windows = saturatedAdd(windows, n);
    }
  }

  /** {@code n} more of the request's windows have finished, having taken {@code nanos}. */
  public void finished(int n, long nanos) {
    if (n > 0) {
      finished = saturatedAdd(finished, n);
      finishedNanos += Math.max(0, Math.min(nanos, Long.MAX_VALUE - finishedNanos));
    }
  }

  /** How many of the request's windows have finished. */
  public int finished() {
    return Math.min(finished, windows);
  }

  /** The time the finished windows took. */
  public long finishedNanos() {
    return finishedNanos;
  }

  /**
   * The request's projected sequential time by {@link Projection}'s rule, from the windows finished
   * so far.
   *
   * @param priorNanos the time expected before the request ran, or {@link Projection#UNKNOWN} (any
   *     negative value counts as unknown)
   * @param workNanos all the work done on the request so far; a negative value counts as none
   * @return nanoseconds, at least the work done; before any window has finished the prior (at least
   *     the work done), or {@link Projection#UNKNOWN} when there is none
   */
  public long projectedNanos(long priorNanos, long workNanos) {
    long prior = priorNanos < 0 ? Projection.UNKNOWN : priorNanos;
    long work = Math.max(0, workNanos);
    int done = Math.min(finished, windows);
    if (done == 0) {
      return prior == Projection.UNKNOWN ? Projection.UNKNOWN : Math.max(prior, work);
    }
    return Projection.rule(windows, prior, done, Math.min(finishedNanos, work), work);
  }

  private static int saturatedAdd(int a, int b) {
    return (int) Math.min(Integer.MAX_VALUE, (long) a + b);
  }
}
