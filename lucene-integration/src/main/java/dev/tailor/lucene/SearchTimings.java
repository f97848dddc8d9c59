package dev.tailor.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopScoreDocCollectorManager;

/**
 * Times the same queries on two searchers in the same run, for the benchmarks that compare them:
 * the drop-in against plain Lucene, many units against one, degree 2 against degree 1. Runs of the
 * two alternate, query by query, so that drift in the machine's speed falls on both alike; each
 * time is the median of its repetitions.
 */
public final class SearchTimings {

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

  private SearchTimings() {}

  /** Times every query on both searchers: top 10 by score, as a search service would ask. */
  public static List<Timed> compare(
      IndexSearcher baseline,
      IndexSearcher candidate,
      List<Labelled> queries,
      int warmups,
      int repetitions)
      throws IOException {
    if (repetitions < 1) {
      throw new IllegalArgumentException("repetitions must be >= 1");
    }
    List<Timed> out = new ArrayList<>(queries.size());
    long[] a = new long[repetitions];
    long[] b = new long[repetitions];
    for (Labelled q : queries) {
      for (int w = 0; w < warmups; w++) {
        time(baseline, q.query(), 1);
        time(candidate, q.query(), 1);
      }
      for (int r = 0; r < repetitions; r++) {
        a[r] = time(baseline, q.query(), 1);
        b[r] = time(candidate, q.query(), 1);
      }
      out.add(new Timed(q.category(), median(a), median(b)));
    }
    return out;
  }

  /**
   * The mean time of {@code runs} searches of the query in a row, top 10 by score as a search
   * service would ask; the profiler times its samples the same way.
   */
  static long time(IndexSearcher searcher, Query query, int runs) throws IOException {
    long start = System.nanoTime();
    for (int r = 0; r < runs; r++) {
      searcher.search(query, new TopScoreDocCollectorManager(10, 1000));
    }
    return (System.nanoTime() - start) / runs;
  }

  static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
