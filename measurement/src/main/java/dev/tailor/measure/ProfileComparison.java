package dev.tailor.measure;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How closely two demand profiles of the same trace agree on each query's sequential time. Two
 * profiles taken back to back on the same machine should agree; if they do not, the profiler
 * measured the machine rather than the queries, and every table built from either inherits the
 * noise.
 *
 * <p>Requests are matched by id <em>and</em> query text, so a profile of another trace (or a trace
 * whose ids were renumbered) matches nothing rather than matching the wrong queries. A key that
 * occurs several times in one profile (a trace that repeats a query under the same id) is matched
 * by position: its k-th occurrence in A with its k-th occurrence in B; occurrences beyond the other
 * side's count are unmatched. All figures are over the matched requests only.
 *
 * <p>The per-query difference is the relative difference {@code exp(|ln(b / a)|) - 1}, i.e. the
 * larger time over the smaller, minus one: symmetric in A and B, so a query twice as slow in B and
 * one twice as slow in A both differ by 1.0.
 *
 * @param requests the number of matched requests
 * @param onlyInA requests of A with no match in B
 * @param onlyInB requests of B with no match in A
 * @param logCorrelation the Pearson correlation of {@code ln(sequentialNanos)} between A and B over
 *     the matched requests; where either side has zero variance (a single request, or all times
 *     equal) the correlation is undefined, and this is 1 if the two sides are equal request by
 *     request, else 0
 * @param medianDifference the median of the per-query relative differences, by nearest rank (the
 *     smallest difference with at least half of them at or below it)
 * @param p90Difference the 90th percentile of the per-query relative differences, by nearest rank
 * @param slowestCount k, the number of requests that are the slowest 5% of the matched requests
 *     ({@link WorkloadSpread#slowestCount})
 * @param slowestOverlap the share of A's k slowest matched requests that are also among B's k
 *     slowest; ties in time are broken by position in each profile's own trace, earlier first
 * @param meanRatio the mean sequential time of the matched requests in B over that in A
 * @param worst the matched request whose relative difference is largest (the earliest in A on a
 *     tie)
 */
public record ProfileComparison(
    int requests,
    int onlyInA,
    int onlyInB,
    double logCorrelation,
    double medianDifference,
    double p90Difference,
    int slowestCount,
    double slowestOverlap,
    double meanRatio,
    Worst worst) {

  /**
   * The request on which two profiles disagree most.
   *
   * @param id the request's id
   * @param query its query text
   * @param aNanos its sequential time in A
   * @param bNanos its sequential time in B
   * @param difference its relative difference, {@code exp(|ln(bNanos / aNanos)|) - 1}
   */
  public record Worst(String id, String query, long aNanos, long bNanos, double difference) {}

  /**
   * What two profiles of the same trace should reach to count as agreeing. The defaults, {@link
   * #DEFAULT}, are what back-to-back profiles on a quiet machine reach.
   *
   * @param minCorrelation the least {@link #logCorrelation}
   * @param maxMedianDifference the largest {@link #medianDifference}
   * @param maxP90Difference the largest {@link #p90Difference}
   * @param minSlowestOverlap the least {@link #slowestOverlap}
   * @param maxMeanDeviation the largest {@code |meanRatio - 1|}
   */
  public record Goal(
      double minCorrelation,
      double maxMedianDifference,
      double maxP90Difference,
      double minSlowestOverlap,
      double maxMeanDeviation) {

    /**
     * Correlation at least 0.95, median difference at most 5%, P90 difference at most 15%, slowest
     * overlap at least 80%, means within 3%.
     */
    public static final Goal DEFAULT = new Goal(0.95, 0.05, 0.15, 0.80, 0.03);
  }

  /**
   * Compares two profiles request by request.
   *
   * @throws IllegalArgumentException if no request of A matches one of B, or a matched request's
   *     sequential time is not positive
   */
  public static ProfileComparison of(DemandProfile a, DemandProfile b) {
    List<DemandProfile.Request> as = a.requests();
    List<DemandProfile.Request> bs = b.requests();
    // Where each key occurs in B, in trace order, so that repeated keys pair up by position.
    Map<List<String>, ArrayDeque<Integer>> inB = new HashMap<>();
    for (int j = 0; j < bs.size(); j++) {
      inB.computeIfAbsent(key(bs.get(j)), k -> new ArrayDeque<>()).add(j);
    }
    List<int[]> pairs = new ArrayList<>(); // {position in A, position in B}, in A's order
    for (int i = 0; i < as.size(); i++) {
      ArrayDeque<Integer> positions = inB.get(key(as.get(i)));
      if (positions != null && !positions.isEmpty()) {
        pairs.add(new int[] {i, positions.poll()});
      }
    }
    int n = pairs.size();
    if (n == 0) {
      throw new IllegalArgumentException(
          "the profiles have no request in common (matched by id and query text): A has "
              + as.size()
              + ", B has "
              + bs.size()
              + "; are they profiles of the same trace?");
    }
    long[] ta = new long[n];
    long[] tb = new long[n];
    int[] posB = new int[n];
    for (int m = 0; m < n; m++) {
      DemandProfile.Request ra = as.get(pairs.get(m)[0]);
      DemandProfile.Request rb = bs.get(pairs.get(m)[1]);
      ta[m] = positive(ra, "A");
      tb[m] = positive(rb, "B");
      posB[m] = pairs.get(m)[1];
    }

    double[] la = new double[n];
    double[] lb = new double[n];
    double[] diff = new double[n];
    int worst = 0;
    double sumA = 0;
    double sumB = 0;
    for (int m = 0; m < n; m++) {
      la[m] = Math.log(ta[m]);
      lb[m] = Math.log(tb[m]);
      diff[m] = Math.expm1(Math.abs(lb[m] - la[m]));
      if (diff[m] > diff[worst]) {
        worst = m;
      }
      sumA += ta[m];
      sumB += tb[m];
    }
    double[] sorted = diff.clone();
    Arrays.sort(sorted);

    int k = WorkloadSpread.slowestCount(n);
    // A's matched requests are in A's trace order, so the index m is A's position order; B's are
    // ranked by their own positions in B.
    int[] identity = new int[n];
    Arrays.setAll(identity, m -> m);
    Set<Integer> slowA = slowest(ta, identity, k);
    Set<Integer> slowB = slowest(tb, posB, k);
    slowA.retainAll(slowB);

    DemandProfile.Request w = as.get(pairs.get(worst)[0]);
    return new ProfileComparison(
        n,
        as.size() - n,
        bs.size() - n,
        correlation(la, lb),
        WorkloadSpread.nearestRank(sorted, 0.5),
        WorkloadSpread.nearestRank(sorted, 0.9),
        k,
        (double) slowA.size() / k,
        sumB / sumA,
        new Worst(w.id(), w.query(), ta[worst], tb[worst], diff[worst]));
  }

  /**
   * One sentence per goal this comparison misses, e.g. {@code "correlation of log sequential time
   * 0.650 is below 0.950"}; empty if it meets them all.
   */
  public List<String> shortfalls(Goal goal) {
    List<String> missed = new ArrayList<>();
    if (!meetsCorrelation(goal)) {
      missed.add(
          format(
              "correlation of log sequential time %.3f is below %.3f",
              logCorrelation, goal.minCorrelation()));
    }
    if (!meetsMedian(goal)) {
      missed.add(
          format(
              "median per-query difference %s is above %s",
              percent(medianDifference), percent(goal.maxMedianDifference())));
    }
    if (!meetsP90(goal)) {
      missed.add(
          format(
              "P90 per-query difference %s is above %s",
              percent(p90Difference), percent(goal.maxP90Difference())));
    }
    if (!meetsOverlap(goal)) {
      missed.add(
          format(
              "%d of the %d slowest requests are the same in both (%s), below %s",
              shared(), slowestCount, percent(slowestOverlap), percent(goal.minSlowestOverlap())));
    }
    if (!meetsMean(goal)) {
      missed.add(
          format(
              "the mean sequential time of B differs from A's by %+.1f%%, more than %s",
              100 * (meanRatio - 1), percent(goal.maxMeanDeviation())));
    }
    return missed;
  }

  /** Whether this comparison meets every goal: {@link #shortfalls} is empty. */
  public boolean meets(Goal goal) {
    return shortfalls(goal).isEmpty();
  }

  /** {@link #describe(Goal)} against {@link Goal#DEFAULT}. */
  public String describe() {
    return describe(Goal.DEFAULT);
  }

  /**
   * A report of several lines: the match counts, each figure beside its goal marked {@code ok} or
   * {@code MISSED}, and the request the profiles disagree on most.
   */
  public String describe(Goal goal) {
    StringBuilder s = new StringBuilder();
    s.append(
        format(
            "%d requests matched by id and query (%d only in A, %d only in B)%n",
            requests, onlyInA, onlyInB));
    line(
        s,
        "correlation of log sequential time",
        format("%.3f", logCorrelation),
        format(">= %.3f", goal.minCorrelation()),
        meetsCorrelation(goal));
    line(
        s,
        "median per-query difference",
        percent(medianDifference),
        "<= " + percent(goal.maxMedianDifference()),
        meetsMedian(goal));
    line(
        s,
        "P90 per-query difference",
        percent(p90Difference),
        "<= " + percent(goal.maxP90Difference()),
        meetsP90(goal));
    line(
        s,
        format("slowest %d: the same in both", slowestCount),
        format("%s (%d)", percent(slowestOverlap), shared()),
        ">= " + percent(goal.minSlowestOverlap()),
        meetsOverlap(goal));
    line(
        s,
        "mean of B over mean of A",
        format("%.3f", meanRatio),
        "within " + percent(goal.maxMeanDeviation()),
        meetsMean(goal));
    s.append(
        format(
            "worst query: id %s, A %.3f ms, B %.3f ms (differ by %s): %s%n",
            worst.id(),
            worst.aNanos() / 1e6,
            worst.bNanos() / 1e6,
            percent(worst.difference()),
            abbreviate(worst.query(), 60)));
    return s.toString();
  }

  private boolean meetsCorrelation(Goal goal) {
    return logCorrelation >= goal.minCorrelation();
  }

  private boolean meetsMedian(Goal goal) {
    return medianDifference <= goal.maxMedianDifference();
  }

  private boolean meetsP90(Goal goal) {
    return p90Difference <= goal.maxP90Difference();
  }

  private boolean meetsOverlap(Goal goal) {
    return slowestOverlap >= goal.minSlowestOverlap();
  }

  private boolean meetsMean(Goal goal) {
    return Math.abs(meanRatio - 1) <= goal.maxMeanDeviation();
  }

  /** The number of requests among the slowest of both, back from the share. */
  private long shared() {
    return Math.round(slowestOverlap * slowestCount);
  }

  private static void line(StringBuilder s, String what, String value, String goal, boolean ok) {
    s.append(format("  %-36s %12s   goal %-11s %s%n", what, value, goal, ok ? "ok" : "MISSED"));
  }

  private static List<String> key(DemandProfile.Request r) {
    return List.of(String.valueOf(r.id()), String.valueOf(r.query()));
  }

  private static long positive(DemandProfile.Request r, String side) {
    if (r.sequentialNanos() <= 0) {
      throw new IllegalArgumentException(
          "request "
              + r.id()
              + " of "
              + side
              + " has sequential time "
              + r.sequentialNanos()
              + " ns; a time must be positive to take its logarithm");
    }
    return r.sequentialNanos();
  }

  /** The indices of the k largest times; ties go to the smaller position (earlier in trace). */
  private static Set<Integer> slowest(long[] times, int[] position, int k) {
    Integer[] order = new Integer[times.length];
    Arrays.setAll(order, m -> m);
    Arrays.sort(
        order,
        Comparator.<Integer>comparingLong(m -> -times[m]).thenComparingInt(m -> position[m]));
    return new HashSet<>(Arrays.asList(order).subList(0, k));
  }

  /**
   * Pearson's correlation of x and y; where either has zero variance, 1 if x and y are equal
   * element by element, else 0, so that the figure is never NaN.
   */
  static double correlation(double[] x, double[] y) {
    if (constant(x) || constant(y)) {
      // Tested on the values rather than on a computed variance, which rounding can leave a hair
      // above zero for equal values.
      return Arrays.equals(x, y) ? 1 : 0;
    }
    int n = x.length;
    double mx = 0;
    double my = 0;
    for (int i = 0; i < n; i++) {
      mx += x[i];
      my += y[i];
    }
    mx /= n;
    my /= n;
    double sxy = 0;
    double sxx = 0;
    double syy = 0;
    for (int i = 0; i < n; i++) {
      double dx = x[i] - mx;
      double dy = y[i] - my;
      sxy += dx * dy;
      sxx += dx * dx;
      syy += dy * dy;
    }
    // Rounding can carry a perfect correlation a hair past 1.
    return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
  }

  private static boolean constant(double[] x) {
    for (double v : x) {
      if (v != x[0]) {
        return false;
      }
    }
    return true;
  }

  private static String percent(double share) {
    return format("%.1f%%", 100 * share);
  }

  private static String abbreviate(String text, int max) {
    String oneLine = String.valueOf(text).replaceAll("\\s+", " ");
    return oneLine.length() <= max ? oneLine : oneLine.substring(0, max - 3) + "...";
  }

  private static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
