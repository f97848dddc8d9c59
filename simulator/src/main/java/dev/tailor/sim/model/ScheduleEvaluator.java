package dev.tailor.sim.model;

import dev.tailor.core.model.Schedule;

/**
 * The Few-to-Many model (Haque et al., ASPLOS'15, §4.1, Fig. 6): the one copy of the schedule
 * maths, which the table builder searches with and the tests hold against the paper's example (the
 * online policy reads the resulting {@link Schedule}s). For a schedule {@code S} and a request r
 * with sequential time {@code seq_r} and speedups {@code s_r(i)}, with {@code W_k = sum_{i<=k}
 * s_r(i)·v_i}:
 *
 * <ul>
 *   <li>{@code time_r(S) = v0 + sum_{i<k} v_i + (seq_r - W_{k-1}) / s_r(k)}, k the first degree
 *       with {@code W_k >= seq_r}, or n;
 *   <li>{@code ap_r(S)} = thread-time ({@code sum_i i·time at degree i}, the wait counting 0) over
 *       {@code time_r(S)};
 *   <li>{@code A(S) = sum_r time_r·ap_r / sum_r time_r} and {@code ap_R(S, q) = q·A(S)};
 *   <li>the mean of the times, and the φ-tail {@code L[ceil(φ·|R|)]} of the sorted times.
 * </ul>
 *
 * Weights generalise the counts: the mean and {@code A} are weighted sums and the φ-tail is the
 * smallest time whose cumulative weight reaches {@code φ·W}, which is {@code L[ceil(φ·|R|)]} when
 * every weight is 1. To keep {@code 0.99·100 = 99.000...01} from moving the rank, the reach is
 * taken with a relative slack of 1e-9.
 *
 * <p>Nothing but {@code v0} depends on the wait, and nothing depends on the load: {@link
 * #run(long[])} evaluates the running part once, and {@link Run#withWait} adds any {@code v0}
 * exactly (a shift keeps the order of the times). The builder relies on that to evaluate each
 * running part once for every wait and every load.
 *
 * <p>An instance holds scratch space: confine it to one thread and take {@link #forAnotherThread()}
 * for the next. The requests that finish at degree 1 ({@code seq_r <= v1}) are a prefix of the
 * sorted workload and all finish before the others, so they are summed from prefix sums; the others
 * are evaluated one by one.
 */
public final class ScheduleEvaluator {

  /** Relative slack for the φ-rank and the load constraint, so that rounding moves neither. */
  static final double SLACK = 1e-9;

  private final int maxDegree;
  private final double phi;
  private final double[] seq; // nondecreasing
  private final double[] weight;
  private final double[] speedup; // speedup[r * maxDegree + d - 1] = s_r(d)
  private final double[] prefixWeight; // prefixWeight[i] = sum of weight[0..i)
  private final double[] prefixTime; // prefixTime[i] = sum of weight·seq over [0..i)
  private final double totalWeight;
  private final double tailRank;

  private final double[] times; // scratch for the tail selection
  private final double[] weights;
  private double lastTail; // for the next call's guess only: no result depends on it

  /**
   * An evaluator of schedules with maximum degree {@code maxDegree} over {@code workload}.
   *
   * @param phi the tail's quantile, in {@code (0, 1]}
   * @throws IllegalArgumentException if {@code maxDegree < 1} or φ is out of range
   */
  public ScheduleEvaluator(Workload workload, int maxDegree, double phi) {
    if (maxDegree < 1) {
      throw new IllegalArgumentException("maximum degree must be >= 1, got " + maxDegree);
    }
    if (!(phi > 0 && phi <= 1)) {
      throw new IllegalArgumentException("phi must be in (0, 1], got " + phi);
    }
    this.maxDegree = maxDegree;
    this.phi = phi;
    int n = workload.size();
    seq = new double[n];
    weight = new double[n];
    speedup = new double[n * maxDegree];
    prefixWeight = new double[n + 1];
    prefixTime = new double[n + 1];
    for (int r = 0; r < n; r++) {
      seq[r] = workload.sequentialNanos(r);
      weight[r] = workload.weight(r);
      for (int d = 1; d <= maxDegree; d++) {
        speedup[r * maxDegree + d - 1] = workload.curve(r).at(d);
      }
      prefixWeight[r + 1] = prefixWeight[r] + weight[r];
      prefixTime[r + 1] = prefixTime[r] + weight[r] * seq[r];
    }
    totalWeight = prefixWeight[n];
    tailRank = phi * totalWeight * (1 - SLACK);
    times = new double[n];
    weights = new double[n];
  }

