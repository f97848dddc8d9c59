package dev.tailor.opensearch;

import org.opensearch.index.shard.SearchOperationListener;
import org.opensearch.search.internal.SearchContext;

/**
 * Opens a Tailor request when a shard's query phase starts and ends it when the phase ends, on the
 * query phase's own thread: {@link #onPreQueryPhase} enters the node's scheduler (waiting for
 * admission) and {@link #onQueryPhase} or {@link #onFailedQueryPhase} closes the request, exactly
 * once, whichever comes. OpenSearch calls the three on the same thread, around the query phase, in
 * a try-with-resources ({@code SearchService.SearchOperationListenerExecutor}), so a failed or
 * cancelled query phase ends its request too. Between them, {@link TailorExecutor} finds the
 * request through {@link #current()} and hands Lucene's slice runnables to it.
 *
 * <p>A query phase that does not search concurrently (concurrent segment search off for it: mode
 * {@code none}, or {@code auto} without aggregations, a system index, ...) forks nothing and runs
 * without Tailor, as does one that finds the admission queue full; both are counted as unscheduled.
 */
final class QueryPhaseListener implements SearchOperationListener {

  private final LiveScheduler live;
  private final NodeStats stats;
  private final ThreadLocal<Open> open = new ThreadLocal<>();

  /** The query phase open on a thread and its request. */
  record Open(SearchContext searchContext, LiveScheduler.Entered entered) {}

  QueryPhaseListener(LiveScheduler live, NodeStats stats) {
    this.live = live;
    this.stats = stats;
  }

  /** The request of the query phase running on the calling thread, or {@code null}. */
  Open current() {
    return open.get();
  }

  @Override
  public void onPreQueryPhase(SearchContext searchContext) {
    if (open.get() != null) {
      stats.nested.increment(); // part of the query phase already open on this thread
      return;
    }
    if (!searchContext.shouldUseConcurrentSearch()) {
      stats.unscheduled.increment();
      return;
    }
    LiveScheduler.Entered entered = live.enter();
    if (entered == null) {
      stats.unscheduled.increment();
      return;
    }
    open.set(new Open(searchContext, entered));
  }

  @Override
  public void onQueryPhase(SearchContext searchContext, long tookInNanos) {
    end(searchContext, false);
  }

  @Override
  public void onFailedQueryPhase(SearchContext searchContext) {
    end(searchContext, true);
  }

  private void end(SearchContext searchContext, boolean failed) {
    Open o = open.get();
    if (o == null || o.searchContext() != searchContext) {
      return; // not ours: unscheduled, or the end of a nested phase
    }
    open.remove(); // first, so that nothing forks into a request that is ending
    o.entered().close(failed, shard(searchContext));
  }

  private static String shard(SearchContext searchContext) {
    return searchContext.shardTarget() == null
        ? "[unknown shard]"
        : searchContext.shardTarget().getShardId().toString();
  }
}
