package dev.tailor.lucene;

import dev.tailor.core.Internal;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;

/**
 * Hears each work unit (slice) a {@link TailorSearcher} searches, with the time it took on the
 * thread that searched it. Called on that thread, right after the unit; keep it quick. The profiler
 * measures demand profiles with it.
 */
@FunctionalInterface
@Internal
public interface UnitListener {

  /**
   * One unit was searched.
   *
   * @param partitions the segment partitions the unit covered
   * @param nanos how long the thread spent on them
   */
  void unitSearched(LeafReaderContextPartition[] partitions, long nanos);
}