  private ScheduleEvaluator(ScheduleEvaluator o) {
    maxDegree = o.maxDegree;
    phi = o.phi;
    seq = o.seq;
    weight = o.weight;
    speedup = o.speedup;
    prefixWeight = o.prefixWeight;
    prefixTime = o.prefixTime;
    totalWeight = o.totalWeight;
    tailRank = o.tailRank;
    times = new double[seq.length];
    weights = new double[seq.length];
  }

  /** An evaluator sharing this one's workload with scratch space of its own. */
  public ScheduleEvaluator forAnotherThread() {
    return new ScheduleEvaluator(this);
  }

  /** The maximum degree {@code n}. */
  public int maxDegree() {
    return maxDegree;
  }

  /** The tail's quantile φ. */
  public double phi() {
    return phi;
  }

  /** The evaluation of a whole schedule: time, tail and average parallelism. */
  public Evaluation evaluate(Schedule schedule) {
    if (schedule.maxDegree() != maxDegree) {
      throw new IllegalArgumentException(
          "schedule "
              + schedule
              + " has maximum degree "
              + schedule.maxDegree()
              + ", not "
              + maxDegree);
    }
    return run(schedule.intervals()).withWait(schedule.waitNanos());
  }

  /**
   * Evaluates the running part {@code v1..v_{n-1}} of a schedule; {@code intervals[0]} (the wait)
   * is ignored.
   *
   * @param intervals {@code v0, v1, ..., v_{n-1}} in nanoseconds
   */
  public Run run(long[] intervals) {
    if (intervals.length != maxDegree) {
      throw new IllegalArgumentException(
          "expected " + maxDegree + " intervals, got " + intervals.length);
    }
    int n = seq.length;
    double v1 = maxDegree > 1 ? intervals[1] : Double.POSITIVE_INFINITY;
    int done = upperBound(v1); // requests [0, done) finish at degree 1: time = busy = seq
    double rest = tailRank - prefixWeight[done]; // the tail's rank among the others, if > 0
    // Only times above a guess are kept for the tail's selection: the last tail found, a little
    // lowered, since neighbouring schedules have neighbouring tails. Those at or below it all
    // precede the kept ones, so only their weight matters. A guess too high is caught and redone.
    double guess = rest > 0 ? lastTail * 0.9 : Double.POSITIVE_INFINITY;
    double tail;
    while (true) {
      double sumTime = prefixTime[done];
      double sumBusy = prefixTime[done];
      double below = 0;
      int m = 0;
      for (int r = done; r < n; r++) {
        // The model, for one request: work is the sequential work done so far.
        int base = r * maxDegree;
        double need = seq[r];
        double work = 0;
        double time = 0;
        double busy = 0;
        int k = 1;
        for (; k < maxDegree; k++) {
          double v = intervals[k];
          double s = speedup[base + k - 1];
          if (need - work <= s * v) {
            break;
          }
          work += s * v;
          time += v;
          busy += k * v;
        }
        double last = (need - work) / speedup[base + k - 1];
        time += last;
        busy += k * last;
        double w = weight[r];
        sumTime += w * time;
        sumBusy += w * busy;
        if (time > guess) {
          times[m] = time;
          weights[m] = w;
          m++;
        } else {
          below += w;
        }
      }
      if (rest <= 0) {
        tail = seq[firstReaching(tailRank, done)];
      } else if (below >= rest) {
        guess = Double.NEGATIVE_INFINITY; // the guess was too high: keep every time
        continue;
      } else {
        tail = select(times, weights, m, rest - below);
        lastTail = tail;
      }
      return new Run(sumTime, sumBusy, tail, totalWeight);
    }
  }

