package dev.tailor.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.core.policy.PolicyRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * What decides how a search uses the cluster's threads, for one column of a sweep. OpenSearch as it
 * ships, in its three concurrent segment search modes: {@value #SEQ} (mode {@code none}: each shard
 * request on one thread), {@value #OPENSEARCH} (mode {@code all}, at its default slice count) and
 * {@value #OPENSEARCH_AUTO} (mode {@code auto}: OpenSearch's own rule, concurrent for supported
 * aggregations only); on nodes with Tailor's plugin these run with {@code tailor.enabled} off, so
 * that slices go to OpenSearch's own {@code index_searcher} pool. Then Tailor's: a policy
 * specification (mode {@code all}, every shard request through Tailor's scheduler under {@code
 * tailor.policy}), or {@value #DECIDER_PREFIX} and a policy (mode {@code auto}, Tailor's decider
 * choosing per shard request whether it goes through the scheduler).
 *
 * @param name the name reports give it
 * @param mode the concurrent segment search mode it sets
 * @param policy Tailor's policy, or {@code null} for OpenSearch's own configurations
 */
record Configuration(String name, String mode, String policy) {

  /** Concurrent segment search off. */
  static final String SEQ = "seq";

  /** OpenSearch's own concurrent segment search, mode {@code all}. */
  static final String OPENSEARCH = "opensearch";

  /** OpenSearch's own mode {@code auto}, with no decider of Tailor's. */
  static final String OPENSEARCH_AUTO = "opensearch-auto";

  /** What names a Tailor policy run through the decider under mode {@code auto}. */
  static final String DECIDER_PREFIX = "decider:";

  private static final List<String> STOCK = List.of(SEQ, OPENSEARCH, OPENSEARCH_AUTO);

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Whether the nodes must run with Tailor's plugin. */
  boolean needsPlugin() {
    return policy != null;
  }

  /**
   * The configurations a sweep runs: OpenSearch's three always, then every other policy of {@code
   * policies} under mode {@code all}, then every policy of {@code deciderPolicies} through the
   * decider (comma-separated lists, as {@code --policies} and {@code --decider} take them), each
   * once, in the order given.
   *
   * @throws IllegalArgumentException if a policy is unknown or malformed, saying what is expected
   */
  static List<Configuration> parse(String policies, String deciderPolicies) {
    List<Configuration> out = new ArrayList<>();
    for (String stock : STOCK) {
      out.add(of(stock));
    }
    add(out, policies, "");
    add(out, deciderPolicies, DECIDER_PREFIX);
    return out;
  }

  private static void add(List<Configuration> out, String policies, String prefix) {
    if (policies == null || policies.isBlank()) {
      return;
    }
    for (String spec : PolicyRegistry.standard().split(policies)) {
      String name = STOCK.contains(spec) ? spec : prefix + spec;
      if (out.stream().noneMatch(c -> c.name().equals(name))) {
        PolicyRegistry.standard().splitList(spec); // fails now, naming what was expected
        out.add(of(name));
      }
    }
  }

  /** The configuration a report column names. */
  static Configuration of(String name) {
    return switch (name) {
      case SEQ -> new Configuration(name, "none", null);
      case OPENSEARCH -> new Configuration(name, "all", null);
      case OPENSEARCH_AUTO -> new Configuration(name, "auto", null);
      default ->
          name.startsWith(DECIDER_PREFIX)
              ? new Configuration(name, "auto", name.substring(DECIDER_PREFIX.length()))
              : new Configuration(name, "all", name);
    };
  }

  /**
   * The persistent cluster settings this configuration runs under: the concurrent search mode, the
   * slice count, and where the plugin is loaded ({@code pluginLoaded}) whether Tailor schedules,
   * with which policy, and its decider on.
   *
   * @param slices the slice count for Tailor's policies ({@code
   *     search.concurrent.max_slice_count}), or 0 for OpenSearch's default
   * @throws IllegalStateException if Tailor's policy is asked of nodes without the plugin
   */
  ObjectNode settings(boolean pluginLoaded, int slices) {
    if (needsPlugin() && !pluginLoaded) {
      throw new IllegalStateException(name + " needs Tailor's plugin, which is not loaded");
    }
    ObjectNode body = JSON.createObjectNode();
    ObjectNode persistent = body.putObject("persistent");
    persistent.put("search.concurrent_segment_search.mode", mode);
    if (needsPlugin() && slices > 0) {
      persistent.put("search.concurrent.max_slice_count", slices);
    } else {
      persistent.putNull("search.concurrent.max_slice_count");
    }
    if (pluginLoaded) {
      persistent.put("tailor.enabled", needsPlugin());
      if (needsPlugin()) {
        persistent.put("tailor.policy", policy);
        persistent.put("tailor.decider.enabled", true);
      }
    }
    return body;
  }

  /**
   * The settings that undo every configuration's: mode back to the node's, slice count to the
   * default, and Tailor's settings to the plugin's defaults where the plugin is loaded. Applied
   * before the plugin is set aside, so that no node starts with a setting it does not know.
   */
  static ObjectNode reset(boolean pluginLoaded) {
    ObjectNode body = JSON.createObjectNode();
    ObjectNode persistent = body.putObject("persistent");
    persistent.putNull("search.concurrent_segment_search.mode");
    persistent.putNull("search.concurrent.max_slice_count");
    if (pluginLoaded) {
      persistent.putNull("tailor.policy");
      persistent.putNull("tailor.enabled");
      persistent.putNull("tailor.decider.enabled");
    }
    return body;
  }
}
