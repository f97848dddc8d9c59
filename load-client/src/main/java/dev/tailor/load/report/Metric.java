package dev.tailor.load.report;

import dev.tailor.measure.Failures;
import dev.tailor.measure.LatencyBreakdown;
import dev.tailor.measure.PointResult;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;
import java.util.function.Function;

/**
 * One figure a report gives of each point, declared once: its name, its unit, how it is read from a
 * {@link PointResult} and how it is written. The CSV, the Markdown summary and the fidelity table
 * are all written from these declarations, so that a figure reads and prints the same wherever it
 * appears (as the metrics of Caffeine's simulator feed each of its reporters).
 */
public final class Metric {

  /** The arrival rate asked for. */
  public static final Metric OFFERED =
      new Metric("offered", "rps", PointResult::offeredRps, Metric::load);

  /** Completions per second in the measured window. */
  public static final Metric ACHIEVED =
      new Metric("achieved", "rps", PointResult::achievedRps, fixed(2));

  /** Requests sent in the measured window. */
  public static final Metric SENT = new Metric("sent", "", p -> (double) p.sent(), Metric::count);

  /** Of those, completed with a result. */
  public static final Metric COMPLETED =
      new Metric("completed", "", p -> (double) p.completed(), Metric::count);

  /**
   * Of those, the requests that got no result: rejected, another HTTP status, an error, or
   * unanswered. They are no latencies, and each is a miss of every latency target.
   */
  public static final Metric FAILED =
      new Metric("failed", "", p -> (double) p.failed(), Metric::count);

  /** The failed requests' share of those sent, a fraction; absent where none was sent. */
  public static final Metric FAILED_RATIO =
      new Metric(
          "failed_ratio", "", p -> p.sent() == 0 ? null : (double) p.failed() / p.sent(), fixed(5));

  /** The failed requests refused for overload (HTTP 503, a full admission queue). */
  public static final Metric FAILED_REJECTED = failures(Failures.Kind.REJECTED);

  /** The failed requests answered with another HTTP status than 200 or 503. */
  public static final Metric FAILED_STATUS = failures(Failures.Kind.STATUS);

  /** The failed requests that failed with an exception (I/O error, timeout, the search threw). */
  public static final Metric FAILED_ERROR = failures(Failures.Kind.ERROR);

  /**
   * The failed requests still unanswered at the drain deadline or when a saturated point stopped.
   */
  public static final Metric FAILED_UNANSWERED = failures(Failures.Kind.UNANSWERED);

  /** Whether the point stopped early with a growing backlog: 1 if so, else 0. */
  public static final Metric SATURATED =
      new Metric("saturated", "", p -> p.saturated() ? 1.0 : 0.0, v -> Boolean.toString(v != 0));

  /** Mean latency. */
  public static final Metric MEAN = latency("mean");

  /** Median latency. */
  public static final Metric P50 = latency("p50");

  /** 90th-percentile latency. */
  public static final Metric P90 = latency("p90");

  /** 99th-percentile latency, the figure the summary compares policies by. */
  public static final Metric P99 = latency("p99");

  /** 99.9th-percentile latency. */
  public static final Metric P999 = latency("p99.9");

  /** The slowest request. */
  public static final Metric MAX = latency("max");

  /** 99th-percentile queueing delay, where the target reports it. */
  public static final Metric QUEUE_P99 =
      new Metric("queue_p99", "ms", p -> millis(p.queueing(), "p99"), fixed(3));

  /** The client's 99th-percentile lag behind its intended send times, where measured. */
  public static final Metric SEND_LAG_P99 =
      new Metric("send_lag_p99", "ms", p -> millis(p.sendLag(), "p99"), fixed(3));

  /**
   * A percentile ({@code 50} or {@code 99}) of a part of the latency breakdown ({@code queued},
   * ...), e.g. {@code run_p99}, in milliseconds; absent where the point has no breakdown.
   */
  static Metric breakdown(String part, int percentile) {
    return new Metric(
        part + "_p" + percentile,
        "ms",
        p ->
            p.breakdown() == null
                ? null
                : p.breakdown().part(part).percentilesNanos()[percentile] / 1e6,
        fixed(3));
  }

