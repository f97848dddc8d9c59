package dev.tailor.lucene;

import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;
import org.apache.lucene.search.IndexSearcher.LeafSlice;

/**
 * How a query's work is cut into units (Lucene slices). Incremental parallelism needs several times
 * more units than the highest degree, or a thread that joins late finds nothing left to claim;
 * Lucene's default (whole segments, 250,000 documents and 5 segments per slice) gives far fewer on
 * most indexes. This cuts large segments into intra-segment partitions (Lucene 10's {@link
 * LeafReaderContextPartition}) and groups small segments, so that every unit holds about the same
 * number of documents.
 *
 * <p>The cut is deterministic: the same leaves always give the same slices. Partitions cost
 * something for queries that repeat per-segment work in each partition (Lucene issue #13745);
 * {@code ./tailor bench slicing} measures it.
 */
public final class Slicing {

  /** Cuts inside a segment fall on multiples of this many documents, for large units. */
  static final int ALIGNMENT = 4096;

  private final int unitsPerQuery;
  private final int docsPerUnit;

  private Slicing(int unitsPerQuery, int docsPerUnit) {
    this.unitsPerQuery = unitsPerQuery;
    this.docsPerUnit = docsPerUnit;
  }

  /**
   * About {@code units} units per query, whatever the index's size.
   *
   * @throws IllegalArgumentException if {@code units < 1}
   */
  public static Slicing unitsPerQuery(int units) {
    if (units < 1) {
      throw new IllegalArgumentException("units per query must be >= 1, got " + units);
    }
    return new Slicing(units, 0);
  }

  /**
   * Units of about {@code docs} documents each.
   *
   * @throws IllegalArgumentException if {@code docs < 1}
   */
  public static Slicing docsPerUnit(int docs) {
    if (docs < 1) {
      throw new IllegalArgumentException("docs per unit must be >= 1, got " + docs);
    }
    return new Slicing(0, docs);
  }

  /** One unit per query: the whole index on one thread, the baseline for measuring slicing. */
  public static Slicing single() {
    return unitsPerQuery(1);
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
    if (target < 8L * ALIGNMENT) {
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
