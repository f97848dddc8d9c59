package dev.tailor.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Executor;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;
import org.apache.lucene.search.IndexSearcher.LeafSlice;

/**
 * Elasticsearch's intra-query parallelism, for the {@code elasticsearch:N} baseline of {@link
 * LuceneTarget}: how many slices a shard search gets, after Elasticsearch 8.12+'s {@code
 * DefaultSearchContext.determineMaximumNumberOfSlices}, and the slices themselves.
 *
 * <p>The rule: the search pool of N threads runs both the shard searches and their slices. When a
 * search starts on one of its threads it looks at the pool's work queue once: if the queue holds at
 * most N tasks (searches and slices alike), the search may use up to N slices, fanned out on that
 * same pool; beyond that the pool is busy, and the search runs as one slice on its own thread, so
 * that a loaded node spends no threads on fan-out. The decision holds for the whole search.
 *
 * <p>The slices: Lucene's own default grouping of segments ({@link IndexSearcher#slices(List)},
 * whole segments, no intra-segment partitions), then, where that gives more than N, the groups
 * merged into N by putting each, largest first, into the slice with the fewest documents so far.
 * Elasticsearch too groups segments with Lucene's {@code IndexSearcher.slices} helper and caps the
 * count at the maximum the rule gives; the sizes it passes that helper are its own, where this
 * baseline keeps Lucene's defaults, so that {@code elasticsearch:N} and {@code lucene-executor:N}
 * differ only in their pools, the rule and the cap.
 */
final class ElasticsearchSlicing {

  private ElasticsearchSlicing() {}

  /**
   * The slices a search starting now may use: {@code poolThreads} if the pool's queue holds at most
   * that many tasks, else 1.
   *
   * @param queued the tasks waiting in the pool's work queue as the search starts (the search
   *     itself, already taken off it, not among them)
   * @param poolThreads the pool's threads, N
   * @throws IllegalArgumentException if the queue is negative or the pool has no thread
   */
  static int slicesFor(int queued, int poolThreads) {
    if (queued < 0 || poolThreads < 1) {
      throw new IllegalArgumentException(
          "need queued >= 0 and poolThreads >= 1, got " + queued + " and " + poolThreads);
    }
    return queued <= poolThreads ? poolThreads : 1;
  }

  /**
   * {@code slices} merged into at most {@code most}: as they are if there are no more; else each,
   * the largest first (ties in their given order), added to the merged slice with the fewest
   * documents so far (ties to the first), which keeps the merged slices about even.
   *
   * @param slices whole-segment slices, each segment in one of them
   * @throws IllegalArgumentException if {@code most} is below 1
   */
  static LeafSlice[] cap(LeafSlice[] slices, int most) {
    if (most < 1) {
      throw new IllegalArgumentException("need at most >= 1 slice, got " + most);
    }
    if (slices.length <= most) {
      return slices;
    }
    LeafSlice[] bySize = slices.clone();
    // A stable sort: equal slices keep Lucene's order, so the merge is the same on every run.
    Arrays.sort(bySize, Comparator.comparingInt(LeafSlice::getMaxDocs).reversed());
    List<List<LeafReaderContextPartition>> merged = new ArrayList<>();
    long[] docs = new long[most];
    for (int i = 0; i < most; i++) {
      merged.add(new ArrayList<>());
    }
    for (LeafSlice slice : bySize) {
      int lightest = 0;
      for (int i = 1; i < most; i++) {
        if (docs[i] < docs[lightest]) {
          lightest = i;
        }
      }
      merged.get(lightest).addAll(Arrays.asList(slice.partitions));
      docs[lightest] += slice.getMaxDocs();
    }
    return merged.stream().map(LeafSlice::new).toArray(LeafSlice[]::new);
  }

  /**
   * The searcher of a search that got N slices: Lucene's default slices capped at N ({@link #cap}),
   * fanned out on the executor by Lucene's {@code TaskExecutor}.
   *
   * <p>Its executor is the very pool the searches run on, which cannot deadlock: Lucene 10's {@code
   * TaskExecutor.invokeAll} hands the pool one task per slice but the first, each of which takes
   * the next slice no thread has started, and meanwhile runs unstarted slices on the calling thread
   * itself; it waits only for slices another thread has already started, and a task the pool
   * refuses runs on the calling thread. So a search whose slice tasks sit behind other searches in
   * the queue runs its slices alone, and the tasks find nothing left to do.
   */
  static final class Searcher extends IndexSearcher {

    private final int most;

    /**
     * @param executor the pool the searches run on
     * @param most N, the most slices: at least 1
     */
    Searcher(IndexReader reader, Executor executor, int most) {
      super(reader, executor);
      if (most < 1) {
        throw new IllegalArgumentException("need at most >= 1 slice, got " + most);
      }
      this.most = most;
    }

    /** Lucene's default slices, capped at N. Computed once, on the first search. */
    @Override
    protected LeafSlice[] slices(List<LeafReaderContext> leaves) {
      return cap(super.slices(leaves), most);
    }
  }
}