  /** The number of requests with {@code seq <= limit}. */
  private int upperBound(double limit) {
    int lo = 0;
    int hi = seq.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (seq[mid] <= limit) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The first index i < limit whose cumulative weight {@code prefixWeight[i + 1]} reaches rank. */
  private int firstReaching(double rank, int limit) {
    int lo = 0;
    int hi = limit - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (prefixWeight[mid + 1] >= rank) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /**
   * The smallest value of {@code values[0, m)} whose cumulative weight, in nondecreasing order of
   * value, reaches {@code rank}: a weighted quickselect with a three-way partition, expected linear
   * time. Reorders both arrays. If rounding leaves the rank above the total, the largest.
   */
  static double select(double[] values, double[] weights, int m, double rank) {
    int lo = 0;
    int hi = m;
    while (hi - lo > 1) {
      double pivot = medianOfThree(values[lo], values[(lo + hi) >>> 1], values[hi - 1]);
      int lt = lo;
      int i = lo;
      int gt = hi;
      double below = 0;
      double equal = 0;
      while (i < gt) {
        double v = values[i];
        if (v < pivot) {
          below += weights[i];
          swap(values, weights, lt++, i++);
        } else if (v > pivot) {
          swap(values, weights, i, --gt);
        } else {
          equal += weights[i];
          i++;
        }
      }
      if (rank <= below) {
        hi = lt;
      } else if (rank <= below + equal || gt == hi) {
        return pivot;
      } else {
        rank -= below + equal;
        lo = gt;
      }
    }
    return values[lo];
  }

  private static double medianOfThree(double a, double b, double c) {
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }

  private static void swap(double[] values, double[] weights, int i, int j) {
    double v = values[i];
    values[i] = values[j];
    values[j] = v;
    double w = weights[i];
    weights[i] = weights[j];
    weights[j] = w;
  }

  /**
   * The running part of a schedule over the workload, the same for every wait and every load.
   *
   * @param sumTimeNanos {@code sum_r w_r·time_r} without the wait
   * @param sumBusyNanos {@code sum_r w_r·time_r·ap_r}: thread-time
   * @param tailNanos the φ-tail of the times without the wait
   * @param totalWeight {@code sum_r w_r}
   */
  public record Run(
      double sumTimeNanos, double sumBusyNanos, double tailNanos, double totalWeight) {

    /** The schedule with this running part and the wait {@code v0}. */
    public Evaluation withWait(long waitNanos) {
      return new Evaluation(
          tailNanos + waitNanos,
          sumTimeNanos / totalWeight + waitNanos,
          sumBusyNanos / (sumTimeNanos + totalWeight * waitNanos));
    }
  }

  /**
   * A schedule over a workload.
   *
   * @param tailNanos the φ-tail {@code time_R(S, φ-tail)}
   * @param meanNanos the mean {@code time_R(S, mean)}
   * @param parallelism {@code A(S)}, the time-weighted average parallelism of one request, so that
   *     {@code ap_R(S, q) = q·A(S)}; for a one-request workload this is {@code ap_r(S)}
   */
  public record Evaluation(double tailNanos, double meanNanos, double parallelism) {

    /** {@code ap_R(S, q) = q·A(S)}: the threads q requests keep busy on average. */
    public double totalParallelism(int load) {
      return load * parallelism;
    }

    /**
     * Whether {@code q·A(S) <= target_p}, with a relative slack of 1e-9 so that a schedule that
     * meets the target exactly in real numbers meets it in doubles too.
     */
    public boolean fits(int load, double targetParallelism) {
      return totalParallelism(load) <= targetParallelism * (1 + SLACK);
    }

    /**
     * The highest load at which the schedule fits the target; 0 if none. A schedule that violates
     * the target at load q violates it at every higher load (the paper's pruning), so it fits at
     * exactly the loads 1 to this.
     */
    public int highestLoad(double targetParallelism) {
      double q = Math.floor(targetParallelism * (1 + SLACK) / parallelism);
      return q >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) q;
    }
  }

  @Override
  public String toString() {
    return "ScheduleEvaluator[" + seq.length + " requests, n=" + maxDegree + ", phi=" + phi + "]";
  }
}
