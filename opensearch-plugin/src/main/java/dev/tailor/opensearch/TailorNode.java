package dev.tailor.opensearch;

import java.io.Closeable;
import java.util.Map;
import org.opensearch.common.settings.ClusterSettings;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.util.concurrent.OpenSearchExecutors;
import org.opensearch.threadpool.ThreadPool;

/**
 * Everything Tailor keeps on one node: the live scheduler, the query-phase listener that opens its
 * requests, the executor Lucene's slices go to, and the node's stats. Made once per node, when the
 * plugin's components are created, and closed with the node.
 */
public final class TailorNode implements Closeable {

  private final NodeStats stats = new NodeStats();
  private final LiveScheduler live;
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
    this.listener = new QueryPhaseListener(live, stats, threadPool.getThreadContext());
    this.executor = new TailorExecutor(listener, threadPool.getThreadContext(), stats);
    clusterSettings.addSettingsUpdateConsumer(TailorSettings.POLICY, live::swap);
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
    int[] load = live.load();
    out.put("active", load[0]);
    out.put("queued", load[1]);
    return out;
  }

  @Override
  public void close() {
    executor.shutdown();
    live.close();
  }
}
