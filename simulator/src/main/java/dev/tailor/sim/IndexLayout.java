package dev.tailor.sim;

import dev.tailor.measure.UnitWork;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An index's segments, as the plain-Lucene peers of the simulator ({@link PeerSimulator}) slice
 * them: each segment's documents, in the index's leaf order. A profile's unit times cover the
 * index's documents in that order, each unit about the same number of them (the drop-in's windows),
 * so a segment's work in a request is the unit time over its documents, and a slice's the sum of
 * its segments'.
 *
 * <p>The slicing rules are the engines' own, restated here on document counts so that the simulator
 * needs no Lucene: Lucene's default ({@link #luceneSlices}), Elasticsearch's cap of those ({@link
 * #capped}) and OpenSearch's target count ({@link #maxTarget}). Immutable.
 */
public final class IndexLayout {

  /** Lucene's {@code IndexSearcher.MAX_DOCS_PER_SLICE}. */
  static final int MAX_DOCS_PER_SLICE = 250_000;

  /** Lucene's {@code IndexSearcher.MAX_SEGMENTS_PER_SLICE}. */
  static final int MAX_SEGMENTS_PER_SLICE = 5;

  private final long[] segmentDocs;
  private final long totalDocs;

  private IndexLayout(long[] segmentDocs) {
    this.segmentDocs = segmentDocs;
    long sum = 0;
    for (long d : segmentDocs) {
      sum += d;
    }
    this.totalDocs = sum;
  }

  /**
   * The layout of an index whose segments, in leaf order, hold {@code segmentDocs} documents each.
   *
   * @throws IllegalArgumentException if there is no segment or a segment holds no document
   */
  public static IndexLayout of(long... segmentDocs) {
    if (segmentDocs.length == 0) {
      throw new IllegalArgumentException("an index layout needs at least one segment");
    }
    for (int i = 0; i < segmentDocs.length; i++) {
      if (segmentDocs[i] < 1) {
        throw new IllegalArgumentException(
            "segment " + i + " of the layout holds " + segmentDocs[i] + " documents; need >= 1");
      }
    }
    return new IndexLayout(segmentDocs.clone());
  }

  /**
   * Parses {@code D1,D2,...}, the documents of each segment in leaf order.
   *
   * @throws IllegalArgumentException naming the piece that is no positive count
   */
  public static IndexLayout parse(String text) {
    String[] pieces = text.split(",", -1);
    long[] docs = new long[pieces.length];
    for (int i = 0; i < pieces.length; i++) {
      try {
        docs[i] = Long.parseLong(pieces[i].trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "segment " + i + " of '" + text + "' is '" + pieces[i] + "', not a document count");
      }
    }
    return of(docs);
  }

  /** The segments. */
  public int segments() {
    return segmentDocs.length;
  }

  /** The documents of every segment, in leaf order. */
  public long[] segmentDocs() {
    return segmentDocs.clone();
  }

  /** As {@link #parse} reads it. */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder();
    for (long d : segmentDocs) {
      s.append(s.isEmpty() ? "" : ",").append(d);
    }
    return s.toString();
  }

  /**
   * Lucene's default slices ({@code IndexSearcher.slices(leaves, 250_000, 5, false)}), as {@link
   * #luceneSlices(int, int)} cuts them.
   */
  public int[][] luceneSlices() {
    return luceneSlices(MAX_DOCS_PER_SLICE, MAX_SEGMENTS_PER_SLICE);
  }

  /**
   * Lucene's slices ({@code IndexSearcher.slices(leaves, maxDocs, maxSegments, false)}): the
   * segments largest first; one larger than {@code maxDocs} documents is a slice of its own, the
   * others are grouped in that order until a group holds more than {@code maxDocs} documents or
   * {@code maxSegments} segments.
   *
   * @return each slice's segments, by index
   */
  public int[][] luceneSlices(int maxDocs, int maxSegments) {
    List<List<Integer>> slices = new ArrayList<>();
    List<Integer> group = null;
    long docs = 0;
    for (int s : largestFirst()) {
      if (segmentDocs[s] > maxDocs) {
        slices.add(List.of(s));
        continue;
      }
      if (group == null) {
        group = new ArrayList<>();
        slices.add(group); // in the order the groups start, as Lucene lists them
      }
      group.add(s);
      docs += segmentDocs[s];
      if (group.size() >= maxSegments || docs > maxDocs) {
        group = null;
        docs = 0;
      }
    }
    return slices.stream().map(IndexLayout::toArray).toArray(int[][]::new);
  }

  /**
   * Elasticsearch's cap of {@code slices} at {@code most} (as the {@code elasticsearch:N} baseline
   * of a replay cuts them): as they are if there are no more, else each, the largest first, added
   * to the capped slice with the fewest documents so far.
   */
  public int[][] capped(int[][] slices, int most) {
    if (slices.length <= most) {
      return slices;
    }
    Integer[] order = new Integer[slices.length];
    long[] size = new long[slices.length];
    for (int i = 0; i < slices.length; i++) {
      order[i] = i;
      size[i] = docs(slices[i]);
    }
    Arrays.sort(order, (a, b) -> Long.compare(size[b], size[a])); // stable: ties keep their order
    List<List<Integer>> merged = new ArrayList<>();
    long[] held = new long[most];
    for (int i = 0; i < most; i++) {
      merged.add(new ArrayList<>());
    }
    for (int i : order) {
      int lightest = lightest(held);
      for (int s : slices[i]) {
        merged.get(lightest).add(s);
      }
      held[lightest] += size[i];
    }
    return merged.stream().map(IndexLayout::toArray).toArray(int[][]::new);
  }

  /**
   * OpenSearch's slices for a target count ({@code MaxTargetSliceSupplier}): the segments largest
   * first, each to the slice with the fewest documents so far, into at most {@code target} slices
   * (no more than there are segments).
   */
  public int[][] maxTarget(int target) {
    int n = Math.min(target, segmentDocs.length);
    List<List<Integer>> slices = new ArrayList<>();
    long[] held = new long[n];
    for (int i = 0; i < n; i++) {
      slices.add(new ArrayList<>());
    }
    for (int s : largestFirst()) {
      int lightest = lightest(held);
      slices.get(lightest).add(s);
      held[lightest] += segmentDocs[s];
    }
    return slices.stream().map(IndexLayout::toArray).toArray(int[][]::new);
  }

  /**
   * Each segment's share of a request's work under the unit model: the units' times spread over the
   * index's documents in leaf order, each unit over an equal run of them.
   *
   * @return by segment, nanoseconds at degree 1
   */
  double[] segmentWork(UnitWork work) {
    int units = work.units();
    double[] bySegment = new double[segmentDocs.length];
    double docsPerUnit = (double) totalDocs / units;
    int s = 0;
    double segmentStart = 0;
    double segmentEnd = segmentDocs[0];
    for (int u = 0; u < units; u++) {
      double from = u * docsPerUnit;
      double to = (u + 1) * docsPerUnit;
      double perDoc = work.unitNanos(u) / docsPerUnit;
      while (from < to && s < segmentDocs.length) {
        double upTo = Math.min(to, segmentEnd);
        bySegment[s] += (upTo - from) * perDoc;
        from = upTo;
        if (from >= segmentEnd && s + 1 < segmentDocs.length) {
          s++;
          segmentStart = segmentEnd;
          segmentEnd = segmentStart + segmentDocs[s];
        } else if (from >= segmentEnd) {
          break;
        }
      }
    }
    return bySegment;
  }

  private long docs(int[] segments) {
    long d = 0;
    for (int s : segments) {
      d += segmentDocs[s];
    }
    return d;
  }

  private Integer[] largestFirst() {
    Integer[] order = new Integer[segmentDocs.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    // Stable: equal segments keep their leaf order, as Lucene's sort of the leaves does.
    Arrays.sort(order, (a, b) -> Long.compare(segmentDocs[b], segmentDocs[a]));
    return order;
  }

  private static int lightest(long[] held) {
    int lightest = 0;
    for (int i = 1; i < held.length; i++) {
      if (held[i] < held[lightest]) {
        lightest = i;
      }
    }
    return lightest;
  }

  private static int[] toArray(List<Integer> segments) {
    return segments.stream().mapToInt(Integer::intValue).toArray();
  }
}
