package dev.tailor.opensearch;

import java.io.Closeable;
import java.util.Map;
import org.opensearch.common.settings.ClusterSettings;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.util.concurrent.OpenSearchExecutors;
import org.opensearch.threadpool.ThreadPool;

/**
 * Everything Tailor keeps on one node: the live scheduler, the decider that sends shard requests to
 * it under mode {@code auto}, the query-phase listener that opens its requests, the executor
 * Lucene's slices go to, and the node's stats. Made once per node, when the plugin's components are
 * created, and closed with the node.
 */
public final class TailorNode implements Closeable {

  private final NodeStats stats = new NodeStats();
  private final LiveScheduler live;
  private final NodeDecider decider;
  private final QueryPhaseListener listener;
  private final TailorExecutor executor;

  TailorNode(Settings settings, ClusterSettings clusterSettings, ThreadPool threadPool) {
    this.live =
        new LiveScheduler(
            TailorSettings.POLICY.get(settings),
            TailorSettings.WORKERS.get(settings),
            TailorSettings.QUEUE_CAPACITY.get(settings),
            OpenSearchExecutors.daemonThreadFactory(settings, "tailor"),
            stats);
    this.decider = new NodeDecider(settings, live, stats);
    this.listener = new QueryPhaseListener(live, decider, stats, threadPool.getThreadContext());
    this.executor =
        new TailorExecutor(
            listener,
            threadPool.getThreadContext(),
            stats,
            live,
            threadPool.executor(ThreadPool.Names.INDEX_SEARCHER));
    live.setEnabled(TailorSettings.ENABLED.get(settings));
    clusterSettings.addSettingsUpdateConsumer(TailorSettings.ENABLED, live::setEnabled);
    clusterSettings.addSettingsUpdateConsumer(TailorSettings.POLICY, live::swap);
    clusterSettings.addSettingsUpdateConsumer(
        TailorSettings.WORKERS, TailorSettings.QUEUE_CAPACITY, live::resize);
    decider.watch(clusterSettings);
  }

  NodeDecider decider() {
    return decider;
  }

  QueryPhaseListener listener() {
    return listener;
  }

  TailorExecutor executor() {
    return executor;
  }

  /** This node's figures, for {@code GET /_tailor/stats}. */
  Map<String, Object> snapshot() {
    Map<String, Object> out =
        stats.snapshot(live.policy(), live.policyError(), live.workers(), live.queueCapacity());
    out.put("enabled", live.enabled());
    NodeLoad load = live.load();
    out.put("active", load.activeRequests());
    out.put("queued", load.queuedRequests());
    out.put("busy_workers", load.busyWorkers());
    out.put("sequential_running", load.sequentialRunning());
    out.put("decider", stats.decider(decider.enabled(), decider.minCostNanos()));
    return out;
  }

  @Override
  public void close() {
    executor.shutdown();
    live.close();
  }
}
