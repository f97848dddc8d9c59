package dev.tailor.opensearch;

import static org.opensearch.rest.RestRequest.Method.GET;

import java.util.List;
import org.opensearch.core.common.Strings;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestActions;
import org.opensearch.transport.client.node.NodeClient;

/**
 * {@code GET /_tailor/stats} (every node), {@code GET /_tailor/stats/_local} or {@code GET
 * /_tailor/stats/{nodeId}} (ids, names or other node filters, comma-separated): per node, the
 * policy, the worker budget, requests by outcome, the degree and thread distributions, latency and
 * queueing percentiles in milliseconds, work units forked and run on helpers, and the last requests
 * with the degree each got.
 */
final class RestTailorStatsAction extends BaseRestHandler {

  @Override
  public String getName() {
    return "tailor_stats";
  }

  @Override
  public List<Route> routes() {
    return List.of(new Route(GET, "/_tailor/stats"), new Route(GET, "/_tailor/stats/{nodeId}"));
  }

  @Override
  protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
    String[] nodeIds = Strings.splitStringByCommaToArray(request.param("nodeId"));
    TailorStatsAction.Request stats = new TailorStatsAction.Request(nodeIds);
    stats.timeout(request.param("timeout"));
    return channel ->
        client.execute(
            TailorStatsAction.INSTANCE,
            stats,
            new RestActions.NodesResponseRestListener<>(channel));
  }

  @Override
  public boolean canTripCircuitBreaker() {
    return false;
  }
}
