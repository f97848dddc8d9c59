package dev.tailor.core.metrics;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * What one point of a sweep measured: one policy at one offered load, real or simulated. Real runs
 * (the load client) and simulations write the same JSON, so that one report reads both.
 *
 * <p>Latency counts from each request's intended send time, so a stall cannot hide (coordinated
 * omission); warm-up requests are left out. Histograms are kept whole (HdrHistogram's compressed
 * encoding, base64) next to their percentiles, so that points can be merged and replotted later.
 *
 * @param format always {@value #FORMAT}
 * @param version {@value #VERSION}
 * @param policy the policy's specification
 * @param offeredRps the arrival rate asked for, requests per second
 * @param arrivals the arrival process, e.g. {@code poisson(50/s)}
 * @param seed the arrival and query-order seed
 * @param environment "measured on this machine (N cores)" or "simulated, N cores"
 * @param corpus the index's or profile's source label (says "synthetic" where it is)
 * @param durationNanos the measured window
 * @param sent requests sent in the measured window
 * @param completed of those, completed with a result
 * @param failed of those, failed or rejected
 * @param saturated whether the backlog grew without bound and the point stopped early
 * @param achievedRps completions per second in the measured window
 * @param cpuNanos CPU time the process used during the point, or -1 where unknown
 * @param latency latency percentiles, nanoseconds
 * @param queueing queueing-delay percentiles, nanoseconds, or null where unknown
 * @param sendLag the client's lag (actual minus intended send) percentiles, nanoseconds, or null
 * @param missRatio per latency target (e.g. {@code 100ms}), the fraction of requests slower
 * @param degreeDistribution per request class, the count of requests by highest degree
 * @param latencyHistogram the latency histogram, compressed and base64-encoded
 */
public record PointResult(
    String format,
    int version,
    String policy,
    double offeredRps,
    String arrivals,
    long seed,
    String environment,
    String corpus,
    long durationNanos,
    long sent,
    long completed,
    long failed,
    boolean saturated,
    double achievedRps,
    long cpuNanos,
    Map<String, Double> latency,
    Map<String, Double> queueing,
    Map<String, Double> sendLag,
    Map<String, Double> missRatio,
    Map<String, long[]> degreeDistribution,
    String latencyHistogram) {

  /** The value of {@code format}. */
  public static final String FORMAT = "tailor-point-result";

  /** The version this code writes. */
  public static final int VERSION = 1;

  /** The percentiles every histogram is summarised by. */
  public static Map<String, Double> percentiles(Histogram h) {
    Map<String, Double> out = new LinkedHashMap<>();
    out.put("count", (double) h.getTotalCount());
    if (h.getTotalCount() == 0) {
      return out;
    }
    out.put("mean", h.getMean());
    out.put("p50", (double) h.getValueAtPercentile(50));
    out.put("p90", (double) h.getValueAtPercentile(90));
    out.put("p99", (double) h.getValueAtPercentile(99));
    out.put("p99.9", (double) h.getValueAtPercentile(99.9));
    out.put("max", (double) h.getMaxValue());
    return out;
  }

  /** A histogram as compressed base64. */
  public static String encode(Histogram h) {
    ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int length = h.encodeIntoCompressedByteBuffer(buffer);
    return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
  }

  /** The latency histogram, decoded. */
  public Histogram decodeLatency() {
    try {
      return Histogram.decodeFromCompressedByteBuffer(
          ByteBuffer.wrap(Base64.getDecoder().decode(latencyHistogram)), 0);
    } catch (DataFormatException e) {
      throw new IllegalStateException("latency histogram does not decode", e);
    }
  }

  /** A latency percentile in nanoseconds, or NaN if there was no request. */
  @JsonIgnore
  public double latencyAt(String percentile) {
    Double v = latency.get(percentile);
    return v == null ? Double.NaN : v;
  }

  /** Writes the point as JSON, to a temporary file then moved into place. */
  public void write(Path file) throws IOException {
    JsonFile.writeAtomically(file, this);
  }

  /**
   * Reads a point.
   *
   * @throws IOException naming the file and the problem if it is not a point result
   */
  public static PointResult read(Path file) throws IOException {
    JsonNode root = JsonFile.readTree(file);
    if (root == null || !FORMAT.equals(root.path("format").asText())) {
      throw new IOException(file + ": format: expected \"" + FORMAT + "\"");
    }
    if (root.path("version").asInt() != VERSION) {
      throw new IOException(file + ": version: this Tailor reads version " + VERSION);
    }
    try {
      return JsonFile.mapper().treeToValue(root, PointResult.class);
    } catch (IOException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }
}
