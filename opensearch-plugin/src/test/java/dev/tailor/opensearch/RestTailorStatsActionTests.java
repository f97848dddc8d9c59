package dev.tailor.opensearch;

import java.util.List;
import java.util.Map;
import org.opensearch.Version;
import org.opensearch.cluster.ClusterName;
import org.opensearch.cluster.node.DiscoveryNode;
import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.util.concurrent.ThreadContext;
import org.opensearch.common.xcontent.XContentHelper;
import org.opensearch.common.xcontent.json.JsonXContent;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.rest.RestRequest;
import org.opensearch.test.rest.FakeRestChannel;
import org.opensearch.test.rest.FakeRestRequest;
import org.opensearch.test.rest.RestActionTestCase;

/**
 * {@code GET /_tailor/stats[/NODES]}: the node filter reaches the action, and the answer has the
 * shape clients read ({@code nodes.ID.policy}, ...), after a trip through the transport format.
 */
public class RestTailorStatsActionTests extends RestActionTestCase {

  public void testAllNodes() throws Exception {
    assertAnswered("/_tailor/stats");
  }

  public void testTheLocalNode() throws Exception {
    assertAnswered("/_tailor/stats/_local");
  }

  public void testNamedNodes() throws Exception {
    assertAnswered("/_tailor/stats/a,b");
  }

  /** One request per test: the test controller's thread context takes one. */
  private void assertAnswered(String path) throws Exception {
    controller().registerHandler(new RestTailorStatsAction());
    DiscoveryNode node =
        new DiscoveryNode("node-a", buildNewFakeTransportAddress(), Version.CURRENT);
    NodeStats stats = new NodeStats();
    stats.unitsOnHelpers.add(3);
    Map<String, Object> snapshot = stats.snapshot("fixed:2", null, 4, 1000);
    String[] expectedIds = path.endsWith("stats") ? new String[0] : path.substring(15).split(",");
    verifyingClient.setExecuteVerifier(
        (action, request) -> {
          assertSame(TailorStatsAction.INSTANCE, action);
          assertArrayEquals(expectedIds, ((TailorStatsAction.Request) request).nodesIds());
          return overTheWire(
              new TailorStatsAction.Response(
                  new ClusterName("c"),
                  List.of(new TailorStatsAction.NodeResponse(node, snapshot)),
                  List.of()));
        });
    RestRequest request =
        new FakeRestRequest.Builder(xContentRegistry())
            .withMethod(RestRequest.Method.GET)
            .withPath(path)
            .build();
    FakeRestChannel channel = new FakeRestChannel(request, true, 1);
    controller().dispatchRequest(request, channel, new ThreadContext(Settings.EMPTY));
    String content = channel.capturedResponse().content().utf8ToString();
    assertEquals(path + ": " + content, RestStatus.OK, channel.capturedResponse().status());
    Map<String, Object> body =
        XContentHelper.convertToMap(JsonXContent.jsonXContent, content, false);
    Map<?, ?> nodeStats = (Map<?, ?>) ((Map<?, ?>) body.get("nodes")).get("node-a");
    assertEquals("fixed:2", nodeStats.get("policy"));
    assertEquals(4, nodeStats.get("workers"));
    assertEquals(3, ((Map<?, ?>) nodeStats.get("units")).get("on_helpers"));
    assertEquals("c", body.get("cluster_name"));
  }

  private static TailorStatsAction.Response overTheWire(TailorStatsAction.Response response) {
    try (BytesStreamOutput out = new BytesStreamOutput()) {
      response.writeTo(out);
      return new TailorStatsAction.Response(out.bytes().streamInput());
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }
}
