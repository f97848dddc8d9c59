package dev.tailor.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.core.Scheduler;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.metrics.RunMetrics;
import dev.tailor.core.policy.SystemView;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * The server's {@code GET /stats} page: latency percentiles and its breakdown's (queueing,
 * dispatch, run), the degree distribution per class, the scheduler's load, the server's own counts
 * ({@code http}) and the application's counters ({@code counters}), read afresh at every request.
 */
final class StatsPage {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final Scheduler scheduler;
  private final int httpThreads;
  private final InFlight inFlight;
  private final RequestThreads requestThreads;
  private final ClientDeadlines deadlines;
  private final LabelGroups labels;
  private final Map<String, LongSupplier> counters = new ConcurrentSkipListMap<>();

  StatsPage(
      Scheduler scheduler,
      int httpThreads,
      InFlight inFlight,
      RequestThreads requestThreads,
      ClientDeadlines deadlines,
      LabelGroups labels) {
    this.scheduler = scheduler;
    this.httpThreads = httpThreads;
    this.inFlight = inFlight;
    this.requestThreads = requestThreads;
    this.deadlines = deadlines;
    this.labels = labels;
  }

  /** See {@link SearchServer#addCounter}. */
  void addCounter(String name, LongSupplier value) {
    counters.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
  }

  /** The page as it is now. */
  ObjectNode render() {
    RunMetrics metrics = scheduler.metrics();
    ObjectNode out = JSON.objectNode();
    out.set("latencyMicros", percentiles(metrics.latency()));
    out.set("queueingMicros", percentiles(metrics.queueing()));
    out.set("dispatchMicros", percentiles(metrics.dispatch()));
    out.set("runMicros", percentiles(metrics.run()));
    ObjectNode degrees = out.putObject("degreeDistribution");
    metrics
        .degreeDistribution()
        .forEach(
            (cls, counts) -> {
              ObjectNode c = degrees.putObject(cls);
              for (int d = 0; d < counts.length; d++) {
                if (counts[d] > 0) {
                  c.put(Integer.toString(d), counts[d]);
                }
              }
            });
    SystemView load = scheduler.systemView();
    ObjectNode l = out.putObject("load");
    l.put("active", load.activeRequests());
    l.put("queued", load.queuedRequests());
    l.put("busyWorkers", load.busyWorkers());
    l.put("workers", scheduler.workers());
    l.put("budget", scheduler.budget());
    l.put("meanBudget", scheduler.meanBudget());
    l.put("busyThreadsOnLong", load.busyThreadsOnLongRequests());
    l.put("meanBusyWorkers", scheduler.meanBusyWorkers());
    ObjectNode outcomes = out.putObject("outcomes");
    for (RequestRecord.Outcome o : RequestRecord.Outcome.values()) {
      outcomes.put(o.name().toLowerCase(Locale.ROOT), metrics.count(o));
    }
    ObjectNode h = out.putObject("http");
    h.put("threads", httpThreads);
    h.put("maxInFlight", inFlight.limit());
    h.put("inFlight", inFlight.current());
    h.put("peakInFlight", inFlight.peak());
    h.put("refused", inFlight.refused());
    h.put("waitingConnections", requestThreads.queued());
    h.put("dropped", requestThreads.dropped());
    h.put("clientTimeouts", deadlines.expired());
    h.put("labels", labels.distinct());
    h.put("maxLabels", labels.limit());
    if (!counters.isEmpty()) {
      ObjectNode c = out.putObject("counters");
      counters.forEach((name, value) -> c.put(name, value.getAsLong()));
    }
    return out;
  }

  private static ObjectNode percentiles(Histogram h) {
    ObjectNode out = JSON.objectNode();
    out.put("count", h.getTotalCount());
    if (h.getTotalCount() > 0) {
      out.put("mean", h.getMean() / 1_000);
      for (double p : new double[] {50, 90, 99, 99.9}) {
        out.put(
            "p" + (p == Math.rint(p) ? Integer.toString((int) p) : Double.toString(p)),
            h.getValueAtPercentile(p) / 1_000.0);
      }
      out.put("max", h.getMaxValue() / 1_000.0);
    }
    return out;
  }
}
