package dev.tailor.opensearch;

import dev.tailor.core.RequestAttributes;
import dev.tailor.core.metrics.RequestRecord;
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
 * {@code none}, mode {@code auto} where the decider said no, a system index, ...) forks nothing and
 * runs sequentially without Tailor, as does one that finds the admission queue full; both are
 * counted as unscheduled, and while they run as part of the node's load ({@link
 * NodeStats#sequentialRunning}). Under mode {@code auto} the decider's verdict ({@link
 * NodeDecider#take}) gives the Tailor request its prediction, and the phase's measured cost goes
 * back to the decider.
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
  private final NodeDecider decider;
  private final NodeStats stats;
  private final ThreadContext threadContext;
  private final ThreadLocal<Open> open = new ThreadLocal<>();

  /**
   * The query phase open on a thread: its Tailor request, or {@code null} if it runs sequentially
   * without Tailor, and the decider's verdict for it, or {@code null} if none decided it.
   */
  record Open(
      SearchContext searchContext, LiveScheduler.Entered entered, NodeDecider.Pending decided) {}

  QueryPhaseListener(
      LiveScheduler live, NodeDecider decider, NodeStats stats, ThreadContext threadContext) {
    this.live = live;
    this.decider = decider;
    this.stats = stats;
    this.threadContext = threadContext;
  }

  /** The query phase running on the calling thread, or {@code null}. */
  Open current() {
    return open.get();
  }

  @Override
  public void onPreQueryPhase(SearchContext searchContext) {
    if (open.get() != null) {
      stats.nested.increment(); // part of the query phase already open on this thread
      return;
    }
    NodeDecider.Pending decided = decider.take(searchContext);
    if (!live.enabled()) {
      stats.bypassed.increment(); // OpenSearch's own search, on its own pool
      return;
    }
    LiveScheduler.Entered entered = null;
    if (searchContext.shouldUseConcurrentSearch()) {
      entered = live.enter(attributes(decided));
    }
    if (entered == null) {
      stats.unscheduled.increment();
      stats.sequentialRunning.incrementAndGet();
    }
    open.set(new Open(searchContext, entered, decided));
  }

  /** The query phase's attributes: the decider's prediction, and the class from the header. */
  private RequestAttributes attributes(NodeDecider.Pending decided) {
    long predicted = decided == null ? QueryCosts.UNKNOWN : decided.verdict().predictedNanos();
    RequestAttributes a =
        predicted == QueryCosts.UNKNOWN
            ? RequestAttributes.NONE
            : RequestAttributes.predicted(predicted);
    String value = threadContext.getHeader(CLASS_HEADER);
    if (value == null) {
      return a;
    }
    PriorityClass c;
    try {
      c = PriorityClass.parse(value.trim(), "header " + CLASS_HEADER);
    } catch (IllegalArgumentException e) {
      stats.unknownClass.increment();
      return a;
    }
    if (c == PriorityClass.BACKGROUND) {
      stats.background.increment();
    }
    return a.withPriority(c);
  }

  @Override
  public void onQueryPhase(SearchContext searchContext, long tookInNanos) {
    end(searchContext, false, tookInNanos);
  }

  @Override
  public void onFailedQueryPhase(SearchContext searchContext) {
    end(searchContext, true, 0);
  }

  private void end(SearchContext searchContext, boolean failed, long tookInNanos) {
    Open o = open.get();
    if (o == null || o.searchContext() != searchContext) {
      return; // not ours: the end of a nested phase
    }
    open.remove(); // first, so that nothing forks into a request that is ending
    RequestRecord record = null;
    if (o.entered() == null) {
      stats.sequentialRunning.decrementAndGet();
    } else {
      record = o.entered().close(failed, shard(searchContext));
    }
    if (o.decided() != null && !failed) {
      // The cost a later run of the same query is predicted by: its busy time across threads.
      decider.measured(o.decided(), record != null ? record.workNanos() : tookInNanos);
    }
  }

  private static String shard(SearchContext searchContext) {
    return searchContext.shardTarget() == null
        ? "[unknown shard]"
        : searchContext.shardTarget().getShardId().toString();
  }
}
