package dev.tailor.lucene;

import dev.tailor.core.Internal;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;
import org.apache.lucene.search.IndexSearcher.LeafSlice;

/**
 * How a query's work is cut into windows (Lucene slices): doc-id ranges of the leaves, in index
 * order, that the threads of a search claim one at a time ({@link TailorSearcher}). A search at
 * degree 1 runs every window on one thread with one collector and one scorer per leaf, so windows
 * cost little; they exist so that a thread that joins late still finds work, and so that a degree
 * that falls takes effect at the next window. This cuts large segments into intra-segment
 * partitions (Lucene 10's {@link LeafReaderContextPartition}), at multiples of {@value #ALIGNMENT}
 * documents when windows are large, and groups small segments, so that every window holds about the
 * same number of documents.
 *
 * <p>The cut is deterministic: the same leaves always give the same slices. {@code ./tailor bench
 * search-overhead} measures what windows cost against plain Lucene, {@code ./tailor bench speedup}
 * what a second thread gains with them.
 */
@Internal
public final class Windowing {

  /**
   * The drop-in's windows per query for each thread of the scheduler's budget, unless told
   * otherwise: enough that a helper arriving halfway through a query still finds several windows,
   * few enough that a search at degree 1 barely pays for them ({@code ./tailor bench windows}
   * measures both).
   */
  public static final int DEFAULT_WINDOWS_PER_THREAD = 8;

  /** Cuts inside a segment fall on multiples of this many documents, for large units. */
  static final int ALIGNMENT = 4096;

  private final int unitsPerQuery;
  private final int docsPerUnit;

  private Windowing(int unitsPerQuery, int docsPerUnit) {
    this.unitsPerQuery = unitsPerQuery;
    this.docsPerUnit = docsPerUnit;
  }

  /**
   * About {@code units} units per query, whatever the index's size.
   *
   * @throws IllegalArgumentException if {@code units < 1}
   */
  public static Windowing windowsPerQuery(int units) {
    if (units < 1) {
      throw new IllegalArgumentException("units per query must be >= 1, got " + units);
    }
    return new Windowing(units, 0);
  }

  /**
   * Units of about {@code docs} documents each.
   *
   * @throws IllegalArgumentException if {@code docs < 1}
   */
  public static Windowing docsPerWindow(int docs) {
    if (docs < 1) {
      throw new IllegalArgumentException("docs per unit must be >= 1, got " + docs);
    }
    return new Windowing(0, docs);
  }

  /** The drop-in's default: {@link #DEFAULT_WINDOWS_PER_THREAD} windows per query per thread. */
  public static Windowing forThreads(int threads) {
    return windowsPerQuery(DEFAULT_WINDOWS_PER_THREAD * Math.max(1, threads));
  }

  /** One unit per query: the whole index on one thread, the baseline for measuring slicing. */
  public static Windowing single() {
    return windowsPerQuery(1);
  }

  /** Cuts the leaves of an index into slices. */
  public LeafSlice[] slice(List<LeafReaderContext> leaves) {
    long totalDocs = 0;
    for (LeafReaderContext leaf : leaves) {
      totalDocs += leaf.reader().maxDoc();
    }
    if (totalDocs == 0) {
      return new LeafSlice[0];
    }
    long target =
        docsPerUnit > 0
            ? docsPerUnit
            : Math.max(1, (totalDocs + unitsPerQuery - 1) / unitsPerQuery);
    List<LeafSlice> slices = new ArrayList<>();
    List<LeafReaderContextPartition> group = new ArrayList<>();
    long groupDocs = 0;
    for (LeafReaderContext leaf : leaves) {
      int maxDoc = leaf.reader().maxDoc();
      if (maxDoc == 0) {
        continue;
      }
      if (maxDoc >= target) {
        // A large segment: cut it into partitions of about target documents, one slice each.
        int parts = (int) Math.max(1, Math.round((double) maxDoc / target));
        if (parts == 1) {
          slices.add(
              new LeafSlice(List.of(LeafReaderContextPartition.createForEntireSegment(leaf))));
          continue;
        }
        int from = 0;
        for (int p = 1; p <= parts; p++) {
          int to = p == parts ? maxDoc : aligned((int) ((long) maxDoc * p / parts), target);
          if (to > from) {
            slices.add(
                new LeafSlice(List.of(LeafReaderContextPartition.createFromAndTo(leaf, from, to))));
            from = to;
          }
        }
      } else {
        // A small segment: group it with its neighbours until the group holds target documents.
        group.add(LeafReaderContextPartition.createForEntireSegment(leaf));
        groupDocs += maxDoc;
        if (groupDocs >= target) {
          slices.add(new LeafSlice(group));
          group = new ArrayList<>();
          groupDocs = 0;
        }
      }
    }
    if (!group.isEmpty()) {
      slices.add(new LeafSlice(group));
    }
    return slices.toArray(LeafSlice[]::new);
  }

  /**
   * A cut rounded to a multiple of {@link #ALIGNMENT} documents when units are large enough that it
   * barely changes their size: Lucene's bulk scorers score in windows of such powers of two, and a
   * cut inside one makes a short window on either side.
   */
  private static int aligned(int doc, long target) {
    if (target < 4L * ALIGNMENT) {
      return doc;
    }
    return (int) (Math.round((double) doc / ALIGNMENT) * ALIGNMENT);
  }

  /** One slice per non-empty segment, for the queries that cannot be cut inside one. */
  static LeafSlice[] wholeSegments(List<LeafReaderContext> leaves) {
    List<LeafSlice> slices = new ArrayList<>();
    for (LeafReaderContext leaf : leaves) {
      if (leaf.reader().maxDoc() > 0) {
        slices.add(new LeafSlice(List.of(LeafReaderContextPartition.createForEntireSegment(leaf))));
      }
    }
    return slices.toArray(LeafSlice[]::new);
  }

  @Override
  public String toString() {
    return docsPerUnit > 0 ? docsPerUnit + " docs per unit" : unitsPerQuery + " units per query";
  }
}
