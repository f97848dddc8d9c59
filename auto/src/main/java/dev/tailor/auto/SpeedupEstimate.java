package dev.tailor.auto;

import dev.tailor.core.model.SpeedupCurve;
import java.util.ArrayList;
import java.util.List;

/**
 * Speedup measured from probes, not assumed. A request cannot be run twice, but the probes are
 * chosen by their id before they run, so the requests probed at degree 1 and those probed at degree
 * {@code d} are two random samples of the same workload: the {@code q}-quantile of the first's run
 * times over the {@code q}-quantile of the second's is the speedup at {@code d} of requests of that
 * size (quantile matching), read as a ratio of sums over the quantiles 0.05 to 0.95 so that one
 * outlying probe cannot swing it. With at least {@value #PER_THIRD} probes a third at a degree,
 * small, middling and large requests each get their curve from their third's quantiles; with fewer,
 * one pooled curve serves all three. A curve rises linearly between the degrees measured, never
 * above the degree nor below 1 and never falling. Beyond the highest degree measured it follows the
 * model that explains that degree's two measurements: its speedup, and the busy time over the
 * request's threads (its work, matched the same way against the work alone), as a serial share
 * {@code s} and a busy-time factor {@code I}: {@code S_d = 1 / (s + (I - s) / d)}.
 */
final class SpeedupEstimate {

  /** The thirds of the sizes, each with its curve. */
  private static final int THIRDS = 3;

  /** Probes at a degree from which each third is measured apart rather than pooled. */
  static final int PER_THIRD = 30;

  private final long[] thirdsFromNanos; // the size where the 2nd and 3rd thirds start
  private final SpeedupCurve[] curves; // one per third
  private final double[] serialShares; // one per third
  private final int[] measuredDegrees;
  private final double inflation;

  private SpeedupEstimate(
      long[] thirdsFromNanos,
      SpeedupCurve[] curves,
      double[] serialShares,
      int[] measuredDegrees,
      double inflation) {
    this.thirdsFromNanos = thirdsFromNanos;
    this.curves = curves;
    this.serialShares = serialShares;
    this.measuredDegrees = measuredDegrees;
    this.inflation = inflation;
  }

  /**
   * The estimate from the samples' probes, or null if fewer than {@code minProbes} requests were
   * probed at degree 1 or at every degree above it: then nothing is measured.
   *
   * @param maxDegree the curves' length
   */
  static SpeedupEstimate of(Samples samples, int maxDegree, int minProbes) {
    long[] alone = samples.runsProbedAt(1);
    if (alone.length < minProbes) {
      return null;
    }
    List<Integer> degrees = new ArrayList<>();
    List<double[]> speedups = new ArrayList<>(); // per degree, one per third
    double inflation = 1; // at the highest degree measured
    for (int d = 2; d <= maxDegree; d++) {
      long[] runs = samples.runsProbedAt(d);
      if (runs.length < minProbes) {
        continue;
      }
      double[] s = new double[THIRDS];
      for (int k = 0; k < THIRDS; k++) {
        // Pooled over every size until each third has enough probes of its own.
        double from = runs.length >= THIRDS * PER_THIRD ? k / (double) THIRDS : 0;
        double to = runs.length >= THIRDS * PER_THIRD ? (k + 1) / (double) THIRDS : 1;
        double ratio = matched(alone, runs, from, to);
        s[k] = Math.max(1, Math.min(d, ratio));
      }
      degrees.add(d);
      speedups.add(s);
      // Busy time over its threads against the same sizes alone: what running on d threads adds.
      inflation = Math.max(1, Math.min(d, matched(samples.worksProbedAt(d), alone, 0, 1)));
    }
    if (degrees.isEmpty()) {
      return null;
    }
    int top = degrees.get(degrees.size() - 1);
    SpeedupCurve[] curves = new SpeedupCurve[THIRDS];
    double[] serial = new double[THIRDS];
    for (int k = 0; k < curves.length; k++) {
      // Beyond the highest degree measured, the model that explains it: a serial share s, and
      // what parallel running adds to the busy time, I, so S_d = 1 / (s + (I - s) / d).
      double atTop = speedups.get(speedups.size() - 1)[k];
      serial[k] = Math.max(0, Math.min(1, (1 / atTop - inflation / top) / (1 - 1.0 / top)));
      double[] c = new double[maxDegree];
      int prevDegree = 1;
      double prev = 1;
      int m = 0;
      for (int d = 1; d <= maxDegree; d++) {
        while (m < degrees.size() && degrees.get(m) < d) {
          prevDegree = degrees.get(m);
          prev = Math.max(prev, speedups.get(m)[k]);
          m++;
        }
        double at;
        if (m < degrees.size()) {
          int nextDegree = degrees.get(m);
          double next = Math.max(prev, speedups.get(m)[k]);
          at = prev + (next - prev) * (d - prevDegree) / (double) (nextDegree - prevDegree);
        } else {
          at = Math.max(prev, 1 / (serial[k] + (inflation - serial[k]) / d));
        }
        c[d - 1] = d == 1 ? 1 : Math.max(c[d - 2], Math.min(d, at));
      }
      curves[k] = SpeedupCurve.of(c);
    }
    long[] from = {quantile(alone, 1.0 / 3), quantile(alone, 2.0 / 3)};
    return new SpeedupEstimate(
        from, curves, serial, degrees.stream().mapToInt(Integer::intValue).toArray(), inflation);
  }

