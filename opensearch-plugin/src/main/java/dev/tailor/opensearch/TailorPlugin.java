package dev.tailor.opensearch;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.opensearch.action.ActionRequest;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.node.DiscoveryNodes;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.settings.ClusterSettings;
import org.opensearch.common.settings.IndexScopedSettings;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.settings.SettingsFilter;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.NamedWriteableRegistry;
import org.opensearch.core.xcontent.NamedXContentRegistry;
import org.opensearch.env.Environment;
import org.opensearch.env.NodeEnvironment;
import org.opensearch.index.IndexModule;
import org.opensearch.index.IndexSettings;
import org.opensearch.plugins.ActionPlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.plugins.SearchPlugin;
import org.opensearch.repositories.RepositoriesService;
import org.opensearch.rest.RestController;
import org.opensearch.rest.RestHandler;
import org.opensearch.rest.RestHeaderDefinition;
import org.opensearch.script.ScriptService;
import org.opensearch.search.deciders.ConcurrentSearchRequestDecider;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.client.Client;
import org.opensearch.watcher.ResourceWatcherService;

/**
 * Tailor for OpenSearch: the node's index-searcher executor becomes a Tailor {@code Scheduler}, so
 * that a policy decides, per shard query phase and as it runs, how many threads search its slices.
 *
 * <p>How: a {@code SearchOperationListener} added to every index opens a Tailor request when a
 * query phase starts and ends it when the phase ends, on the phase's own thread; the executor
 * returned by {@link #getIndexSearcherExecutorProvider()} hands the slice runnables Lucene's {@code
 * TaskExecutor} forks to that request, and the policy's degree decides how many run on helper
 * threads while the phase's own thread runs the rest. The executor is used only where concurrent
 * segment search is on for a request: under {@code search.concurrent_segment_search.mode: all}
 * every request, under mode {@code auto} (OpenSearch's default) those Tailor's decider sends
 * concurrent ({@link NodeDecider}); set a {@code search.concurrent.max_slice_count} too.
 *
 * <p>Settings, all dynamic: {@code tailor.enabled}, {@code tailor.policy}, {@code
 * tailor.decider.enabled}, {@code tailor.decider.min_cost}, {@code tailor.workers} and {@code
 * tailor.queue_capacity}. Stats: {@code GET /_tailor/stats}.
 */
public final class TailorPlugin extends Plugin implements SearchPlugin, ActionPlugin {

  private final Settings settings;
  private volatile TailorNode node;

  /** Made by OpenSearch with the node's settings. */
  public TailorPlugin(Settings settings) {
    this.settings = settings;
  }

  @Override
  public List<Setting<?>> getSettings() {
    return TailorSettings.all();
  }

  @Override
  public Collection<Object> createComponents(
      Client client,
      ClusterService clusterService,
      ThreadPool threadPool,
      ResourceWatcherService resourceWatcherService,
      ScriptService scriptService,
      NamedXContentRegistry xContentRegistry,
      Environment environment,
      NodeEnvironment nodeEnvironment,
      NamedWriteableRegistry namedWriteableRegistry,
      IndexNameExpressionResolver indexNameExpressionResolver,
      Supplier<RepositoriesService> repositoriesServiceSupplier) {
    node = new TailorNode(settings, clusterService.getClusterSettings(), threadPool);
    return List.of(node);
  }

  @Override
  public Optional<ExecutorServiceProvider> getIndexSearcherExecutorProvider() {
    return Optional.of(threadPool -> requireNode().executor());
  }

  /**
   * Tailor's decider for mode {@code auto}: per shard request, concurrent through the scheduler or
   * sequential, from the query's measured cost and the node's load ({@link NodeDecider}).
   */
  @Override
  public Optional<ConcurrentSearchRequestDecider.Factory>
      getConcurrentSearchRequestDeciderFactory() {
    return Optional.of(
        new ConcurrentSearchRequestDecider.Factory() {
          @Override
          public Optional<ConcurrentSearchRequestDecider> create(IndexSettings indexSettings) {
            return requireNode().decider().create(indexSettings);
          }
        });
  }

  @Override
  public void onIndexModule(IndexModule indexModule) {
    indexModule.addSearchOperationListener(requireNode().listener());
  }

  @Override
  public List<ActionHandler<? extends ActionRequest, ? extends ActionResponse>> getActions() {
    return List.of(
        new ActionHandler<>(TailorStatsAction.INSTANCE, TransportTailorStatsAction.class));
  }

  /** The priority-class header, carried from the REST request to every shard's query phase. */
  @Override
  public Collection<RestHeaderDefinition> getRestHeaders() {
    return List.of(new RestHeaderDefinition(QueryPhaseListener.CLASS_HEADER, false));
  }

  @Override
  public List<RestHandler> getRestHandlers(
      Settings settings,
      RestController restController,
      ClusterSettings clusterSettings,
      IndexScopedSettings indexScopedSettings,
      SettingsFilter settingsFilter,
      IndexNameExpressionResolver indexNameExpressionResolver,
      Supplier<DiscoveryNodes> nodesInCluster) {
    return List.of(new RestTailorStatsAction());
  }

  private TailorNode requireNode() {
    TailorNode n = node;
    if (n == null) {
      throw new IllegalStateException("the tailor plugin's components have not been created yet");
    }
    return n;
  }

  @Override
  public void close() {
    TailorNode n = node;
    if (n != null) {
      n.close();
    }
  }
}
