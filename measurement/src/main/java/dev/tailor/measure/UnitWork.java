package dev.tailor.measure;

/**
 * A request's work as the runtime cuts it: a serial part (the time outside units: rewriting the
 * query, merging the slices' results), then units that the request's threads take one at a time, in
 * order. A unit run while more than one thread is on the request costs a hand-off overhead on top
 * of its own time: the part of the measured parallel time that the units and the serial part do not
 * explain.
 *
 * <p>The profiler derives speedups beyond the measured degrees from this model and the simulator's
 * unit model runs it, so both read the same numbers. Immutable.
 */
public final class UnitWork {

  private final long serialNanos;
  private final long[] unitNanos;
  private final double overheadPerUnitNanos;

  private UnitWork(long serialNanos, long[] unitNanos, double overheadPerUnitNanos) {
    this.serialNanos = serialNanos;
    this.unitNanos = unitNanos;
    this.overheadPerUnitNanos = overheadPerUnitNanos;
  }

  /**
   * The model of one request.
   *
   * @param sequentialNanos the request's time at degree 1
   * @param unitNanos each unit's time at degree 1, in order
   * @param measuredNanos {@code measuredNanos[d - 1]} is the request's time measured at degree d;
   *     the highest of these degrees above 1 calibrates the hand-off overhead
   * @throws IllegalArgumentException if there is no unit, a time is negative, or the unit times add
   *     up past {@link Long#MAX_VALUE}
   */
  public static UnitWork of(long sequentialNanos, long[] unitNanos, double[] measuredNanos) {
    if (unitNanos.length == 0) {
      throw new IllegalArgumentException("no unit times");
    }
    long sum = 0;
    for (long u : unitNanos) {
      if (u < 0) {
        throw new IllegalArgumentException("a unit time is negative: " + u);
      }
      sum += u;
      if (sum < 0) {
        throw new IllegalArgumentException("the unit times add up past " + Long.MAX_VALUE + " ns");
      }
    }
    long serial = Math.max(0, sequentialNanos - sum);
    double overhead = 0;
    int d = measuredNanos.length;
    if (d > 1) {
      double unexplained = measuredNanos[d - 1] - serial - listSchedule(unitNanos, 0, d);
      overhead = Math.max(0, unexplained / Math.ceil((double) unitNanos.length / d));
    }
    return new UnitWork(serial, unitNanos.clone(), overhead);
  }

  /** The time outside units, nanoseconds. */
  public long serialNanos() {
    return serialNanos;
  }

  /** How many units. */
  public int units() {
    return unitNanos.length;
  }

  /** Unit {@code i}'s own time, nanoseconds. */
  public long unitNanos(int i) {
    return unitNanos[i];
  }

  /** What running a unit costs beyond its own time while the request has company, nanoseconds. */
  public double overheadPerUnitNanos() {
    return overheadPerUnitNanos;
  }

  /** The request's time alone on {@code threads} threads: the serial part plus the units. */
  public double nanosOn(int threads) {
    return serialNanos + listSchedule(unitNanos, threads > 1 ? overheadPerUnitNanos : 0, threads);
  }

  /** The makespan of the units, in order, each going to the thread that frees up first. */
  public static double listSchedule(long[] units, double overheadPerUnit, int threads) {
    double[] free = new double[threads];
    for (long u : units) {
      int earliest = 0;
      for (int t = 1; t < threads; t++) {
        if (free[t] < free[earliest]) {
          earliest = t;
        }
      }
      free[earliest] += u + overheadPerUnit;
    }
    double makespan = 0;
    for (double f : free) {
      makespan = Math.max(makespan, f);
    }
    return makespan;
  }
}
