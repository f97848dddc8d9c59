package dev.tailor.measure;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFields;
import dev.tailor.core.json.JsonFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
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
    return new Reader(file).point(JsonFile.readTree(file));
  }

  /** Reads a point tree field by field, so that every problem names its field. */
  private static final class Reader {
    private final JsonFields fields;

    Reader(Path file) {
      this.fields = new JsonFields(file);
    }

    PointResult point(JsonNode root) throws IOException {
      int version = fields.version(root, FORMAT, OLDEST_VERSION, VERSION);
      long failed = fields.integer(root, "failed", "", 0);
      Failures failures = failures(root, failed);
      return new PointResult(
          FORMAT,
          version,
          fields.text(root, "policy", ""),
          fields.nonNegative(root, "offeredRps", ""),
          fields.optionalText(root, "arrivals", ""),
          fields.integer(root, "seed", "", Long.MIN_VALUE),
          repetition(root),
          fields.optionalText(root, "environment", ""),
          fields.optionalText(root, "corpus", ""),
          fields.integer(root, "durationNanos", "", 0),
          fields.integer(root, "sent", "", 0),
          fields.integer(root, "completed", "", 0),
          failed,
          failures,
          fields.bool(root, "saturated", ""),
          fields.nonNegative(root, "achievedRps", ""),
          fields.integer(root, "cpuNanos", "", -1),
          numbers(fields.object(root, "latency", ""), "latency."),
          numbers(fields.optionalObject(root, "queueing", ""), "queueing."),
          numbers(fields.optionalObject(root, "sendLag", ""), "sendLag."),
          numbers(fields.object(root, "missRatio", ""), "missRatio."),
          counts(fields.optionalObject(root, "degreeDistribution", ""), "degreeDistribution."),
          fields.text(root, "latencyHistogram", ""),
          breakdown(fields.optionalObject(root, "breakdown", "")),
          noise(fields.optionalObject(root, "noise", "")),
          provenance(fields.optionalObject(root, "provenance", "")),
          coRun(fields.optionalObject(root, "coRun", "")),
          probe(fields.optionalObject(root, "probe", "")));
    }

    /** The speed probe, or null where the point has none. */
    private SpeedProbe probe(JsonNode n) throws IOException {
      if (n == null) {
        return null;
      }
      int queries = fields.smallInteger(n, "queries", "probe.", 1);
      double shortRatio = fields.number(n, "shortRatio", "probe.");
      double longRatio = fields.number(n, "longRatio", "probe.");
      if (!(shortRatio > 0) || !(longRatio > 0)) {
        throw fields.problem("probe", "expected positive shortRatio and longRatio");
      }
      return new SpeedProbe(queries, shortRatio, longRatio);
    }

    /** The co-run record, or null where the point has none. */
    private CoRun coRun(JsonNode n) throws IOException {
      if (n == null) {
        return null;
      }
      JsonNode levels = n.get("levels");
      if (levels == null || !levels.isArray()) {
        throw fields.problem("coRun.levels", "expected an array of levels");
      }
      java.util.List<CoRun.Level> out = new java.util.ArrayList<>();
      for (int i = 0; i < levels.size(); i++) {
        String at = "coRun.levels[" + i + "].";
        JsonNode l = levels.get(i);
        String histogram = fields.text(l, "ratioHistogram", at);
        histogram(histogram, at + "ratioHistogram");
        out.add(
            new CoRun.Level(
                fields.smallInteger(l, "busy", at, 1),
                fields.integer(l, "requests", at, 0),
                histogram));
      }
      return new CoRun(out);
    }

    /** Checks that an encoded histogram decodes. */
    private void histogram(String encoded, String field) throws IOException {
      try {
        decode(encoded);
      } catch (IllegalStateException e) {
        throw fields.problem(field, "expected a compressed, base64-encoded HdrHistogram");
      }
    }

    /** The provenance, or null where the point has none. */
    private Provenance provenance(JsonNode n) throws IOException {
      if (n == null) {
        return null;
      }
      return new Provenance(
          fields.text(n, "build", "provenance."), fields.text(n, "machine", "provenance."));
    }

    /** The machine's noise, or null where the point has none. */
    private MachineNoise noise(JsonNode n) throws IOException {
      if (n == null) {
        return null;
      }
      String at = "noise.";
      long stallP50 = fields.integer(n, "stallP50Nanos", at, 0);
      long stallP99 = fields.integer(n, "stallP99Nanos", at, stallP50);
      long stallP999 = fields.integer(n, "stallP999Nanos", at, stallP99);
      long stallMax = fields.integer(n, "stallMaxNanos", at, stallP999);
      String oversleeps = fields.optionalText(n, "oversleepHistogram", at);
      String gc = fields.optionalText(n, "gcPauseHistogram", at);
      if (oversleeps != null) {
        histogram(oversleeps, at + "oversleepHistogram");
      }
      if (gc != null) {
        histogram(gc, at + "gcPauseHistogram");
      }
      try {
        return new MachineNoise(
            fields.integer(n, "windowNanos", at, 0),
            fields.integer(n, "periodNanos", at, 1),
            fields.integer(n, "stallSamples", at, 0),
            stallP50,
            stallP99,
            stallP999,
            stallMax,
            fields.integer(n, "gcPauses", at, 0),
            fields.integer(n, "gcPauseTotalNanos", at, 0),
            fields.integer(n, "gcPauseMaxNanos", at, 0),
            fraction(n, "stealFraction", at, 1),
            fraction(n, "otherCpuFraction", at, 1),
            fraction(n, "meterCpuFraction", at, Double.POSITIVE_INFINITY),
            oversleeps,
            gc);
      } catch (IllegalArgumentException e) {
        throw fields.problem("noise", e.getMessage());
      }
    }

    /**
     * A fraction in {@code 0..max}, or NaN for unknown: Jackson writes NaN as the string {@code
     * "NaN"}, and null reads as unknown too.
     */
    private double fraction(JsonNode node, String field, String at, double max) throws IOException {
      JsonNode v = node.get(field);
      if (v == null || v.isNull() || (v.isTextual() && "NaN".equals(v.textValue()))) {
        return Double.NaN;
      }
      if (!v.isNumber() || !(v.doubleValue() >= 0 && v.doubleValue() <= max)) {
        String range = max == 1 ? "a fraction in 0..1" : "a number >= 0";
        throw fields.problem(at + field, "expected " + range + " or \"NaN\", got " + v);
      }
      return v.doubleValue();
    }

    /** The breakdown, or null where the point has none. */
    private LatencyBreakdown breakdown(JsonNode b) throws IOException {
      if (b == null) {
        return null;
      }
      JsonNode parts = fields.object(b, "parts", "breakdown.");
      Map<String, LatencyBreakdown.Part> out = new LinkedHashMap<>();
      for (String name : LatencyBreakdown.PARTS) {
        String at = "breakdown.parts." + name + ".";
        JsonNode p = fields.object(parts, name, "breakdown.parts.");
        long[] percentiles = fields.longs(p, "percentilesNanos", at, 0);
        if (percentiles.length != LatencyBreakdown.PERCENTILES) {
          throw fields.problem(
              at + "percentilesNanos",
              "expected " + LatencyBreakdown.PERCENTILES + " values, got " + percentiles.length);
        }
        out.put(
            name,
            new LatencyBreakdown.Part(
                fields.integer(p, "count", at, 0),
                fields.nonNegative(p, "meanNanos", at),
                fields.integer(p, "p50Nanos", at, 0),
                fields.integer(p, "p99Nanos", at, 0),
                percentiles));
      }
      return new LatencyBreakdown(out);
    }

    /**
     * The failures by kind, or null where the point does not split them (version 1, or a point
     * whose kinds its maker could not tell).
     */
    private Failures failures(JsonNode root, long failed) throws IOException {
      JsonNode object = fields.optionalObject(root, "failures", "");
      if (object == null) {
        return null;
      }
      long[] byKind = new long[Failures.Kind.values().length];
      for (Failures.Kind k : Failures.Kind.values()) {
        byKind[k.ordinal()] = fields.integer(object, k.key(), "failures.", 0);
      }
      Failures f = Failures.of(byKind);
      if (f.total() != failed) {
        throw fields.problem(
            "failures",
            "expected counts adding up to failed = "
                + failed
                + ", got "
                + f.total()
                + " ("
                + f.describe()
                + ")");
      }
      return f;
    }

    /** The repetition, 1 where the point does not say (one written before repetitions). */
    private int repetition(JsonNode root) throws IOException {
      JsonNode v = root.get("repetition");
      return v == null || v.isNull() ? 1 : fields.smallInteger(root, "repetition", "", 1);
    }

    /**
     * An object of numbers by name, or null for null. Jackson writes a non-finite double as a
     * string ({@code "NaN"}), so those strings are numbers here too.
     */
    private Map<String, Double> numbers(JsonNode object, String at) throws IOException {
      if (object == null) {
        return null;
      }
      Map<String, Double> out = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> e : object.properties()) {
        JsonNode v = e.getValue();
        double x;
        if (v.isNumber()) {
          x = v.doubleValue();
        } else if (v.isTextual() && NON_FINITE.contains(v.textValue())) {
          x = Double.parseDouble(v.textValue());
        } else {
          throw fields.problem(at + e.getKey(), "expected a number, got " + v);
        }
        out.put(e.getKey(), x);
      }
      return out;
    }

    /** An object of arrays of counts by name, or null for null. */
    private Map<String, long[]> counts(JsonNode object, String at) throws IOException {
      if (object == null) {
        return null;
      }
      Map<String, long[]> out = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> e : object.properties()) {
        out.put(e.getKey(), fields.longs(object, e.getKey(), at, 0));
      }
      return out;
    }
  }

  private static final Set<String> NON_FINITE = Set.of("NaN", "Infinity", "-Infinity");
}
