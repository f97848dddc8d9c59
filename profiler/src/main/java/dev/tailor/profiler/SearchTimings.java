package dev.tailor.profiler;

import dev.tailor.lucene.TotalHits;
import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;

/**
 * Times the same queries on two searchers in the same run, for the benchmarks that compare them:
 * the drop-in against plain Lucene, many units against one, degree 2 against degree 1.
 *
 * <p>The discipline, as the profiler's ({@link InterleavedRounds}) but on two searchers:
 *
 * <ol>
 *   <li>Untimed passes over the whole trace on both searchers until the JIT compiler has settled:
 *       at least the warm-up time, and until a pass's time is within {@value #SETTLED} of the
 *       previous one's (at most {@value #MAX_WARMUP_FACTOR} times the warm-up time). Without them
 *       the first queries are timed while the scoring code is still interpreted or half-compiled,
 *       and a query of tens of microseconds then takes a millisecond on whichever searcher runs
 *       first.
 *   <li>Per query, samples on the two searchers alternate, the one that goes first alternating too,
 *       so that drift in the machine's speed falls on both alike; each time is the median of its
 *       samples.
 *   <li>A sample of a query shorter than {@link #MIN_SAMPLE_NANOS} runs it several times in a row
 *       (at most {@value #MAX_BATCH}) and counts their mean, so that a timer interrupt or a context
 *       switch weighs little against a query of tens of microseconds.
 * </ol>
 */
public final class SearchTimings {

  /** A warm-up pass within this share of the previous one's time has settled. */
  static final double SETTLED = 0.03;

  /** Warm-up stops after this many times the warm-up time even if pass times still move. */
  static final int MAX_WARMUP_FACTOR = 6;

  /** A sample lasts at least this long: short queries run several times in a row. */
  public static final long MIN_SAMPLE_NANOS = 1_000_000;

  /** A sample repeats a short query at most this many times. */
  static final int MAX_BATCH = 64;

  /**
   * A query to time.
   *
   * @param category its category, or null
   * @param query the query
   */
  public record Labelled(String category, Query query) {}

  /**
   * One query's median times on the baseline and the candidate searcher.
   *
   * @param category the query's category, or null
   * @param baselineNanos median time on the baseline
   * @param candidateNanos median time on the candidate
   */
  public record Timed(String category, long baselineNanos, long candidateNanos) {
    /** Candidate over baseline. */
    public double ratio() {
      return (double) candidateNanos / Math.max(1, baselineNanos);
    }
  }

  /**
   * What a warm-up did.
   *
   * @param passes passes over the whole trace on both searchers
   * @param nanos how long they took
   * @param settled whether the last pass's time was within {@value #SETTLED} of the one before
   */
  public record Warmup(int passes, long nanos, boolean settled) {
    @Override
    public String toString() {
      return String.format(
          "%d warm-up passes over the trace on both searchers, %.1f s, %s",
          passes, nanos / 1e9, settled ? "settled" : "still moving at the cap");
    }
  }

  private SearchTimings() {}

  /**
   * Runs the queries on the searchers in untimed passes, at least {@code warmup} long and until a
   * pass's time has settled, or {@value #MAX_WARMUP_FACTOR} times {@code warmup}. A zero warm-up
   * runs one pass.
   */
  public static Warmup warmUp(
      List<IndexSearcher> searchers, List<Labelled> queries, Duration warmup) throws IOException {
    long warmupNanos = warmup.toNanos();
    long start = System.nanoTime();
    long previous = -1;
    int passes = 0;
    while (true) {
      long passStart = System.nanoTime();
      for (Labelled q : queries) {
        for (IndexSearcher s : searchers) {
          time(s, q.query(), 1);
        }
      }
      passes++;
      long now = System.nanoTime();
      long pass = now - passStart;
      boolean settled = previous > 0 && Math.abs(pass - previous) <= SETTLED * previous;
      if ((now - start >= warmupNanos && settled)
          || now - start >= MAX_WARMUP_FACTOR * warmupNanos) {
        return new Warmup(passes, now - start, settled);
      }
      previous = pass;
    }
  }

  /**
   * Warms up on both searchers ({@link #warmUp}), then times every query on both: top 10 by score,
   * as a search service would ask, {@code repetitions} samples each.
   */
  public static Comparison compare(
      IndexSearcher baseline,
      IndexSearcher candidate,
      List<Labelled> queries,
      Duration warmup,
      int repetitions)
      throws IOException {
    if (repetitions < 1) {
      throw new IllegalArgumentException("repetitions must be >= 1");
    }
    Warmup w = warmUp(List.of(baseline, candidate), queries, warmup);
    List<Timed> out = new ArrayList<>(queries.size());
    long[] a = new long[repetitions];
    long[] b = new long[repetitions];
    for (Labelled q : queries) {
      int batch = batch(Math.max(time(baseline, q.query(), 1), time(candidate, q.query(), 1)));
      for (int r = 0; r < repetitions; r++) {
        if (r % 2 == 0) {
          a[r] = time(baseline, q.query(), batch);
          b[r] = time(candidate, q.query(), batch);
        } else {
          b[r] = time(candidate, q.query(), batch);
          a[r] = time(baseline, q.query(), batch);
        }
      }
      out.add(new Timed(q.category(), median(a), median(b)));
    }
    return new Comparison(w, out);
  }

  /**
   * A comparison's warm-up and its per-query times, in trace order.
   *
   * @param warmup what the warm-up did
   * @param timed each query's median times
   */
  public record Comparison(Warmup warmup, List<Timed> timed) {}

  /** How many runs in a row make a sample of a query that takes {@code nanos}. */
  static int batch(long nanos) {
    long t = Math.max(1, nanos);
    return (int) Math.clamp((MIN_SAMPLE_NANOS + t - 1) / t, 1, MAX_BATCH);
  }

  /**
   * The mean time of {@code runs} searches of the query in a row, top 10 by score as a search
   * service would ask; the profiler times its samples the same way.
   */
  static long time(IndexSearcher searcher, Query query, int runs) throws IOException {
    return time(searcher, query, runs, DemandProfile.Settings.DEFAULT_TOTAL_HITS_THRESHOLD);
  }

  /**
   * As {@link #time(IndexSearcher, Query, int)}, counting hits up to {@code totalHitsThreshold}.
   */
  static long time(IndexSearcher searcher, Query query, int runs, int totalHitsThreshold)
      throws IOException {
    long start = System.nanoTime();
    for (int r = 0; r < runs; r++) {
      searcher.search(query, TotalHits.topTen(totalHitsThreshold));
    }
    return (System.nanoTime() - start) / runs;
  }

  static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
