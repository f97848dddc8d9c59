package dev.tailor.measure;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFields;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a {@link PointResult} tree field by field, so that every problem names the file, the field
 * and what was expected; versions {@value PointResult#OLDEST_VERSION} to {@value
 * PointResult#VERSION}.
 */
final class PointResultReader {

  private static final Set<String> NON_FINITE = Set.of("NaN", "Infinity", "-Infinity");

  private final JsonFields fields;

  PointResultReader(Path file) {
    this.fields = new JsonFields(file);
  }

  PointResult point(JsonNode root) throws IOException {
    int version =
        fields.version(root, PointResult.FORMAT, PointResult.OLDEST_VERSION, PointResult.VERSION);
    long failed = fields.integer(root, "failed", "", 0);
    Failures failures = failures(root, failed);
    return new PointResult(
        PointResult.FORMAT,
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
        SpeedProbe.read(fields, fields.optionalObject(root, "probe", ""), "probe."));
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
    List<CoRun.Level> out = new ArrayList<>();
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
      PointResult.decode(encoded);
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
   * The failures by kind, or null where the point does not split them (version 1, or a point whose
   * kinds its maker could not tell).
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
   * An object of numbers by name, or null for null. Jackson writes a non-finite double as a string
   * ({@code "NaN"}), so those strings are numbers here too.
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
