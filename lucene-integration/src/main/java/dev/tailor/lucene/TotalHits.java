package dev.tailor.lucene;

import dev.tailor.core.Internal;
import java.util.Locale;
import org.apache.lucene.search.TopScoreDocCollectorManager;

/**
 * How far a search counts its total hits, the one setting besides the query that decides how much
 * work a top-k search does: the profiler, the load client and the server all search through {@link
 * #topTen}, so that a profile and the replay it describes run the same search.
 *
 * <p>Up to a threshold (Lucene's default is {@value #LUCENE_DEFAULT}), a disjunction skips the
 * documents that cannot enter the top k once enough hits are counted (block-max WAND, Lucene 8 and
 * later). An exact count ({@link #EXACT}, OpenSearch's {@code track_total_hits: true}) scores every
 * match, as Lucene did before that skipping existed: a query's time then grows with the postings it
 * reads, which is the regime of the Lucene workloads in Few-to-Many (Haque et al., ASPLOS'15,
 * Section 5) and TPC (Jeon et al., ASPLOS'16, Section 6).
 */
@Internal
public final class TotalHits {

  /**
   * Lucene's own threshold for a top-k search, {@code IndexSearcher}'s {@code
   * TOTAL_HITS_THRESHOLD}.
   */
  public static final int LUCENE_DEFAULT = 1000;

  /** The threshold of an exact count: every hit is counted, so every match is scored. */
  public static final int EXACT = Integer.MAX_VALUE;

  private TotalHits() {}

  /** The collectors of a search for the top 10 by score, counting hits up to {@code threshold}. */
  public static TopScoreDocCollectorManager topTen(int threshold) {
    return new TopScoreDocCollectorManager(10, threshold);
  }

  /**
   * Parses a threshold as the command line gives it: {@code exact}, or a whole number of at least
   * 1.
   *
   * @throws IllegalArgumentException naming what was expected
   */
  public static int parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.equals("exact")) {
      return EXACT;
    }
    try {
      int n = Integer.parseInt(t);
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // falls through to the message
    }
    throw new IllegalArgumentException(
        "expected 'exact' or a whole number of hits >= 1 for the total-hits threshold, got '"
            + text
            + "'");
  }

  /** The threshold as {@link #parse} reads it: {@code exact} or the number. */
  public static String format(int threshold) {
    return threshold == EXACT ? "exact" : Integer.toString(threshold);
  }
}
