package dev.tailor.core.model;

import dev.tailor.core.Internal;

/**
 * A request's total sequential time projected from its own progress: the work it has done, how many
 * of its windows (the units its search is cut into) that work finished, and how many are left,
 * blended with a prior, the time expected before the request ran.
 *
 * <p>The rule, after {@code k} of a request's {@code n} windows have finished, having taken {@code
 * windowNanos} of the {@code workNanos} done so far (the rest is work outside windows, such as
 * rewriting the query before the first one):
 *
 * <pre>
 *   extrapolated = (n - k) * windowNanos / k          the windows left, at the pace seen so far
 *   expected     = max(0, prior - workNanos)          the windows left, as the prior expects them
 *   w            = k / (k + 1)                        with a prior; 1 without one
 *   projection   = workNanos + w * extrapolated + (1 - w) * expected
 * </pre>
 *
 * Before the first window has finished the projection is the prior, at least the work done; with no
 * prior it is unknown. The work done is counted as it is, never re-estimated: only what is left is
 * projected, so a projection is never below the work done, and a request that finished all its
 * windows is projected at its work.
 *
 * <p>Why this weight: the prior counts as one window's worth of evidence. A window's time measures
 * this very request on the index, where a prior (a predictor's estimate from the query's features,
 * or a load-independent figure such as a profile's median sequential time) describes it only
 * through what it shares with other requests; so the first finished window already weighs as much
 * as the prior, and each further one shrinks the prior's share, to a quarter after three. When the
 * windows run at one pace and there is no prior, the projection after the first window is the
 * request's time exactly; when the prior is exact, so is every projection that blends with it.
 *
 * <p>Pure and immutable: one instance holds what is fixed for a request (its windows and its
 * prior), and {@link #sequentialNanos} is a function of the progress it is given.
 */
@Internal
public final class Projection {

  /** A prior or a projection that is not known. */
  public static final long UNKNOWN = -1L;

  private final int windows;
  private final long priorNanos;

  private Projection(int windows, long priorNanos) {
    this.windows = windows;
    this.priorNanos = priorNanos;
  }

  /**
   * The projection of a request cut into {@code windows} windows.
   *
   * @param windows how many windows the request's work is cut into, at least 1
   * @param priorNanos the request's sequential time as expected before it ran, non-negative, or
   *     {@link #UNKNOWN} for none
   * @throws IllegalArgumentException if there is no window or the prior is neither non-negative nor
   *     {@link #UNKNOWN}
   */
  public static Projection of(int windows, long priorNanos) {
    if (windows < 1) {
      throw new IllegalArgumentException("a request has at least one window, got " + windows);
    }
    if (priorNanos < 0 && priorNanos != UNKNOWN) {
      throw new IllegalArgumentException(
          "a prior is a non-negative time or UNKNOWN (-1), got " + priorNanos);
    }
    return new Projection(windows, priorNanos);
  }

  /** How many windows the request's work is cut into. */
  public int windows() {
    return windows;
  }

  /** The request's sequential time as expected before it ran, or {@link #UNKNOWN}. */
  public long priorNanos() {
    return priorNanos;
  }

  /**
   * The request's projected sequential time, by the rule of the class description.
   *
   * @param windowsDone how many windows have finished, 0 to {@link #windows}
   * @param windowNanos the time those windows took, summed over the threads that ran them
   * @param workNanos all the work done so far, the windows' time included
   * @return nanoseconds, at least {@code workNanos}; {@link #UNKNOWN} if no window has finished and
   *     there is no prior
   * @throws IllegalArgumentException if {@code windowsDone} is outside 0 to {@link #windows}, a
   *     time is negative, the windows took time before any finished, or {@code windowNanos} exceeds
   *     {@code workNanos}
   */
  public long sequentialNanos(int windowsDone, long windowNanos, long workNanos) {
    if (windowsDone < 0 || windowsDone > windows) {
      throw new IllegalArgumentException(
          "windows done must be within 0 and " + windows + ", got " + windowsDone);
    }
    if (windowNanos < 0 || workNanos < 0) {
      throw new IllegalArgumentException(
          "times must be non-negative, got windows "
              + windowNanos
              + " ns, work "
              + workNanos
              + " ns");
    }
    if (windowNanos > workNanos) {
      throw new IllegalArgumentException(
          "the windows took "
              + windowNanos
              + " ns, more than all the work done, "
              + workNanos
              + " ns");
    }
    if (windowsDone == 0 && windowNanos != 0) {
      throw new IllegalArgumentException(
          "no window has finished, yet windows took " + windowNanos + " ns");
    }
    return rule(windows, priorNanos, windowsDone, windowNanos, workNanos);
  }

  /**
   * The rule itself, on arguments already checked: what {@link #sequentialNanos} answers, without
   * building a projection, for {@link WindowProgress}, which asks on the request path.
   */
  static long rule(
      int windows, long priorNanos, int windowsDone, long windowNanos, long workNanos) {
    if (windowsDone == 0) {
      return priorNanos == UNKNOWN ? UNKNOWN : Math.max(priorNanos, workNanos);
    }
    if (windowsDone == windows) {
      return workNanos; // nothing is left, whatever the prior expected
    }
    double extrapolated = (double) (windows - windowsDone) * windowNanos / windowsDone;
    if (priorNanos == UNKNOWN) {
      return workNanos + Math.round(extrapolated);
    }
    double expected = Math.max(0, priorNanos - workNanos);
    double w = (double) windowsDone / (windowsDone + 1);
    return workNanos + Math.round(w * extrapolated + (1 - w) * expected);
  }
}
