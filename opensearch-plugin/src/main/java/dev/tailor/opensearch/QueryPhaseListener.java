package dev.tailor.opensearch;

import dev.tailor.core.RequestAttributes;
import dev.tailor.core.policy.PriorityClass;
import org.opensearch.common.util.concurrent.ThreadContext;
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
 *
 * <p>The request's priority class comes from the search request's {@value #CLASS_HEADER} header
 * ({@code interactive}, the default, or {@code background}), which the plugin registers so that
 * OpenSearch carries it from the REST request to every shard's query phase. A value that names no
 * class is counted ({@code unknown_class}) and the request runs as interactive: a search is never
 * failed for it.
 */
final class QueryPhaseListener implements SearchOperationListener {

  /** The HTTP header that gives a search's priority class. */
  static final String CLASS_HEADER = "X-Tailor-Class";

  private final LiveScheduler live;
  private final NodeStats stats;
  private final ThreadContext threadContext;
  private final ThreadLocal<Open> open = new ThreadLocal<>();

  /** The query phase open on a thread and its request. */
  record Open(SearchContext searchContext, LiveScheduler.Entered entered) {}

  QueryPhaseListener(LiveScheduler live, NodeStats stats, ThreadContext threadContext) {
    this.live = live;
    this.stats = stats;
    this.threadContext = threadContext;
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
    LiveScheduler.Entered entered = live.enter(attributes());
    if (entered == null) {
      stats.unscheduled.increment();
      return;
    }
    open.set(new Open(searchContext, entered));
  }

  /** The query phase's attributes: its priority class, from the header. */
  private RequestAttributes attributes() {
    String value = threadContext.getHeader(CLASS_HEADER);
    if (value == null) {
      return RequestAttributes.NONE;
    }
    PriorityClass c;
    try {
      c = PriorityClass.parse(value.trim(), "header " + CLASS_HEADER);
    } catch (IllegalArgumentException e) {
      stats.unknownClass.increment();
      return RequestAttributes.NONE;
    }
    if (c == PriorityClass.BACKGROUND) {
      stats.background.increment();
    }
    return RequestAttributes.NONE.withPriority(c);
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
