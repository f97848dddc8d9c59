package dev.tailor.sim.model;

import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.measure.DemandProfile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The requests a Few-to-Many schedule is evaluated over: per request its sequential time, its
 * speedup curve and a weight (1 for a request of a profile, the member count for a demand bin).
 * Held in nondecreasing order of sequential time, which lets the evaluator take the requests that
 * finish at degree 1 as a prefix. Immutable.
 */
public final class Workload {

  private final double[] sequentialNanos;
  private final SpeedupCurve[] curves;
  private final double[] weights;
  private final double totalWeight;

  private Workload(List<Entry> entries) {
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("a workload needs at least one request");
    }
    // A stable sort keeps equal times in input order, so the order is a function of the input.
    List<Entry> sorted = new ArrayList<>(entries);
    sorted.sort(Comparator.comparingDouble(Entry::sequentialNanos));
    int n = sorted.size();
    sequentialNanos = new double[n];
    curves = new SpeedupCurve[n];
    weights = new double[n];
    double total = 0;
    for (int i = 0; i < n; i++) {
      Entry e = sorted.get(i);
      sequentialNanos[i] = e.sequentialNanos;
      curves[i] = e.curve;
      weights[i] = e.weight;
      total += e.weight;
    }
    totalWeight = total;
  }

  private record Entry(double sequentialNanos, SpeedupCurve curve, double weight) {}

  /** Every request of a profile, weight 1 each, with its measured-then-derived speedup curve. */
  public static Workload of(DemandProfile profile) {
    Builder b = builder();
    for (DemandProfile.Request r : profile.requests()) {
      b.add(r.sequentialNanos(), r.speedupCurve(), 1);
    }
    return b.build();
  }

  /** A workload of one request: its time and average parallelism are time_r and ap_r. */
  public static Workload single(double sequentialNanos, SpeedupCurve curve) {
    return builder().add(sequentialNanos, curve, 1).build();
  }

  /** Starts an empty workload. */
  public static Builder builder() {
    return new Builder();
  }

  /** Collects requests for a {@link Workload}. */
  public static final class Builder {
    private final List<Entry> entries = new ArrayList<>();

    private Builder() {}

    /**
     * Adds a request.
     *
     * @throws IllegalArgumentException unless the time is positive and finite and the weight is
     *     positive and finite
     */
    public Builder add(double sequentialNanos, SpeedupCurve curve, double weight) {
      if (!(sequentialNanos > 0) || Double.isInfinite(sequentialNanos)) {
        throw new IllegalArgumentException("sequential time must be > 0, got " + sequentialNanos);
      }
      if (!(weight > 0) || Double.isInfinite(weight)) {
        throw new IllegalArgumentException("weight must be > 0, got " + weight);
      }
      entries.add(new Entry(sequentialNanos, curve, weight));
      return this;
    }

    /** The workload of the requests added so far. */
    public Workload build() {
      return new Workload(entries);
    }
  }

  /**
   * Groups the requests into {@code bins} equal-width demand bins over {@code (0, longest]}, the
   * paper's speed-up for the search: each non-empty bin becomes one request whose time and speedup
   * at each degree are its members' weighted means and whose weight is their total.
   *
   * @throws IllegalArgumentException if {@code bins < 1}
   */
  public Workload binned(int bins) {
    if (bins < 1) {
      throw new IllegalArgumentException("bins must be >= 1, got " + bins);
    }
    double longest = longestNanos();
    int degrees = 1;
    for (SpeedupCurve c : curves) {
      degrees = Math.max(degrees, c.maxDegree());
    }
    double[] weight = new double[bins];
    double[] time = new double[bins];
    double[][] speedup = new double[bins][degrees];
    for (int i = 0; i < size(); i++) {
      int b = Math.min(bins - 1, (int) (sequentialNanos[i] / longest * bins));
      double w = weights[i];
      weight[b] += w;
      time[b] += w * sequentialNanos[i];
      for (int d = 1; d <= degrees; d++) {
        speedup[b][d - 1] += w * curves[i].at(d);
      }
    }
    Builder out = builder();
    for (int b = 0; b < bins; b++) {
      if (weight[b] > 0) {
        double[] s = new double[degrees];
        for (int d = 0; d < degrees; d++) {
          s[d] = Math.max(1.0, speedup[b][d] / weight[b]);
        }
        s[0] = 1.0;
        out.add(time[b] / weight[b], SpeedupCurve.of(s), weight[b]);
      }
    }
    return out.build();
  }

  /** The number of requests (or bins). */
  public int size() {
    return sequentialNanos.length;
  }

  /** The sum of the weights: {@code |R|} for a profile. */
  public double totalWeight() {
    return totalWeight;
  }

  /** The longest sequential time. */
  public double longestNanos() {
    return sequentialNanos[sequentialNanos.length - 1];
  }

  /** The sequential time of the {@code i}-th request in nondecreasing order of that time. */
  public double sequentialNanos(int i) {
    return sequentialNanos[i];
  }

  /** The speedup curve of the {@code i}-th request. */
  public SpeedupCurve curve(int i) {
    return curves[i];
  }

  /** The weight of the {@code i}-th request. */
  public double weight(int i) {
    return weights[i];
  }
}
