package dev.tailor.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.auto.AutoPolicy;
import dev.tailor.auto.AutoStatus;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
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
 * ({@code http}), under {@code auto} what it learned and its last rebuild's comparison ({@code
 * auto}), and the application's counters ({@code counters}), read afresh at every request.
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
    RunMetrics metrics = SchedulerInternals.metrics(scheduler);
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
    SystemView load = SchedulerInternals.systemView(scheduler);
    ObjectNode l = out.putObject("load");
    l.put("active", load.activeRequests());
    l.put("queued", load.queuedRequests());
    l.put("busyWorkers", load.busyWorkers());
    l.put("workers", scheduler.workers());
    l.put("budget", scheduler.budget());
    l.put("meanBudget", SchedulerInternals.meanBudget(scheduler));
    l.put("busyThreadsOnLong", load.busyThreadsOnLongRequests());
    l.put("meanBusyWorkers", SchedulerInternals.meanBusyWorkers(scheduler));
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
    if (scheduler.policy() instanceof AutoPolicy auto) {
      out.set("auto", auto(auto.status()));
    }
    if (!counters.isEmpty()) {
      ObjectNode c = out.putObject("counters");
      counters.forEach((name, value) -> c.put(name, value.getAsLong()));
    }
    return out;
  }

  /** What {@code auto} learned: its samples, its rebuilds, and the last one's comparison. */
  private static ObjectNode auto(AutoStatus s) {
    ObjectNode a = JSON.objectNode();
    a.put("live", s.liveSpec());
    a.put("samplesHeld", s.samplesHeld());
    a.put("samplesCapacity", s.samplesCapacity());
    a.put("reservoirBytes", s.reservoirBytes());
    a.put("samplesDropped", s.samplesDropped());
    a.put("probes", s.probes());
    a.put("rebuilds", s.rebuilds());
    a.put("swaps", s.swaps());
    a.put("kept", s.kept());
    a.put("skipped", s.skipped());
    a.put("failures", s.failures());
    if (s.lastFailure() != null) {
      a.put("lastFailure", s.lastFailure());
    }
    a.put("shifts", s.shifts());
    a.put("rollbacks", s.rollbacks());
    if (s.lastRollback() != null) {
      a.put("lastRollback", s.lastRollback());
    }
    a.put("cpuSeconds", s.cpuNanos() / 1e9);
    a.put("cpuShareOfOneCore", s.cpuShare());
    a.put("nextPeriodSeconds", s.nextPeriodNanos() / 1e9);
    AutoStatus.Verdict v = s.last();
    if (v != null) {
      ObjectNode last = a.putObject("lastRebuild");
      last.put("samples", v.samples());
      last.put("rateRps", v.rateRps());
      last.put("medianMicros", v.medianNanos() / 1e3);
      last.put("speedups", v.speedups());
      ObjectNode trials = last.putObject("p99Micros");
      for (AutoStatus.Trial t : v.trials()) {
        trials.put(t.spec(), Double.isInfinite(t.p99Nanos()) ? -1 : t.p99Nanos() / 1e3);
      }
      if (v.chosen() != null) {
        last.put("chosen", v.chosen());
      }
      last.put("swapped", v.swapped());
      last.put("reason", v.reason());
      last.put("cpuSeconds", v.cpuNanos() / 1e9);
    }
    return a;
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
