package dev.tailor.opensearch;

import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.metrics.RunMetrics;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * What the plugin measured on this node since it started, across policy swaps: query phases by
 * outcome, the degree and thread distributions, latency and queueing histograms (HdrHistogram), the
 * work units forked and those run on helpers, and the last few requests with the degree each got,
 * so that an operator can see why a request ran as it did. Thread-safe.
 */
final class NodeStats {

  /** How many recent requests {@link #snapshot} lists. */
  static final int RECENT = 32;

  private static final long HIGHEST_NANOS = 3_600_000_000_000L;

  final LongAdder completed = new LongAdder();
  final LongAdder failed = new LongAdder();
  final LongAdder cancelled = new LongAdder();

  /** Query phases that ran without Tailor: not concurrent, queue full, or no scheduler. */
  final LongAdder unscheduled = new LongAdder();

  /** Query phases that ran while {@code tailor.enabled} was off: OpenSearch's own search. */
  final LongAdder bypassed = new LongAdder();

  /** Query phases entered while another was open on the same thread; part of the outer one. */
  final LongAdder nested = new LongAdder();

  /** Requests of the background priority class, and class headers that named no class. */
  final LongAdder background = new LongAdder();

  final LongAdder unknownClass = new LongAdder();

  /** ForkedUnits (Lucene's slice runnables) handed to a request. */
  final LongAdder unitsForked = new LongAdder();

  /** Units that ran on a helper thread, not on the query phase's own. */
  final LongAdder unitsOnHelpers = new LongAdder();

  /** Runnables executed with no Tailor request on the thread, run inline. */
  final LongAdder inlineWithoutRequest = new LongAdder();

  /** Query phases running sequentially, outside Tailor, now: part of the node's load. */
  final AtomicInteger sequentialRunning = new AtomicInteger();

  final LongAdder policySwaps = new LongAdder();
  final LongAdder policyErrors = new LongAdder();

  private final AtomicLongArray degrees = new AtomicLongArray(RunMetrics.MAX_TRACKED_DEGREE + 1);
  private final AtomicLongArray threads = new AtomicLongArray(RunMetrics.MAX_TRACKED_DEGREE + 1);
  private final Histogram latency = new ConcurrentHistogram(1, HIGHEST_NANOS, 3);
  private final Histogram queueing = new ConcurrentHistogram(1, HIGHEST_NANOS, 3);
  private final ArrayDeque<Map<String, Object>> recent = new ArrayDeque<>(); // guarded by itself
  private final LongAdder[] verdicts = new LongAdder[Verdict.Reason.values().length];
  private final ArrayDeque<Map<String, Object>> recentVerdicts = new ArrayDeque<>(); // ditto

  NodeStats() {
    for (int i = 0; i < verdicts.length; i++) {
      verdicts[i] = new LongAdder();
    }
  }

  /** Records one decision of the decider, on index {@code index}. */
  void decided(Verdict v, String index, long minCostNanos) {
    verdicts[v.reason().ordinal()].increment();
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("index", index);
    line.put("concurrent", v.concurrent());
    line.put("why", v.explain(minCostNanos));
    synchronized (recentVerdicts) {
      if (recentVerdicts.size() == RECENT) {
        recentVerdicts.removeFirst();
      }
      recentVerdicts.addLast(line);
    }
  }

