package dev.tailor.profiler;

import dev.tailor.lucene.UnitListener;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;

/** Collects the time of each unit of the searches at degree 1, by slice, between resets. */
final class UnitTimes implements UnitListener {
  private final Map<LeafReaderContextPartition[], Integer> sliceIndex = new IdentityHashMap<>();
  private long[] times = new long[0];

  void index(IndexSearcher.LeafSlice[] slices) {
    for (int i = 0; i < slices.length; i++) {
      sliceIndex.put(slices[i].partitions, i);
    }
    times = new long[slices.length];
  }

  synchronized void reset() {
    Arrays.fill(times, 0);
  }

  /** The time of each unit since the last reset, divided by {@code runs}. */
  synchronized long[] snapshot(int runs) {
    long[] out = times.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] /= runs;
    }
    return out;
  }

  @Override
  public synchronized void unitSearched(LeafReaderContextPartition[] partitions, long nanos) {
    Integer i = sliceIndex.get(partitions);
    if (i != null) {
      times[i] += nanos;
    }
  }
}
