package dev.tailor.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The configuration files of one node of a local cluster: its {@code opensearch.yml} and the heap
 * settings in {@code config/jvm.options.d}. Written over the distribution's own at every {@code
 * cluster up}, so that a changed option takes effect on a cluster whose homes already exist.
 *
 * <p>Concurrent segment search starts off ({@code none}): each configuration of a sweep sets it
 * through the cluster settings before its points. Disk-based shard allocation is off: a benchmark
 * on a nearly full disk would otherwise leave the replicas unassigned and the cluster yellow.
 */
final class NodeSettings {

  /** The file under {@code config/jvm.options.d} holding the heap settings. */
  static final String JVM_OPTIONS_FILE = "tailor-heap.options";

  private NodeSettings() {}

  /**
   * Node {@code n}'s {@code opensearch.yml}.
   *
   * @param tailorWorkers the plugin's {@code tailor.workers}, or null to leave its default (also
   *     when the plugin is not installed: the node would refuse an unknown setting)
   * @param tailorQueue the plugin's {@code tailor.queue_capacity}, likewise
   */
  static String opensearchYml(
      ClusterLayout layout, int n, Integer tailorWorkers, Integer tailorQueue) {
    if (n < 1 || n > layout.nodes()) {
      throw new IllegalArgumentException("no node " + n + " in a cluster of " + layout.nodes());
    }
    List<String> seeds = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= layout.nodes(); i++) {
      seeds.add("\"127.0.0.1:" + layout.transportPort(i) + "\"");
      names.add("\"" + layout.nodeName(i) + "\"");
    }
    StringBuilder yml = new StringBuilder();
    yml.append("# Written by ./tailor cluster up; rewritten at every start.\n");
    line(yml, "cluster.name", layout.name());
    line(yml, "node.name", layout.nodeName(n));
    line(yml, "network.host", "127.0.0.1");
    line(yml, "http.port", layout.httpPort(n));
    line(yml, "transport.port", layout.transportPort(n));
    line(yml, "discovery.seed_hosts", "[" + String.join(", ", seeds) + "]");
    line(yml, "cluster.initial_cluster_manager_nodes", "[" + String.join(", ", names) + "]");
    line(yml, "search.concurrent_segment_search.mode", "none");
    line(yml, "cluster.routing.allocation.disk.threshold_enabled", "false");
    if (layout.plugin()) {
      if (tailorWorkers != null) {
        line(yml, "tailor.workers", positive("--tailor-workers", tailorWorkers));
      }
      if (tailorQueue != null) {
        line(yml, "tailor.queue_capacity", positive("--tailor-queue", tailorQueue));
      }
    } else if (tailorWorkers != null || tailorQueue != null) {
      throw new IllegalArgumentException(
          "--tailor-workers and --tailor-queue set the plugin's node settings; with --no-plugin"
              + " there is no plugin to read them");
    }
    return yml.toString();
  }

  /** The heap settings: the same initial and maximum size, as OpenSearch recommends. */
  static String jvmOptions(ClusterLayout layout) {
    String heap = layout.heap().toLowerCase(Locale.ROOT);
    return "# Written by ./tailor cluster up.\n-Xms" + heap + "\n-Xmx" + heap + "\n";
  }

  private static int positive(String option, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(option + ": " + value + " (expected at least 1)");
    }
    return value;
  }

  private static void line(StringBuilder yml, String key, Object value) {
    yml.append(key).append(": ").append(value).append('\n');
  }
}
