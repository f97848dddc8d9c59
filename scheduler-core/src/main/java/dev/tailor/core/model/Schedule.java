package dev.tailor.core.model;

import dev.tailor.core.Durations;
import dev.tailor.core.Internal;
import java.util.Arrays;

/**
 * A Few-to-Many schedule {@code S = (v0, v1, ..., v_{n-1})} (Haque et al., ASPLOS'15, §4.1): the
 * request waits {@code v0} before it starts, runs at degree 1 for {@code v1}, at degree 2 for
 * {@code v2}, ... and at degree {@code n} until it finishes. A zero interval skips its degree, so
 * {@code (0, 50ms, 0)} is the paper's pair form {@code {(0, d1), (50ms, d3)}}. Intervals are in
 * nanoseconds.
 *
 * <p>The wait may instead be "await exit" (the paper's {@code e1}): the request waits until another
 * request exits. The model still needs a number for it, so such a schedule keeps the largest
 * interval of its search, {@code y}, as {@code v0}; {@link #awaitsExit()} says which it is.
 *
 * <p>Immutable. Ordered lexicographically by {@code (v0, v1, ...)}, the order in which the paper's
 * search (Fig. 7) meets schedules, which breaks the builder's last ties.
 */
@Internal
public final class Schedule implements Comparable<Schedule> {

  private final long[] intervals; // intervals[i] = v_i
  private final boolean awaitExit;

  private Schedule(long[] intervals, boolean awaitExit) {
    if (intervals.length == 0) {
      throw new IllegalArgumentException("a schedule needs at least v0 (maximum degree 1)");
    }
    for (int i = 0; i < intervals.length; i++) {
      if (intervals[i] < 0) {
        throw new IllegalArgumentException("v" + i + " must be >= 0, got " + intervals[i]);
      }
    }
    this.intervals = intervals;
    this.awaitExit = awaitExit;
  }

  /**
   * A schedule from {@code v0, v1, ..., v_{n-1}} in nanoseconds; its maximum degree is the number
   * of values.
   *
   * @throws IllegalArgumentException if there is no value or one is negative
   */
  public static Schedule of(long... intervalNanos) {
    return new Schedule(intervalNanos.clone(), false);
  }

  /** {@link #of} with the values in milliseconds, for tests and examples. */
  public static Schedule ofMillis(long... intervalMillis) {
    long[] nanos = new long[intervalMillis.length];
    for (int i = 0; i < nanos.length; i++) {
      nanos[i] = Math.multiplyExact(intervalMillis[i], 1_000_000L);
    }
    return new Schedule(nanos, false);
  }

  /**
   * A schedule whose request waits for another request to exit; {@code intervalNanos[0]} is the
   * wait the model counts for it (the search's largest interval {@code y}).
   */
  public static Schedule awaitingExit(long... intervalNanos) {
    return new Schedule(intervalNanos.clone(), true);
  }

  /** The maximum degree {@code n}: the number of intervals. */
  public int maxDegree() {
    return intervals.length;
  }

  /** {@code v0}, the wait before the request starts. */
  public long waitNanos() {
    return intervals[0];
  }

  /** Whether the request waits for another request to exit rather than for {@code v0}. */
  public boolean awaitsExit() {
    return awaitExit;
  }

  /** {@code v_i} for {@code i = 0..n-1}: the wait for {@code i = 0}, else the time at degree i. */
  public long intervalNanos(int i) {
    return intervals[i];
  }

  /** A copy of {@code v0, ..., v_{n-1}}. */
  public long[] intervals() {
    return intervals.clone();
  }

  /**
   * The degree a request has after running (since its start, waits excluded) for {@code
   * elapsedNanos}: the first degree whose cumulative interval it has not yet passed, else {@code
   * n}. Allocates nothing; the online policy asks it every quantum.
   */
  public int degreeAt(long elapsedNanos) {
    long end = 0;
    for (int d = 1; d < intervals.length; d++) {
      end += intervals[d];
      if (elapsedNanos < end) {
        return d;
      }
    }
    return intervals.length;
  }

  /** The degree the request starts with: {@code degreeAt(0)}. */
  public int startDegree() {
    return degreeAt(0);
  }

  /**
   * The paper's pair form, times counted from arrival: {@code {(0, d1), (50ms, d3)}}, with {@code
   * e1} for a wait for an exit.
   */
  public String pairs() {
    StringBuilder sb = new StringBuilder("{(");
    sb.append(awaitExit ? "e1" : format(intervals[0]));
    int start = startDegree();
    sb.append(", d").append(start).append(')');
    long t = intervals[0];
    for (int d = 1; d < intervals.length; d++) {
      t += intervals[d];
      int next = d + 1;
      if (next > start && (next == intervals.length || intervals[next] > 0)) {
        sb.append(", (").append(format(t)).append(", d").append(next).append(')');
      }
    }
    return sb.append('}').toString();
  }

  private static String format(long nanos) {
    return nanos == 0 ? "0" : Durations.format(nanos);
  }

  @Override
  public int compareTo(Schedule o) {
    int c = Arrays.compare(intervals, o.intervals);
    return c != 0 ? c : Boolean.compare(awaitExit, o.awaitExit);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Schedule s
        && awaitExit == s.awaitExit
        && Arrays.equals(intervals, s.intervals);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(intervals) + Boolean.hashCode(awaitExit);
  }

  /**
   * {@code (v0, v1, ...)} in milliseconds where whole, e.g. {@code (0, 50ms, 0)}; e1 for an exit.
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < intervals.length; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(i == 0 && awaitExit ? "e1" : format(intervals[i]));
    }
    return sb.append(')').toString();
  }
}
