package dev.tailor.opensearch;

import java.util.Optional;
import org.opensearch.common.settings.ClusterSettings;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.index.IndexSettings;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.search.deciders.ConcurrentSearchRequestDecider;
import org.opensearch.search.internal.SearchContext;

/**
 * Tailor's part in OpenSearch's concurrent search mode {@code auto}: the node-wide half of the
 * decider, which OpenSearch asks for a {@link TailorDecider} per shard request. It owns what the
 * per-request deciders share: the settings, the measured costs of past queries ({@link
 * QueryCosts}), the node's load, and the hand-off of each verdict to the query phase that follows
 * it on the same thread ({@link #take}), which carries the prediction into the Tailor request and
 * records the phase's cost afterwards.
 *
 * <p>OpenSearch decides a shard request's concurrency while it parses the request ({@code
 * DefaultSearchContext.evaluateRequestShouldUseConcurrentSearch}), on the search thread that then
 * runs its query phase; the verdict waits in a thread-local until that phase starts, and is matched
 * to it by the identity of the request's query.
 *
 * <p>It never changes what decides inside the scheduler. A verdict is per shard request and
 * OpenSearch's: whether its query phase searches concurrently, through the scheduler, or
 * sequentially, beside it. A concurrent one enters the node's one scheduler carrying its prediction
 * as the request's {@link dev.tailor.core.RequestAttributes#predictedSequentialNanos()}, as a
 * {@link dev.tailor.core.Predictor}'s answer is attached, and the current policy decides its
 * admission and degree; the policy itself changes only with {@code tailor.policy} ({@link
 * LiveScheduler#swap}). The decider reads the node's load ({@link NodeLoad}) from the same
 * scheduler.
 */
final class NodeDecider implements ConcurrentSearchRequestDecider.Factory {

  private final LiveScheduler live;
  private final NodeStats stats;
  private final QueryCosts costs = new QueryCosts();
  private final ThreadLocal<Pending> pending = new ThreadLocal<>();
  private volatile boolean enabled;
  private volatile long minCostNanos;

  /** A verdict waiting for its query phase. */
  record Pending(QueryBuilder query, int key, Verdict verdict) {}

  NodeDecider(Settings settings, LiveScheduler live, NodeStats stats) {
    this.live = live;
    this.stats = stats;
    this.enabled = TailorSettings.DECIDER_ENABLED.get(settings);
    this.minCostNanos = TailorSettings.DECIDER_MIN_COST.get(settings).nanos();
  }

  /** Follows the dynamic settings. */
  void watch(ClusterSettings clusterSettings) {
    clusterSettings.addSettingsUpdateConsumer(TailorSettings.DECIDER_ENABLED, v -> enabled = v);
    clusterSettings.addSettingsUpdateConsumer(
        TailorSettings.DECIDER_MIN_COST, (TimeValue v) -> minCostNanos = v.nanos());
  }

  /** A decider for one shard request, or none while {@code tailor.decider.enabled} is off. */
  @Override
  public Optional<ConcurrentSearchRequestDecider> create(IndexSettings indexSettings) {
    if (!enabled || !live.enabled()) {
      return Optional.empty();
    }
    return Optional.of(new TailorDecider(this, indexSettings.getIndex().getName()));
  }

  /**
   * Decides the request whose query is {@code query} on index {@code index}, on the thread that
   * will run its query phase, and leaves the verdict for that phase.
   */
  Verdict decide(String index, QueryBuilder query) {
    int key = QueryCosts.key(index, query);
    long minCost = minCostNanos;
    NodeLoad load = live.load();
    Verdict v =
        Verdict.decide(
            costs.predictNanos(key),
            minCost,
            load.workers(),
            load.busyThreads(),
            load.queuedRequests());
    pending.set(new Pending(query, key, v));
    stats.decided(v, index, minCost);
    return v;
  }

  /**
   * The verdict left for the query phase of {@code searchContext}, taken; {@code null} if none was
   * left for it (mode {@code all} or {@code none}, the decider off, or a verdict for another
   * request that never reached its query phase, which is dropped).
   */
  Pending take(SearchContext searchContext) {
    Pending p = pending.get();
    if (p == null) {
      return null;
    }
    pending.remove();
    QueryBuilder query =
        searchContext.request() == null || searchContext.request().source() == null
            ? null
            : searchContext.request().source().query();
    return p.query() == query ? p : null;
  }

  /** Drops the calling thread's waiting verdict, if any. */
  void clearPending() {
    pending.remove();
  }

  /**
   * The cost {@code query} on {@code index} is predicted at now, or {@link QueryCosts#UNKNOWN}
   * where none was recorded; nothing is decided.
   */
  long predictNanos(String index, QueryBuilder query) {
    return costs.predictNanos(QueryCosts.key(index, query));
  }

  /** Records what a decided query phase cost: its busy time across threads. */
  void measured(Pending p, long costNanos) {
    costs.record(p.key(), costNanos);
  }

  boolean enabled() {
    return enabled;
  }

  long minCostNanos() {
    return minCostNanos;
  }
}
