package dev.tailor.lucene;

import dev.tailor.core.Internal;
import dev.tailor.core.Scheduler;
import org.apache.lucene.index.IndexReader;

/**
 * The {@link TailorSearcher}s that Tailor's own tools build: with windows cut by a chosen {@link
 * Windowing} rather than the default for the scheduler's budget, and with a {@link UnitListener}
 * that hears every window searched. The profiler measures demand profiles with them, the benchmarks
 * and the load client compare slicings, the server reports its searcher's slicing. An application
 * builds its searcher with {@link TailorSearcher#TailorSearcher(IndexReader, Scheduler)}; these
 * stay out of that API so that the slicing and the unit hook can change with the search loop.
 */
@Internal
public final class TailorSearchers {

  private TailorSearchers() {}

  /** A searcher over {@code reader} in {@code scheduler} whose windows {@code slicing} cuts. */
  public static TailorSearcher create(IndexReader reader, Scheduler scheduler, Windowing slicing) {
    return new TailorSearcher(reader, scheduler, slicing, null);
  }

  /**
   * A searcher over {@code reader} in {@code scheduler} whose windows {@code slicing} cuts and that
   * reports every window it searches to {@code listener}, on the thread that searched it.
   */
  public static TailorSearcher create(
      IndexReader reader, Scheduler scheduler, Windowing slicing, UnitListener listener) {
    return new TailorSearcher(reader, scheduler, slicing, listener);
  }

  /** How {@code searcher} cuts a query into windows. */
  public static Windowing slicing(TailorSearcher searcher) {
    return searcher.slicing();
  }
}
