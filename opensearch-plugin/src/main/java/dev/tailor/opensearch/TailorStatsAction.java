package dev.tailor.opensearch;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.opensearch.action.ActionType;
import org.opensearch.action.FailedNodeException;
import org.opensearch.action.support.nodes.BaseNodeResponse;
import org.opensearch.action.support.nodes.BaseNodesRequest;
import org.opensearch.action.support.nodes.BaseNodesResponse;
import org.opensearch.cluster.ClusterName;
import org.opensearch.cluster.node.DiscoveryNode;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.ToXContentFragment;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.transport.TransportRequest;

/**
 * Collects {@link NodeStats} from the nodes a request names ({@code _local}, ids, names, or all):
 * the action behind {@code GET /_tailor/stats}. Its messages are nested here.
 */
final class TailorStatsAction extends ActionType<TailorStatsAction.Response> {

  static final String NAME = "cluster:monitor/tailor/stats";
  static final TailorStatsAction INSTANCE = new TailorStatsAction();

  private TailorStatsAction() {
    super(NAME, Response::new);
  }

  /** Which nodes to ask. */
  static final class Request extends BaseNodesRequest<Request> {
    Request(String... nodeIds) {
      super(nodeIds);
    }

    Request(StreamInput in) throws IOException {
      super(in);
    }
  }

  /** The request as each node receives it. */
  static final class NodeRequest extends TransportRequest {
    NodeRequest() {}

    NodeRequest(StreamInput in) throws IOException {
      super(in);
    }
  }

  /** One node's figures, as {@link NodeStats#snapshot} makes them. */
  static final class NodeResponse extends BaseNodeResponse {
    private final Map<String, Object> stats;

    NodeResponse(DiscoveryNode node, Map<String, Object> stats) {
      super(node);
      this.stats = stats;
    }

    @SuppressWarnings("unchecked")
    NodeResponse(StreamInput in) throws IOException {
      super(in);
      this.stats = (Map<String, Object>) in.readGenericValue();
    }

    Map<String, Object> stats() {
      return stats;
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
      super.writeTo(out);
      out.writeGenericValue(stats);
    }
  }

  /** Every node's figures, by node id. */
  static final class Response extends BaseNodesResponse<NodeResponse>
      implements ToXContentFragment {

    Response(ClusterName clusterName, List<NodeResponse> nodes, List<FailedNodeException> failed) {
      super(clusterName, nodes, failed);
    }

    Response(StreamInput in) throws IOException {
      super(in);
    }

    @Override
    protected List<NodeResponse> readNodesFrom(StreamInput in) throws IOException {
      return in.readList(NodeResponse::new);
    }

    @Override
    protected void writeNodesTo(StreamOutput out, List<NodeResponse> nodes) throws IOException {
      out.writeList(nodes);
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
      builder.startObject("nodes");
      for (NodeResponse node : getNodes()) {
        builder.startObject(node.getNode().getId());
        builder.field("name", node.getNode().getName());
        builder.mapContents(node.stats());
        builder.endObject();
      }
      builder.endObject();
      return builder;
    }
  }
}
