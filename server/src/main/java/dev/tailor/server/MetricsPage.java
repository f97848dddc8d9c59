package dev.tailor.server;

import dev.tailor.auto.AutoPolicy;
import dev.tailor.auto.AutoStatus;
import dev.tailor.core.Scheduler;
import dev.tailor.core.metrics.RequestGroups;
import dev.tailor.micrometer.TailorMetrics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The server's {@code GET /metrics} page: the scheduler's {@link TailorMetrics} in Prometheus' text
 * format, read afresh at every request.
 */
final class MetricsPage {

  /** The content type of Prometheus' text format. */
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  /**
   * @param maxLabels the server's label limit: every label group it can make has series of its own,
   *     and so do the work groups of unlabelled requests (TPC's, unless the scheduler was given
   *     others)
   */
  MetricsPage(Scheduler scheduler, int maxLabels) {
    int workGroups = RequestGroups.tpcDefault().names().size();
    new TailorMetrics(scheduler, maxLabels + workGroups, Tags.empty()).bindTo(registry);
    if (scheduler.policy() instanceof AutoPolicy auto) {
      bindAuto(auto);
    }
  }

  /** {@code auto}'s account as gauges, read at every scrape. */
  private void bindAuto(AutoPolicy auto) {
    Gauge.builder("tailor.auto.samples", auto, a -> a.status().samplesHeld())
        .description("samples auto holds")
        .register(registry);
    Gauge.builder("tailor.auto.reservoir", auto, a -> a.status().reservoirBytes())
        .description("the memory of auto's reservoir")
        .baseUnit("bytes")
        .register(registry);
    Gauge.builder("tailor.auto.probes", auto, a -> a.status().probes())
        .description("requests auto probed at degree 1 or a second degree")
        .register(registry);
    for (String outcome : new String[] {"swapped", "kept", "skipped", "failed"}) {
      Gauge.builder(
              "tailor.auto.rebuilds",
              auto,
              a -> {
                AutoStatus s = a.status();
                return switch (outcome) {
                  case "swapped" -> s.swaps();
                  case "kept" -> s.kept();
                  case "skipped" -> s.skipped();
                  default -> s.failures();
                };
              })
          .description("auto's rebuilds by outcome")
          .tag("outcome", outcome)
          .register(registry);
    }
    Gauge.builder("tailor.auto.rollbacks", auto, a -> a.status().rollbacks())
        .description("swaps auto undid because the new policy served worse")
        .register(registry);
    Gauge.builder("tailor.auto.shifts", auto, a -> a.status().shifts())
        .description("query-mix shifts auto detected")
        .register(registry);
    Gauge.builder("tailor.auto.cpu", auto, a -> a.status().cpuNanos() / 1e9)
        .description("CPU time auto's rebuilds took")
        .baseUnit("seconds")
        .register(registry);
  }

  /** The page as it is now. */
  String render() {
    return registry.scrape();
  }

  void close() {
    registry.close();
  }
}
