package dev.tailor.core.metrics;

import dev.tailor.core.Internal;

/**
 * A request's degree over its run: the current degree, the highest, and the time-weighted mean that
 * its {@link RequestRecord} reports. Kept once for the runtime's requests and the simulator's, so
 * that both report the same measure. Not thread-safe: the runtime guards it with its request's
 * monitor.
 */
@Internal
public final class DegreeHistory {

  private int degree;
  private int maxDegree;
  private long since;
  private double integral;
  private boolean started;

  /** The request starts with degree {@code d} at {@code at}. */
  public void start(int d, long at) {
    degree = d;
    maxDegree = d;
    since = at;
    started = true;
  }

  /** The degree becomes {@code d} at {@code at}; returns the degree it had. */
  public int change(int d, long at) {
    int old = degree;
    if (old != d) {
      integral += (double) old * (at - since);
      since = at;
      degree = d;
      maxDegree = Math.max(maxDegree, d);
    }
    return old;
  }

  /** The current degree. */
  public int degree() {
    return degree;
  }

  /** The highest degree so far. */
  public int maxDegree() {
    return maxDegree;
  }

  /**
   * The time-weighted mean degree from {@code start} to {@code end}; the current degree for a
   * request that never ran or ran for no time.
   */
  public double mean(long start, long end) {
    double total = integral + (started ? (double) degree * (end - since) : 0);
    return end > start ? total / (end - start) : degree;
  }
}
