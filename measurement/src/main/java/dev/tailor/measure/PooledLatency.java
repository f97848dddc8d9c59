package dev.tailor.measure;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The runs of one sweep point (a policy at a load) pooled: every run's latency histogram merged,
 * its percentiles read off the merged histogram, and a 95% confidence interval for each by
 * bootstrap over whole runs.
 *
 * <p>Why whole runs: the requests of one run are not independent (a slow spell of the machine, a
 * pile-up, a GC pause slow many of them together), so resampling requests would treat a run's
 * correlated tail as independent evidence and overstate the confidence. Resampling runs, the level
 * at which the sweep repeats, is what Kalibera and Jones recommend ("Rigorous benchmarking in
 * reasonable time", ISMM'13, §3: resample at the highest level of repetition). With k runs a
 * replicate draws k runs with replacement, merges their histograms and reads the percentile; the
 * interval is the 2.5th to 97.5th percentile of {@value #REPLICATES} replicates (the percentile
 * bootstrap). Few runs give few distinct replicates, so the interval is coarse with 3 and absent
 * with 1: the report says how many runs each point had.
 *
 * <p>A ratio of two points ({@link #ratioTo}) is paired where the design pairs the runs: two points
 * whose runs are the same rounds of an interleaved sweep (repetition r of every policy at a load
 * ran back to back) draw the same rounds in every replicate, so that a slow round slows both sides
 * of the ratio; points with different rounds are resampled independently.
 *
 * <p>Replicates are drawn from a fixed seed, so a report is the same every time it is written, and
 * from the same stream for every point with the same number of runs, which is what pairs them. A
 * replicate's percentile needs no merged histogram: each run is kept as cumulative counts over the
 * union of the recorded values, and the rank is found by binary search over their weighted sum (O(k
 * log values) per replicate). Not safe for use by several threads at once.
 */
public final class PooledLatency {

  /**
   * The fewest answered requests for a percentile above P90: below it P99 is the slowest request or
   * nearly, and says nothing a reader could act on.
   */
  public static final long MIN_REQUESTS_ABOVE_P90 = 100;

  /** The bootstrap replicates per interval. */
  public static final int REPLICATES = 2000;

  /** The interval's confidence level. */
  public static final double LEVEL = 0.95;

  private static final long SEED = 0x5EED_7A11L;

  private final int[] rounds;
  private final long[] values;
  private final long[][] cumulative;
  private final long[] totals;
  private final Histogram merged;
  private final Map<Long, double[]> replicates = new HashMap<>();

  private PooledLatency(List<Histogram> runs, int[] rounds) {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("a pooled point needs at least one run");
    }
    if (rounds.length != runs.size()) {
      throw new IllegalArgumentException(
          "expected one round per run (" + runs.size() + "), got " + rounds.length);
    }
    Integer[] order = new Integer[runs.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    // Sorted by round, so that the i-th run of two paired points is the same round.
    Arrays.sort(order, (a, b) -> Integer.compare(rounds[a], rounds[b]));
    this.rounds = new int[order.length];
    long[][] recorded = new long[order.length][];
    long[][] counts = new long[order.length][];
    this.totals = new long[order.length];
    Histogram first = runs.get(0);
    this.merged =
        new Histogram(
            first.getLowestDiscernibleValue(),
            first.getHighestTrackableValue(),
            first.getNumberOfSignificantValueDigits());
    merged.setAutoResize(true);
    long[] all = new long[0];
    for (int i = 0; i < order.length; i++) {
      Histogram h = runs.get(order[i]);
      this.rounds[i] = rounds[order[i]];
      merged.add(h);
      int n = 0;
      long[] v = new long[16];
      long[] c = new long[16];
      for (HistogramIterationValue x : h.recordedValues()) {
        if (n == v.length) {
          v = Arrays.copyOf(v, 2 * n);
          c = Arrays.copyOf(c, 2 * n);
        }
        v[n] = x.getValueIteratedTo();
        c[n] = x.getCountAtValueIteratedTo();
        totals[i] += c[n];
        n++;
      }
      recorded[i] = Arrays.copyOf(v, n);
      counts[i] = Arrays.copyOf(c, n);
      all = union(all, recorded[i]);
    }
    this.values = all;
    this.cumulative = new long[order.length][values.length];
    for (int i = 0; i < order.length; i++) {
      long sum = 0;
      int j = 0;
      for (int u = 0; u < values.length; u++) {
        if (j < recorded[i].length && recorded[i][j] == values[u]) {
          sum += counts[i][j++];
        }
        cumulative[i][u] = sum;
      }
    }
  }

  /** The runs pooled, as rounds 1, 2, ... in the order given. */
  public static PooledLatency of(List<Histogram> runs) {
    int[] rounds = new int[runs.size()];
    for (int i = 0; i < rounds.length; i++) {
      rounds[i] = i + 1;
    }
    return new PooledLatency(runs, rounds);
  }

  /**
   * The runs pooled, each with the round (repetition) it ran in: points whose runs have the same
   * rounds are paired in {@link #ratioTo}.
   *
   * @throws IllegalArgumentException if there is no run or the rounds do not match the runs
   */
  public static PooledLatency of(List<Histogram> runs, int[] rounds) {
    return new PooledLatency(List.copyOf(runs), rounds.clone());
  }

  /** The points' latency histograms pooled, each point a run in its repetition's round. */
  public static PooledLatency ofPoints(List<PointResult> points) {
    int[] rounds = points.stream().mapToInt(PointResult::repetition).toArray();
    return new PooledLatency(points.stream().map(PointResult::decodeLatency).toList(), rounds);
  }

  /** How many runs are pooled. */
  public int runs() {
    return rounds.length;
  }

  /** The answered requests behind the pooled figures: the merged histogram's count. */
  public long requests() {
    return merged.getTotalCount();
  }

  /** The merged histogram (a copy). */
  public Histogram merged() {
    return merged.copy();
  }

  /**
   * A percentile of the merged histogram with its 95% interval over the runs; no figure where there
   * is no request, or where the percentile is above P90 and fewer than {@value
   * #MIN_REQUESTS_ABOVE_P90} requests were answered; no interval from a single run.
   *
   * @param percentile in (0, 100], e.g. 99
   */
  public Estimate at(double percentile) {
    double value = percentile(percentile);
    if (Double.isNaN(value)) {
      return Estimate.NONE;
    }
    if (runs() < 2) {
      return new Estimate(value, Double.NaN, Double.NaN);
    }
    return interval(value, replicates(0, percentile));
  }

  /**
   * A percentile of the merged histogram alone, without its interval (no bootstrap): NaN where
   * {@link #at} gives no figure.
   */
  public double percentile(double percentile) {
    return available(percentile) ? merged.getValueAtPercentile(percentile) : Double.NaN;
  }

  /** Whether this point has a figure at {@code percentile} ({@link #at}'s rule). */
  public boolean available(double percentile) {
    if (!(percentile > 0 && percentile <= 100)) {
      throw new IllegalArgumentException("a percentile is in (0, 100], got " + percentile);
    }
    long n = requests();
    return n > 0 && (percentile <= 90 || n >= MIN_REQUESTS_ABOVE_P90);
  }

  /**
   * The ratio of this point's percentile to {@code other}'s, with its 95% interval: paired by round
   * where both points ran in the same rounds, else resampled independently; no interval where
   * either side has a single run; no figure where either side has none or the other's is 0.
   */
  public Estimate ratioTo(PooledLatency other, double percentile) {
    Estimate a = at(percentile);
    Estimate b = other.at(percentile);
    if (!a.known() || !b.known() || b.value() == 0) {
      return Estimate.NONE;
    }
    double value = a.value() / b.value();
    if (runs() < 2 || other.runs() < 2) {
      return new Estimate(value, Double.NaN, Double.NaN);
    }
    boolean paired = Arrays.equals(rounds, other.rounds);
    double[] x = replicates(0, percentile);
    double[] y = other.replicates(paired ? 0 : 1, percentile);
    double[] ratio = new double[REPLICATES];
    for (int i = 0; i < REPLICATES; i++) {
      ratio[i] = x[i] / y[i];
    }
    return interval(value, ratio);
  }

  /** Whether {@link #ratioTo} pairs this point's runs with {@code other}'s. */
  public boolean pairedWith(PooledLatency other) {
    return Arrays.equals(rounds, other.rounds);
  }

  /**
   * The estimate with the interval of the replicates' finite values: their 2.5th and 97.5th
   * percentiles. A replicate is not finite where every run it drew was empty.
   */
  private static Estimate interval(double value, double[] replicates) {
    double[] finite = Arrays.stream(replicates).filter(Double::isFinite).sorted().toArray();
    if (finite.length < 2) {
      return new Estimate(value, Double.NaN, Double.NaN);
    }
    double tail = (1 - LEVEL) / 2;
    int n = finite.length;
    int low = (int) Math.floor(tail * n);
    int high = Math.min(n - 1, (int) Math.ceil((1 - tail) * n) - 1);
    return new Estimate(value, finite[low], finite[high]);
  }

  /**
   * The replicates of a percentile from a resampling stream: stream 0 is shared by every point with
   * the same number of runs (so that paired points draw the same rounds), stream 1 is another.
   */
  private double[] replicates(int stream, double percentile) {
    long key = Double.doubleToLongBits(percentile) * 31 + stream;
    double[] cached = replicates.get(key);
    if (cached != null) {
      return cached;
    }
    int k = runs();
    SplittableRandom random = new SplittableRandom(SEED + 1_000_003L * k + 7919L * stream);
    long[] weights = new long[k];
    double[] out = new double[REPLICATES];
    for (int b = 0; b < REPLICATES; b++) {
      Arrays.fill(weights, 0);
      for (int i = 0; i < k; i++) {
        weights[random.nextInt(k)]++;
      }
      out[b] = valueAt(weights, percentile);
    }
    replicates.put(key, out);
    return out;
  }

  /**
   * The percentile of the runs merged with these weights (how many times each is drawn), by
   * HdrHistogram's rule: the least recorded value at or below which at least {@code ceil(p/100 *
   * total)} requests lie (at least 1); NaN where the weighted runs hold no request.
   */
  double valueAt(long[] weights, double percentile) {
    long total = 0;
    for (int i = 0; i < weights.length; i++) {
      total += weights[i] * totals[i];
    }
    if (total == 0) {
      return Double.NaN;
    }
    double p = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0), 100);
    long rank = Math.max(1, (long) Math.ceil(p * total / 100));
    int lo = 0;
    int hi = values.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      long below = 0;
      for (int i = 0; i < weights.length; i++) {
        below += weights[i] * cumulative[i][mid];
      }
      if (below >= rank) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return values[lo];
  }

  /** The sorted union of two sorted arrays of distinct values. */
  private static long[] union(long[] a, long[] b) {
    long[] out = new long[a.length + b.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length || j < b.length) {
      long next;
      if (j == b.length || (i < a.length && a[i] < b[j])) {
        next = a[i++];
      } else if (i == a.length || b[j] < a[i]) {
        next = b[j++];
      } else {
        next = a[i++];
        j++;
      }
      out[n++] = next;
    }
    return Arrays.copyOf(out, n);
  }
}
