package dev.tailor.measure;

import com.fasterxml.jackson.annotation.JsonIgnore;
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
 * <p>Since version 2, the latency histogram and its percentiles hold the requests answered with a
 * result only: a failed request (rejected, another HTTP status, an exception, no answer by the
 * drain deadline) is counted in {@code failures} by kind instead, and counts as a miss of every
 * latency target, so that failing fast cannot lower a percentile or a miss ratio. A version 1 point
 * (written before) is still read: its histogram may hold its failed requests' latencies too, and
 * its failures are not split by kind ({@code failures} is null).
 *
 * <p>Since version 4, a real point also carries the machine's own noise over its measured window
 * ({@link MachineNoise}: stalls, GC pauses, steal and other processes' CPU), so that a point the
 * machine slowed can be told from one the policy did; simulated points, and points read from older
 * files, have none.
 *
 * <p>Since version 5 the machine's noise keeps its oversleep and GC pause histograms whole ({@link
 * MachineNoise#oversleeps}), and a point whose every request ran on one thread records how long its
 * requests ran beside how many others ({@link CoRun}): what {@code tailor calibrate} measures the
 * simulator's machine model from.
 *
 * <p>Since version 6 a point replayed in process with a profile carries the machine's speed just
 * before its run ({@link SpeedProbe}), so that runs minutes apart can be put on one scale.
 *
 * @param format always {@value #FORMAT}
 * @param version {@value #VERSION}, or 1 for a point read from an older file
 * @param policy the policy's specification
 * @param offeredRps the arrival rate asked for, requests per second
 * @param arrivals the arrival process, e.g. {@code poisson(50/s)}
 * @param seed the arrival and query-order seed
 * @param repetition which run of the same policy at the same load this is, from 1: a sweep repeats
 *     its points to see their noise (a point written before repetitions existed reads as 1)
 * @param environment "measured on this machine (N cores)" or "simulated, N cores"
 * @param corpus the index's or profile's source label (says "synthetic" where it is)
 * @param durationNanos the measured window
 * @param sent requests sent in the measured window
 * @param completed of those, completed with a result
 * @param failed of those, the requests that got no result: {@code failures}' total where it is
 *     known
 * @param failures the failures by kind, or null where they are not known (a version 1 point)
 * @param saturated whether the backlog grew without bound and the point stopped early
 * @param achievedRps completions per second in the measured window
 * @param cpuNanos CPU time the process used during the point, or -1 where unknown
 * @param latency latency percentiles, nanoseconds
 * @param queueing queueing-delay percentiles, nanoseconds, or null where unknown
 * @param sendLag the client's lag (actual minus intended send) percentiles, nanoseconds, or null
 * @param missRatio per latency target (e.g. {@code 100ms}), the fraction of requests sent that did
 *     not get a result within it: those slower, and (since version 2) every failed request
 * @param degreeDistribution per request group, the count of requests by highest degree, or null
 *     where unknown
 * @param latencyHistogram the latency histogram, compressed and base64-encoded
 * @param breakdown where the answered requests' served time went, part by part ({@link
 *     LatencyBreakdown}), or null where the target did not report its timings (and in points older
 *     than version 3)
 * @param noise what a {@link NoiseMeter} saw of the machine over the measured window (from the
 *     first measured request's intended send until the last answer), or null where nothing measured
 *     it: a simulated point, one measured without a meter, and every point older than version 4
 * @param provenance the build that made the point and the machine it ran on ({@link Provenance}),
 *     or null in points written before it was recorded
 * @param coRun the requests' run time over profiled time by the number of requests running beside
 *     them ({@link CoRun}), or null where it was not measured: any point older than version 5, a
 *     simulated one, one with a request on more than one thread, or one replayed without a profile
 *     or without the server's records
 * @param probe the machine's speed just before the run ({@link SpeedProbe}), or null where it was
 *     not measured: any point older than version 6, a simulated one, or one replayed against a
 *     server or without a profile
 */
public record PointResult(
    String format,
    int version,
    String policy,
    double offeredRps,
    String arrivals,
    long seed,
    int repetition,
    String environment,
    String corpus,
    long durationNanos,
    long sent,
    long completed,
    long failed,
    Failures failures,
    boolean saturated,
    double achievedRps,
    long cpuNanos,
    Map<String, Double> latency,
    Map<String, Double> queueing,
    Map<String, Double> sendLag,
    Map<String, Double> missRatio,
    Map<String, long[]> degreeDistribution,
    String latencyHistogram,
    LatencyBreakdown breakdown,
    MachineNoise noise,
    Provenance provenance,
    CoRun coRun,
    SpeedProbe probe) {

  /** The value of {@code format}. */
  public static final String FORMAT = "tailor-point-result";

  /**
   * The version this code writes: 6, with the speed probe (version 5 added the noise's histograms
   * and the co-run record, version 4 the machine's noise, version 3 the latency breakdown, version
   * 2 left failed requests out of the latencies).
   */
  public static final int VERSION = 6;

  /** The oldest version this code reads. */
  public static final int OLDEST_VERSION = 1;

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

  /**
   * An environment that names the worker count its point ran at, as a sweep of worker counts labels
   * its points: {@code "measured on this machine (2 cores), 1 worker"}; {@code environment} as it
   * is where {@code workers} is 0 (the target's own).
   */
  public static String withWorkers(String environment, int workers) {
    if (workers < 0) {
      throw new IllegalArgumentException("workers must be >= 0, got " + workers);
    }
    return workers == 0 ? environment : environment + ", " + workersLabel(workers);
  }

  private static String workersLabel(int workers) {
    return workers + (workers == 1 ? " worker" : " workers");
  }

  /**
   * The worker count this point's environment names ({@link #withWorkers}), or 0 where it names
   * none: the point ran on its target's own workers, as every point of a sweep of one count does.
   */
  @JsonIgnore
  public int workers() {
    return workersNamedIn(environment);
  }

  /** The worker count {@code environment} names ({@link #withWorkers}), or 0 where none. */
  static int workersNamedIn(String environment) {
    int comma = environment.lastIndexOf(", ");
    int space = environment.indexOf(' ', comma + 2);
    if (comma < 0 || space < 0) {
      return 0;
    }
    try {
      int w = Integer.parseInt(environment.substring(comma + 2, space));
      return w >= 1 && environment.endsWith(", " + workersLabel(w)) ? w : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * The same point reported under another policy name, such as a tuned policy's column name for the
   * setting a search chose.
   */
  public PointResult withPolicy(String name) {
    return relabelled(name, repetition);
  }

  /**
   * Checks the repetition and the failures.
   *
   * @throws IllegalArgumentException if the repetition is below 1, or the failures by kind do not
   *     add up to {@code failed}
   */
  public PointResult {
    if (repetition < 1) {
      throw new IllegalArgumentException("the repetition counts from 1, got " + repetition);
    }
    if (failures != null && failures.total() != failed) {
      throw new IllegalArgumentException(
          "the failures by kind (" + failures + ") do not add up to failed = " + failed);
    }
  }

  /** The same point as the {@code repetition}-th run of its policy at its load. */
  public PointResult withRepetition(int repetition) {
    return relabelled(policy, repetition);
  }

  /** The same point with the machine's speed measured just before its run. */
  public PointResult withProbe(SpeedProbe reading) {
    return relabelled(policy, repetition, reading);
  }

  private PointResult relabelled(String name, int repetition) {
    return relabelled(name, repetition, probe);
  }

  private PointResult relabelled(String name, int repetition, SpeedProbe reading) {
    return new PointResult(
        format,
        version,
        name,
        offeredRps,
        arrivals,
        seed,
        repetition,
        environment,
        corpus,
        durationNanos,
        sent,
        completed,
        failed,
        failures,
        saturated,
        achievedRps,
        cpuNanos,
        latency,
        queueing,
        sendLag,
        missRatio,
        degreeDistribution,
        latencyHistogram,
        breakdown,
        noise,
        provenance,
        coRun,
        reading);
  }

  /** The latency histogram, decoded. */
  public Histogram decodeLatency() {
    return decode(latencyHistogram);
  }

  /**
   * A histogram {@link #encode} encoded.
   *
   * @throws IllegalStateException if it does not decode
   */
  public static Histogram decode(String base64) {
    try {
      return Histogram.decodeFromCompressedByteBuffer(
          ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
    } catch (DataFormatException | IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new IllegalStateException("a histogram does not decode", e);
    }
  }

  /**
   * Whether the latency histogram may hold failed requests' latencies too: a version 1 point's
   * does, where it had failures; since version 2 it holds answered requests' only.
   */
  @JsonIgnore
  public boolean latencyMayHoldFailures() {
    return version < 2 && failed > 0;
  }

  /** A latency percentile in nanoseconds, or NaN if there was no request. */
  @JsonIgnore
  public double latencyAt(String percentile) {
    Double v = latency.get(percentile);
    return v == null ? Double.NaN : v;
  }

  /** Writes the point as JSON, atomically and durably (see {@link JsonFile#writeAtomically}). */
  public void write(Path file) throws IOException {
    JsonFile.writeAtomically(file, this);
  }

  /**
   * Reads and validates a point.
   *
   * @throws IOException if the file cannot be read, is not JSON, or is not a point result; the
   *     message names the file, the field and what was expected
   */
  public static PointResult read(Path file) throws IOException {
    return new PointResultReader(file).point(JsonFile.readTree(file));
  }
}
