package dev.tailor.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.core.policy.PolicyRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * What decides how a search uses the cluster's threads, for one column of a sweep: {@value #SEQ}
 * (OpenSearch's concurrent segment search off: each shard request on one thread), {@value
 * #OPENSEARCH} (OpenSearch's own concurrent search, mode {@code all}, at its default slice count,
 * on its own {@code index_searcher} pool: the nodes run without Tailor's plugin), or a Tailor
 * policy specification (mode {@code all}, Tailor's plugin's executor deciding under {@code
 * tailor.policy}).
 *
 * @param name the name reports give it: {@code seq}, {@code opensearch} or the policy's spec
 * @param needsPlugin whether the nodes must run with Tailor's plugin
 */
record Configuration(String name, boolean needsPlugin) {

  /** Concurrent segment search off. */
  static final String SEQ = "seq";

  /** OpenSearch's own concurrent segment search, as it ships. */
  static final String OPENSEARCH = "opensearch";

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The configurations a sweep runs: {@value #SEQ} and {@value #OPENSEARCH} always, then every
   * other policy of {@code policies} (a comma-separated list, as {@code --policies} takes it), each
   * once, in the order given.
   *
   * @throws IllegalArgumentException if a policy is unknown or malformed, saying what is expected
   */
  static List<Configuration> parse(String policies) {
    List<Configuration> out = new ArrayList<>();
    out.add(of(SEQ));
    out.add(of(OPENSEARCH));
    for (String spec : PolicyRegistry.standard().split(policies)) {
      if (out.stream().noneMatch(c -> c.name().equals(spec))) {
        PolicyRegistry.standard().splitList(spec); // fails now, naming what was expected
        out.add(of(spec));
      }
    }
    return out;
  }

  /** The configuration a report column names: {@value #SEQ}, {@value #OPENSEARCH} or a policy. */
  static Configuration of(String name) {
    return new Configuration(name, !name.equals(SEQ) && !name.equals(OPENSEARCH));
  }

  /**
   * The persistent cluster settings this configuration runs under: the concurrent search mode, and
   * where the plugin is loaded ({@code pluginLoaded}) Tailor's policy (for {@value #SEQ} left as it
   * is: with concurrency off no search reaches the executor) and the slice count.
   *
   * @param slices the slice count for Tailor's policies ({@code
   *     search.concurrent.max_slice_count}), or 0 for OpenSearch's default
   */
  ObjectNode settings(boolean pluginLoaded, int slices) {
    if (needsPlugin && !pluginLoaded) {
      throw new IllegalStateException(name + " needs Tailor's plugin, which is not loaded");
    }
    ObjectNode body = JSON.createObjectNode();
    ObjectNode persistent = body.putObject("persistent");
    persistent.put("search.concurrent_segment_search.mode", name.equals(SEQ) ? "none" : "all");
    if (needsPlugin) {
      persistent.put("tailor.policy", name);
      if (slices > 0) {
        persistent.put("search.concurrent.max_slice_count", slices);
      } else {
        persistent.putNull("search.concurrent.max_slice_count");
      }
    } else if (!name.equals(SEQ)) {
      persistent.putNull("search.concurrent.max_slice_count");
    }
    return body;
  }

  /**
   * The settings that undo every configuration's: mode back to the node's, slice count to the
   * default, and Tailor's policy to the plugin's default where the plugin is loaded. Applied before
   * the plugin is set aside, so that no node starts with a setting it does not know.
   */
  static ObjectNode reset(boolean pluginLoaded) {
    ObjectNode body = JSON.createObjectNode();
    ObjectNode persistent = body.putObject("persistent");
    persistent.putNull("search.concurrent_segment_search.mode");
    persistent.putNull("search.concurrent.max_slice_count");
    if (pluginLoaded) {
      persistent.putNull("tailor.policy");
    }
    return body;
  }
}
