package dev.tailor.server;

import dev.tailor.core.Scheduler;
import dev.tailor.core.metrics.RequestGroups;
import dev.tailor.micrometer.TailorMetrics;
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
  }

  /** The page as it is now. */
  String render() {
    return registry.scrape();
  }

  void close() {
    registry.close();
  }
}
