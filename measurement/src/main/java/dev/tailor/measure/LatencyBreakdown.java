package dev.tailor.measure;

import dev.tailor.core.metrics.RequestRecord;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Where the served time of a point's requests went, part by part, so that the parts of each request
 * add up to its latency as the client measured it (from the intended send):
 *
 * <ol>
 *   <li>{@code sendLag}: the client's own lag, actual minus intended send;
 *   <li>{@code queued}: submitted to admitted ({@link RequestRecord#queueingNanos});
 *   <li>{@code dispatch}: admitted to first running, the wake-up ({@link
 *       RequestRecord#dispatchNanos});
 *   <li>{@code run}: first running to the last thread's end, with helpers ({@link
 *       RequestRecord#runNanos});
 *   <li>{@code completion}: the rest, from the server's end to the answer the client saw
 *       (completing the request's future and, over HTTP, writing and reading the response).
 * </ol>
 *
 * <p>Each part keeps its count, mean, P50, P99 and all 101 percentiles (0 to 100), which the
 * simulator's calibration draws from.
 *
 * @param parts each part by name, in the order of {@link #PARTS}
 */
public record LatencyBreakdown(Map<String, Part> parts) {

  /** The parts' names, in the order a request passes through them. */
  public static final List<String> PARTS =
      List.of("sendLag", "queued", "dispatch", "run", "completion");

  /** The percentiles each part keeps: 0, 1, ..., 100. */
  public static final int PERCENTILES = 101;

  /**
   * One part's distribution, nanoseconds.
   *
   * @param count the requests measured
   * @param meanNanos their mean
   * @param p50Nanos their median
   * @param p99Nanos their 99th percentile
   * @param percentilesNanos the 101 percentiles 0 to 100, ascending
   */
  public record Part(
      long count, double meanNanos, long p50Nanos, long p99Nanos, long[] percentilesNanos) {

    /** Checks and copies the percentiles. */
    public Part {
      if (percentilesNanos == null || percentilesNanos.length != PERCENTILES) {
        throw new IllegalArgumentException("a part holds " + PERCENTILES + " percentiles");
      }
      percentilesNanos = percentilesNanos.clone();
    }

    /** A histogram's distribution. */
    public static Part of(Histogram h) {
      long[] p = new long[PERCENTILES];
      if (h.getTotalCount() > 0) {
        for (int i = 0; i < PERCENTILES; i++) {
          p[i] = i == 0 ? h.getMinValue() : h.getValueAtPercentile(i);
        }
      }
      return new Part(h.getTotalCount(), h.getTotalCount() == 0 ? 0 : h.getMean(), p[50], p[99], p);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Part q
          && count == q.count
          && Double.compare(meanNanos, q.meanNanos) == 0
          && p50Nanos == q.p50Nanos
          && p99Nanos == q.p99Nanos
          && Arrays.equals(percentilesNanos, q.percentilesNanos);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(count) * 31 + Arrays.hashCode(percentilesNanos);
    }

    @Override
    public String toString() {
      return "Part[count=" + count + ", p50=" + p50Nanos + ", p99=" + p99Nanos + "]";
    }
  }

  /** Checks that every part is there, and keeps them in order. */
  public LatencyBreakdown {
    Map<String, Part> ordered = new LinkedHashMap<>();
    for (String name : PARTS) {
      Part p = parts.get(name);
      if (p == null) {
        throw new IllegalArgumentException("the breakdown lacks its part " + name);
      }
      ordered.put(name, p);
    }
    if (parts.size() != PARTS.size()) {
      throw new IllegalArgumentException("a breakdown has the parts " + PARTS + " only");
    }
    parts = java.util.Collections.unmodifiableMap(ordered);
  }

  /** The breakdown of five histograms, in the order of {@link #PARTS}. */
  public static LatencyBreakdown of(
      Histogram sendLag,
      Histogram queued,
      Histogram dispatch,
      Histogram run,
      Histogram completion) {
    Map<String, Part> parts = new LinkedHashMap<>();
    parts.put("sendLag", Part.of(sendLag));
    parts.put("queued", Part.of(queued));
    parts.put("dispatch", Part.of(dispatch));
    parts.put("run", Part.of(run));
    parts.put("completion", Part.of(completion));
    return new LatencyBreakdown(parts);
  }

  /** The part named {@code name}, one of {@link #PARTS}. */
  public Part part(String name) {
    Part p = parts.get(name);
    if (p == null) {
      throw new IllegalArgumentException("no part " + name + "; the parts are " + PARTS);
    }
    return p;
  }
}
