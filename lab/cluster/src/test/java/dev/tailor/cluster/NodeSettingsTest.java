package dev.tailor.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeSettingsTest {

  private static final ClusterLayout TWO =
      new ClusterLayout(
          Path.of("/data/opensearch"), "3.8.0", "tailor", 2, 9200, 9300, "512m", true);

  /** The file's settings, one per line, as OpenSearch's flat YAML keys. */
  private static Map<String, String> settings(String yml) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String line : yml.split("\n")) {
      if (!line.startsWith("#") && !line.isBlank()) {
        int colon = line.indexOf(": ");
        assertTrue(out.put(line.substring(0, colon), line.substring(colon + 2)) == null, line);
      }
    }
    return out;
  }

  @Test
  void eachNodeListensOnLoopbackWithItsOwnPortsAndKnowsEveryOther() {
    Map<String, String> one = settings(NodeSettings.opensearchYml(TWO, 1, null, null));
    Map<String, String> two = settings(NodeSettings.opensearchYml(TWO, 2, null, null));
    assertEquals("tailor", one.get("cluster.name"));
    assertEquals("node-1", one.get("node.name"));
    assertEquals("node-2", two.get("node.name"));
    assertEquals("127.0.0.1", two.get("network.host"));
    assertEquals("9200", one.get("http.port"));
    assertEquals("9201", two.get("http.port"));
    assertEquals("9300", one.get("transport.port"));
    assertEquals("9301", two.get("transport.port"));
    assertEquals("[\"127.0.0.1:9300\", \"127.0.0.1:9301\"]", one.get("discovery.seed_hosts"));
    assertEquals("[\"node-1\", \"node-2\"]", two.get("cluster.initial_cluster_manager_nodes"));
    assertEquals("none", one.get("search.concurrent_segment_search.mode"));
    assertFalse(one.containsKey("tailor.workers"));
  }

  @Test
  void thePluginsNodeSettingsAreWrittenOnlyWhenGivenAndOnlyWithThePlugin() {
    Map<String, String> s = settings(NodeSettings.opensearchYml(TWO, 1, 4, 100));
    assertEquals("4", s.get("tailor.workers"));
    assertEquals("100", s.get("tailor.queue_capacity"));
    IllegalArgumentException noPlugin =
        assertThrows(
            IllegalArgumentException.class,
            () -> NodeSettings.opensearchYml(TWO.withPlugin(false), 1, 4, null));
    assertTrue(noPlugin.getMessage().contains("--no-plugin"), noPlugin.getMessage());
    IllegalArgumentException zero =
        assertThrows(
            IllegalArgumentException.class, () -> NodeSettings.opensearchYml(TWO, 1, 0, null));
    assertTrue(zero.getMessage().contains("--tailor-workers: 0"), zero.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> NodeSettings.opensearchYml(TWO, 3, null, null));
  }

  @Test
  void theHeapIsFixedAtTheGivenSize() {
    assertEquals(
        "# Written by ./tailor cluster up.\n-Xms1g\n-Xmx1g\n",
        NodeSettings.jvmOptions(
            new ClusterLayout(Path.of("/d"), "3.8.0", "t", 1, 9200, 9300, "1G", false)));
  }
}
