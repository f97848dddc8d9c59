package dev.tailor.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.load.OpenSearchTarget;
import dev.tailor.load.Sweep;
import dev.tailor.measure.PointResult;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A sweep through the cluster: every configuration on the same running nodes, point by point,
 * interleaved as every sweep's are. Where the cluster has Tailor's plugin, the nodes run with it
 * loaded throughout (restarted with it first if it was set aside, and back as found after), and
 * OpenSearch's own configurations switch Tailor off ({@code tailor.enabled}) rather than restart
 * the nodes; every configuration is warmed up the same way before the first point.
 */
final class ClusterSweep {

  /** The order the report states. */
  static final String ORDER =
      Sweep.ORDER
          + "; every configuration on the same running nodes (with Tailor's plugin loaded where the"
          + " cluster has it, OpenSearch's own configurations with tailor.enabled off), each warmed"
          + " up with every query once before the first point";

  /** How long the warm-up waits for a free slot before it calls the cluster unresponsive. */
  static final Duration WARM_UP_PATIENCE = Duration.ofMinutes(2);

  /** Requests in flight while warming up. */
  static final int WARM_UP_IN_FLIGHT = 4;

  /**
   * What every point is labelled with, and who hears it.
   *
   * @param environment where the points were measured
   * @param corpus the searched corpus
   * @param onPoint hears each point as it finishes
   */
  record Labels(String environment, String corpus, Consumer<PointResult> onPoint) {}

  private final Cluster cluster;
  private final RestClient client;
  private final ClusterLoad.Settings settings;
  private final List<String> texts;
  private final Consumer<String> log;

  ClusterSweep(
      Cluster cluster,
      RestClient client,
      ClusterLoad.Settings settings,
      List<String> texts,
      Consumer<String> log) {
    this.cluster = cluster;
    this.client = client;
    this.settings = settings;
    this.texts = texts;
    this.log = log;
  }

  /** Runs every point of {@code plan}, one policy per configuration; the points in their order. */
  List<PointResult> run(List<Configuration> configs, Sweep.Plan plan, Labels labels)
      throws IOException, InterruptedException {
    boolean installed = cluster.layout().plugin();
    boolean enabledAtStart = installed && cluster.pluginEnabled();
    if (installed && !enabledAtStart) {
      restart(true);
    }
    List<String> names = configs.stream().map(Configuration::name).toList();
    for (Configuration c : configs) {
      log.accept(String.format("warming up under %s: every query once", c.name()));
      client.put("/_cluster/settings", c.settings(installed, settings.slices()));
      try (OpenSearchTarget target = target(c.name())) {
        warmUp(target, texts.size());
      }
    }
    List<PointResult> points =
        Sweep.run(
            plan.withPolicies(names),
            name -> {
              Configuration c = configs.get(names.indexOf(name));
              client.put("/_cluster/settings", c.settings(installed, settings.slices()));
              return target(name);
            },
            texts.size(),
            labels.environment(),
            labels.corpus(),
            labels.onPoint());
    if (installed) {
      logStats();
    }
    client.put("/_cluster/settings", Configuration.reset(installed));
    if (installed && !enabledAtStart) {
      restart(false); // back as it was found
    }
    // The report's columns in the order of the configurations.
    points = new ArrayList<>(points);
    points.sort(Comparator.comparingInt(p -> names.indexOf(p.policy())));
    return points;
  }

  private OpenSearchTarget target(String policy) throws IOException {
    return new OpenSearchTarget(
        cluster.layout().httpAddresses(), settings.index(), IndexLoader.FIELD, texts, policy);
  }

  /**
   * Sends every query once, {@value #WARM_UP_IN_FLIGHT} at a time, nothing recorded: nodes just
   * started (or restarted for this part) have compiled nothing and cached nothing, and the sweep's
   * own warm-up, a tenth of its first point, is too short for that.
   */
  static void warmUp(OpenSearchTarget target, int queries)
      throws IOException, InterruptedException {
    Semaphore inFlight = new Semaphore(WARM_UP_IN_FLIGHT);
    for (int q = 0; q <= queries; q++) {
      int permits = q < queries ? 1 : WARM_UP_IN_FLIGHT; // at the end: every answer in
      if (!inFlight.tryAcquire(permits, WARM_UP_PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
        throw new IOException(
            "warming up: no answer from the cluster within " + WARM_UP_PATIENCE.toSeconds() + " s");
      }
      if (q < queries) {
        target.send(q).whenComplete((r, e) -> inFlight.release()); // failures warm up too
      }
    }
  }

  /**
   * Logs what Tailor's plugin reports of each node ({@code GET /_tailor/stats}): its policy,
   * requests, units forked and run on helpers, degrees.
   */
  private void logStats() {
    try {
      for (JsonNode n : client.get("/_tailor/stats").path("nodes")) {
        log.accept(
            String.format(
                "Tailor's plugin on %s: policy %s, %s requests completed (%s failed), %s units"
                    + " forked (%s on helpers), degrees %s, threads %s, decider %s",
                n.path("name").asText(),
                n.path("policy").asText(),
                n.path("requests").path("completed").asText(),
                n.path("requests").path("failed").asText(),
                n.path("units").path("forked").asText(),
                n.path("units").path("on_helpers").asText(),
                n.path("degree"),
                n.path("threads"),
                n.path("decider").path("by_reason")));
      }
    } catch (IOException e) {
      log.accept("Tailor's plugin: no stats (" + e.getMessage() + ")");
    }
  }

  private void restart(boolean withPlugin) throws IOException {
    log.accept("restarting the nodes " + (withPlugin ? "with" : "without") + " Tailor's plugin");
    client.put("/_cluster/settings", Configuration.reset(cluster.pluginEnabled()));
    cluster.stop(Duration.ofSeconds(60)).forEach(log);
    cluster.setPluginEnabled(withPlugin);
    cluster.start(settings.restartTimeout());
  }
}