  /** The decider's settings, its decisions by rule, and the last few with why. */
  Map<String, Object> decider(boolean enabled, long minCostNanos) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("enabled", enabled);
    out.put("min_cost_ms", millis(minCostNanos));
    long yes = 0;
    long no = 0;
    Map<String, Object> byReason = new LinkedHashMap<>();
    for (Verdict.Reason r : Verdict.Reason.values()) {
      long n = verdicts[r.ordinal()].sum();
      byReason.put(r.label(), n);
      if (r.concurrent) {
        yes += n;
      } else {
        no += n;
      }
    }
    out.put("concurrent", yes);
    out.put("sequential", no);
    out.put("by_reason", byReason);
    synchronized (recentVerdicts) {
      out.put("recent", new ArrayList<>(recentVerdicts));
    }
    return out;
  }

  /** Records one finished request of shard {@code shard} under {@code policy}. */
  void record(RequestRecord r, String shard, String policy) {
    switch (r.outcome()) {
      case COMPLETED -> completed.increment();
      case FAILED -> failed.increment();
      case CANCELLED -> cancelled.increment();
    }
    degrees.incrementAndGet(Math.min(r.maxDegree(), RunMetrics.MAX_TRACKED_DEGREE));
    threads.incrementAndGet(Math.min(r.maxThreads(), RunMetrics.MAX_TRACKED_DEGREE));
    if (r.outcome() == RequestRecord.Outcome.COMPLETED) {
      latency.recordValue(clamp(r.latencyNanos()));
    }
    queueing.recordValue(clamp(r.queueingNanos()));
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("shard", shard);
    line.put("policy", policy);
    line.put("degree", r.maxDegree());
    line.put("mean_degree", round(r.meanDegree()));
    line.put("threads", r.maxThreads());
    line.put("latency_ms", millis(r.latencyNanos()));
    line.put("queueing_ms", millis(r.queueingNanos()));
    line.put("outcome", r.outcome().name().toLowerCase(Locale.ROOT));
    synchronized (recent) {
      if (recent.size() == RECENT) {
        recent.removeFirst();
      }
      recent.addLast(line);
    }
  }

  /**
   * The node's figures as plain maps, lists, strings and numbers (what a transport message carries
   * as a generic value).
   */
  Map<String, Object> snapshot(String policy, String policyError, int workers, int queueCapacity) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("policy", policy);
    if (policyError != null) {
      out.put("policy_error", policyError);
    }
    out.put("workers", workers);
    out.put("queue_capacity", queueCapacity);
    out.put("policy_swaps", policySwaps.sum());
    out.put("policy_errors", policyErrors.sum());
    Map<String, Object> requests = new LinkedHashMap<>();
    requests.put("completed", completed.sum());
    requests.put("failed", failed.sum());
    requests.put("cancelled", cancelled.sum());
    requests.put("unscheduled", unscheduled.sum());
    requests.put("nested", nested.sum());
    requests.put("bypassed", bypassed.sum());
    requests.put("background", background.sum());
    requests.put("unknown_class", unknownClass.sum());
    out.put("requests", requests);
    Map<String, Object> units = new LinkedHashMap<>();
    units.put("forked", unitsForked.sum());
    units.put("on_helpers", unitsOnHelpers.sum());
    units.put("inline_without_request", inlineWithoutRequest.sum());
    out.put("units", units);
    out.put("degree", distribution(degrees));
    out.put("threads", distribution(threads));
    out.put("latency_ms", percentiles(latency.copy()));
    out.put("queueing_ms", percentiles(queueing.copy()));
    synchronized (recent) {
      out.put("recent", new ArrayList<>(recent));
    }
    return out;
  }

  private static Map<String, Object> distribution(AtomicLongArray counts) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (int d = 0; d < counts.length(); d++) {
      long n = counts.get(d);
      if (n > 0) {
        out.put(Integer.toString(d), n);
      }
    }
    return out;
  }

  private static Map<String, Object> percentiles(Histogram h) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("count", h.getTotalCount());
    if (h.getTotalCount() > 0) {
      out.put("mean", round(h.getMean() / 1e6));
      out.put("p50", millis(h.getValueAtPercentile(50)));
      out.put("p90", millis(h.getValueAtPercentile(90)));
      out.put("p99", millis(h.getValueAtPercentile(99)));
      out.put("p999", millis(h.getValueAtPercentile(99.9)));
      out.put("max", millis(h.getMaxValue()));
    }
    return out;
  }

  private static long clamp(long nanos) {
    return Math.max(1, Math.min(HIGHEST_NANOS, nanos));
  }

  private static double millis(long nanos) {
    return round(nanos / 1e6);
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
