package dev.tailor.load;

import dev.tailor.core.policy.RequestView;
import dev.tailor.lucene.TotalHits;
import dev.tailor.measure.SpeedProbe;
import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;

/**
 * Takes a {@link SpeedProbe} of the machine between runs: the {@value #QUERIES} profiled queries
 * nearest the profile's median and its {@value #QUERIES} longest, each searched twice alone on the
 * calling thread by a plain {@link IndexSearcher} (no executor, the run's hit counting), its faster
 * time kept so that a stall does not count, over its profiled time. It runs while no request is in
 * flight, so it measures the machine and not the policy; it takes about twice the queries' profiled
 * time (on the demo's profile, some 0.3 s a run).
 */
final class SpeedProber {

  /** How many queries each of the probe's two sets holds. */
  static final int QUERIES = 10;

  private final IndexSearcher searcher;
  private final int totalHits;
  private final Query[] shortQueries;
  private final long shortProfiled;
  private final Query[] longQueries;
  private final long longProfiled;

  private SpeedProber(
      IndexReader reader,
      int totalHits,
      List<InProcessTarget.TraceEntry> shortSet,
      List<InProcessTarget.TraceEntry> longSet) {
    this.searcher = new IndexSearcher(reader);
    this.totalHits = totalHits;
    this.shortQueries =
        shortSet.stream().map(InProcessTarget.TraceEntry::query).toArray(Query[]::new);
    this.shortProfiled =
        shortSet.stream().mapToLong(InProcessTarget.TraceEntry::profiledNanos).sum();
    this.longQueries =
        longSet.stream().map(InProcessTarget.TraceEntry::query).toArray(Query[]::new);
    this.longProfiled = longSet.stream().mapToLong(InProcessTarget.TraceEntry::profiledNanos).sum();
  }

  /**
   * A prober of {@code entries}' queries, or null where fewer than twice {@value #QUERIES} of them
   * have a profiled time (a replay without a profile).
   */
  static SpeedProber of(
      IndexReader reader, List<InProcessTarget.TraceEntry> entries, int totalHits) {
    List<InProcessTarget.TraceEntry> profiled =
        entries.stream()
            .filter(e -> e.profiledNanos() != RequestView.UNKNOWN && e.profiledNanos() > 0)
            .sorted(Comparator.comparingLong(InProcessTarget.TraceEntry::profiledNanos))
            .toList();
    int n = profiled.size();
    if (n < 2 * QUERIES) {
      return null;
    }
    int from = Math.min(n / 2 - QUERIES / 2, n - 2 * QUERIES);
    return new SpeedProber(
        reader,
        totalHits,
        profiled.subList(from, from + QUERIES),
        profiled.subList(n - QUERIES, n));
  }

  /** Probes the machine now. */
  SpeedProbe measure() throws IOException {
    return new SpeedProbe(
        QUERIES,
        fastest(shortQueries) / (double) shortProfiled,
        fastest(longQueries) / (double) longProfiled);
  }

  /** The summed time of {@code queries}, each the faster of two searches. */
  private long fastest(Query[] queries) throws IOException {
    long[] best = new long[queries.length];
    Arrays.fill(best, Long.MAX_VALUE);
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < queries.length; i++) {
        long start = System.nanoTime();
        searcher.search(queries[i], TotalHits.topTen(totalHits));
        best[i] = Math.min(best[i], System.nanoTime() - start);
      }
    }
    long sum = 0;
    for (long b : best) {
      sum += b;
    }
    return sum;
  }
}
