package dev.tailor.opensearch;

import java.io.IOException;
import java.util.List;
import org.opensearch.action.FailedNodeException;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.nodes.TransportNodesAction;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;

/**
 * Answers {@link TailorStatsAction} on every node it names, from that node's {@link TailorNode}.
 */
public final class TransportTailorStatsAction
    extends TransportNodesAction<
        TailorStatsAction.Request,
        TailorStatsAction.Response,
        TailorStatsAction.NodeRequest,
        TailorStatsAction.NodeResponse> {

  private final TailorNode node;

  /** Made by OpenSearch's injector, with the node's {@link TailorNode} component. */
  @Inject
  public TransportTailorStatsAction(
      ThreadPool threadPool,
      ClusterService clusterService,
      TransportService transportService,
      ActionFilters actionFilters,
      TailorNode node) {
    super(
        TailorStatsAction.NAME,
        threadPool,
        clusterService,
        transportService,
        actionFilters,
        TailorStatsAction.Request::new,
        TailorStatsAction.NodeRequest::new,
        ThreadPool.Names.MANAGEMENT,
        TailorStatsAction.NodeResponse.class);
    this.node = node;
  }

  @Override
  protected TailorStatsAction.Response newResponse(
      TailorStatsAction.Request request,
      List<TailorStatsAction.NodeResponse> responses,
      List<FailedNodeException> failures) {
    return new TailorStatsAction.Response(clusterService.getClusterName(), responses, failures);
  }

  @Override
  protected TailorStatsAction.NodeRequest newNodeRequest(TailorStatsAction.Request request) {
    return new TailorStatsAction.NodeRequest();
  }

  @Override
  protected TailorStatsAction.NodeResponse newNodeResponse(StreamInput in) throws IOException {
    return new TailorStatsAction.NodeResponse(in);
  }

  @Override
  protected TailorStatsAction.NodeResponse nodeOperation(TailorStatsAction.NodeRequest request) {
    return new TailorStatsAction.NodeResponse(clusterService.localNode(), node.snapshot());
  }
}