  /** CPU time the process used during the point, where known. */
  public static final Metric CPU =
      new Metric("cpu", "s", p -> p.cpuNanos() < 0 ? null : p.cpuNanos() / 1e9, fixed(3));

  private final String name;
  private final String unit;
  private final Function<PointResult, Double> read;
  private final DoubleFunction<String> format;

  private Metric(
      String name, String unit, Function<PointResult, Double> read, DoubleFunction<String> format) {
    this.name = name;
    this.unit = unit;
    this.read = read;
    this.format = format;
  }

  /**
   * The failures of one kind, e.g. {@code failed_rejected}; absent where the point does not split
   * its failures (one written before they were split).
   */
  private static Metric failures(Failures.Kind kind) {
    return new Metric(
        "failed_" + kind.key(),
        "",
        p -> p.failures() == null ? null : (double) p.failures().count(kind),
        Metric::count);
  }

  /** A latency percentile ({@code p99}, {@code mean}, ...) in milliseconds. */
  static Metric latency(String percentile) {
    return new Metric(percentile, "ms", p -> millis(p.latency(), percentile), fixed(3));
  }

  /**
   * The fraction of requests that missed a latency target, e.g. {@code 100ms}: answered slower, or
   * failed.
   */
  public static Metric missRatio(String target) {
    return new Metric(
        "miss_" + target,
        "",
        p -> p.missRatio() == null ? null : p.missRatio().get(target),
        fixed(5));
  }

  /**
   * Every metric of the CSV, in column order: rates, counts (the failures' share and kinds after
   * their count), latency, queueing, send lag, CPU, the P50 and P99 of each part of the latency
   * breakdown, then the miss ratio of each of {@code targets}.
   */
  public static List<Metric> csvColumns(Collection<String> targets) {
    List<Metric> out =
        new ArrayList<>(
            List.of(
                OFFERED,
                ACHIEVED,
                SENT,
                COMPLETED,
                FAILED,
                FAILED_RATIO,
                FAILED_REJECTED,
                FAILED_STATUS,
                FAILED_ERROR,
                FAILED_UNANSWERED,
                SATURATED,
                MEAN,
                P50,
                P90,
                P99,
                P999,
                MAX,
                QUEUE_P99,
                SEND_LAG_P99,
                CPU));
    for (String part : LatencyBreakdown.PARTS) {
      out.add(breakdown(part, 50));
      out.add(breakdown(part, 99));
    }
    for (String t : targets) {
      out.add(missRatio(t));
    }
    return out;
  }

  /** The metric's name, e.g. {@code p99}. */
  public String name() {
    return name;
  }

  /** Its unit, e.g. {@code ms}, or empty for counts, flags and ratios. */
  public String unit() {
    return unit;
  }

  /** Its column's name: name and unit, e.g. {@code p99_ms}. */
  public String column() {
    return unit.isEmpty() ? name : name + "_" + unit;
  }

  /** Its value for a point, in its unit, or NaN where the point does not have it. */
  public double value(PointResult p) {
    Double v = read.apply(p);
    return v == null ? Double.NaN : v;
  }

  /** Its value for a point as the CSV writes it, or empty where the point does not have it. */
  public String format(PointResult p) {
    Double v = read.apply(p);
    return v == null ? "" : format.apply(v);
  }

  @Override
  public String toString() {
    return column();
  }

  private static Double millis(Map<String, Double> percentiles, String key) {
    if (percentiles == null) {
      return null;
    }
    Double nanos = percentiles.get(key);
    return nanos == null ? null : nanos / 1e6;
  }

  /** A number with a fixed count of decimals. */
  static DoubleFunction<String> fixed(int decimals) {
    String pattern = "%." + decimals + "f";
    return v -> String.format(Locale.ROOT, pattern, v);
  }

  /** A load as reports write it: whole when it is, else two decimals. */
  public static String load(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
  }

  private static String count(double v) {
    return Long.toString((long) v);
  }
}