  /**
   * The serial share of a request whose sequential time is {@code nanos}: the part of its time
   * spent on one thread whatever its degree, from its third's speedup and the busy time measured at
   * the highest degree probed.
   */
  double serialShareFor(long nanos) {
    return serialShares[third(nanos)];
  }

  /** Busy time over its threads, per unit of sequential time, at the highest degree probed. */
  double inflation() {
    return inflation;
  }

  private int third(long nanos) {
    return nanos < thirdsFromNanos[0] ? 0 : nanos < thirdsFromNanos[1] ? 1 : 2;
  }

  /** The curve of a request whose sequential time is {@code nanos}: its third's. */
  SpeedupCurve curveFor(long nanos) {
    return curves[third(nanos)];
  }

  /** The curve of each third of the sizes, smallest first. */
  List<SpeedupCurve> curves() {
    return List.of(curves);
  }

  /** The speedups at the measured degrees per third, e.g. {@code small 2:1.8 8:4.1; ...}. */
  String describe() {
    StringBuilder b = new StringBuilder();
    String[] names = {"small", "middling", "large"};
    for (int k = 0; k < curves.length; k++) {
      b.append(k == 0 ? "" : "; ").append(names[k]);
      for (int d : measuredDegrees) {
        b.append(' ')
            .append(d)
            .append(':')
            .append(String.format(java.util.Locale.ROOT, "%.2f", curves[k].at(d)));
      }
    }
    return b.toString();
  }

  /** The degrees above 1 that had enough probes to be measured. */
  int[] measuredDegrees() {
    return measuredDegrees.clone();
  }

  /**
   * The speedup read from matched quantiles between {@code from} and {@code to}: the sum of the
   * degree-1 run times at the quantiles 0.05, 0.10, ... in that range over the sum of the other's,
   * a ratio of trimmed means that one outlying probe cannot swing.
   */
  static double matched(long[] alone, long[] runs, double from, double to) {
    double a = 0;
    double b = 0;
    for (int i = 1; i < 20; i++) {
      double q = i / 20.0;
      if (q >= from && q <= to) {
        a += quantile(alone, q);
        b += quantile(runs, q);
      }
    }
    return b == 0 ? 1 : a / b;
  }

  /** The nearest-rank {@code q}-quantile of sorted values. */
  static long quantile(long[] sorted, double q) {
    int i = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }
}
