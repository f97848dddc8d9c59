package dev.tailor.measure;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFields;
import dev.tailor.measure.DemandProfile.Conditions;
import dev.tailor.measure.DemandProfile.Environment;
import dev.tailor.measure.DemandProfile.Features;
import dev.tailor.measure.DemandProfile.Predictions;
import dev.tailor.measure.DemandProfile.Request;
import dev.tailor.measure.DemandProfile.Settings;
import dev.tailor.measure.DemandProfile.Spread;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and validates a {@link DemandProfile} tree field by field, so that every problem names its
 * file, its field and what was expected.
 */
final class DemandProfileReader {
  private final JsonFields fields;

  DemandProfileReader(Path file) {
    this.fields = new JsonFields(file);
  }

  DemandProfile profile(JsonNode root) throws IOException {
    fields.root(root);
    JsonNode version = root.get("version");
    if (DemandProfile.FORMAT.equals(root.path("format").asText())
        && version != null
        && version.asInt() == 1) {
      throw fields.problem(
          "version",
          "a version 1 profile, taken before the profiler measured in interleaved rounds;"
              + " its per-query times do not repeat, so take it again with tailor profile");
    }
    fields.header(root, DemandProfile.FORMAT, DemandProfile.VERSION);
    JsonNode env = fields.object(root, "environment", "");
    Environment environment =
        new Environment(
            path(env, "index", "environment."),
            fields.optionalText(env, "indexLabel", "environment."),
            fields.integer(env, "indexDocs", "environment.", 0),
            path(env, "trace", "environment."),
            fields.smallInteger(env, "cores", "environment.", 1),
            fields.optionalText(env, "jvm", "environment."),
            fields.optionalText(env, "os", "environment."),
            fields.optionalText(env, "takenAt", "environment."));
    JsonNode set = fields.object(root, "settings", "");
    Settings settings =
        new Settings(
            fields.text(set, "method", "settings."),
            fields.integer(set, "warmupNanos", "settings.", 0),
            fields.smallInteger(set, "rounds", "settings.", 1),
            fields.integer(set, "minSampleNanos", "settings.", 0),
            fields.smallInteger(set, "unitsPerQuery", "settings.", 1),
            fields.smallInteger(set, "measuredDegrees", "settings.", 1),
            fields.smallInteger(set, "maxDegree", "settings.", 1),
            set.has("totalHitsThreshold")
                ? fields.smallInteger(set, "totalHitsThreshold", "settings.", 1)
                : Settings.DEFAULT_TOTAL_HITS_THRESHOLD);
    if (settings.maxDegree() < settings.measuredDegrees()) {
      throw fields.problem("settings.maxDegree", "must be >= settings.measuredDegrees");
    }
    boolean complete = fields.bool(root, "complete", "");
    Conditions conditions = conditions(fields.optionalObject(root, "conditions", ""));
    JsonNode list = fields.array(root, "requests", "");
    List<Request> requests = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String at = "requests[" + i + "]";
      requests.add(request(fields.objectAt(list, i, at), at + ".", settings));
    }
    if (complete && requests.isEmpty()) {
      // A trace has at least one runnable query, so a finished profile has at least one request;
      // every use of a complete profile (its spread, a simulation) needs one.
      throw fields.problem("requests", "a complete profile needs at least one request");
    }
    return new DemandProfile(
        DemandProfile.FORMAT,
        DemandProfile.VERSION,
        environment,
        settings,
        complete,
        conditions,
        requests,
        predictions(fields.optionalObject(root, "predictions", ""), requests.size()));
  }

  private Predictions predictions(JsonNode p, int requests) throws IOException {
    if (p == null) {
      return null;
    }
    String at = "predictions.";
    long[] nanos = fields.longs(p, "sequentialNanos", at, 0);
    if (nanos.length != requests) {
      throw fields.problem(
          at + "sequentialNanos",
          "expected one prediction per request (" + requests + "), got " + nanos.length);
    }
    return new Predictions(
        fields.optionalText(p, "model", at),
        fields.optionalText(p, "modelDigest", at),
        fields.text(p, "method", at),
        nanos);
  }

  private Conditions conditions(JsonNode c) throws IOException {
    if (c == null) {
      return null;
    }
    String at = "conditions.";
    return new Conditions(
        fields.integer(c, "elapsedNanos", at, 0),
        fields.smallInteger(c, "warmupRounds", at, 0),
        fields.longs(c, "timedRoundNanos", at, 0),
        fields.smallInteger(c, "remeasuredRequests", at, 0),
        fields.integer(c, "gcDiscardedSamples", at, 0),
        fields.integer(c, "compilationMillis", at, -1),
        share(c, "otherCpuShare", at),
        share(c, "stealShare", at));
  }

  /** A path the profile names (the index, the trace), which must be one this system can open. */
  private String path(JsonNode node, String field, String at) throws IOException {
    String text = fields.text(node, field, at);
    try {
      Path.of(text);
    } catch (InvalidPathException e) {
      throw fields.problem(at + field, "not a path: " + e.getMessage());
    }
    return text;
  }

  private Double share(JsonNode node, String field, String at) throws IOException {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    double share = fields.nonNegative(node, field, at);
    if (share > 1) {
      throw fields.problem(at + field, "must be a share between 0 and 1, got " + share);
    }
    return share;
  }

  private Request request(JsonNode r, String at, Settings settings) throws IOException {
    long seq = fields.integer(r, "sequentialNanos", at, 1);
    long[] units = fields.longs(r, "unitNanos", at, 0);
    if (units.length == 0) {
      throw fields.problem(at + "unitNanos", "expected at least one unit time");
    }
    long total = 0;
    for (long u : units) {
      total += u;
      if (total < 0) {
        throw fields.problem(
            at + "unitNanos", "the unit times add up past " + Long.MAX_VALUE + " ns");
      }
    }
    double[] measured = fields.positiveNumbers(r, "measuredSpeedup", at);
    if (measured.length != settings.measuredDegrees()) {
      throw fields.problem(
          at + "measuredSpeedup",
          "expected " + settings.measuredDegrees() + " values, got " + measured.length);
    }
    if (measured[0] != 1.0) {
      throw fields.problem(at + "measuredSpeedup[0]", "the speedup at degree 1 must be 1");
    }
    double[] derived = fields.positiveNumbers(r, "derivedSpeedup", at);
    int expectedDerived = settings.maxDegree() - settings.measuredDegrees();
    if (derived.length != expectedDerived) {
      throw fields.problem(
          at + "derivedSpeedup", "expected " + expectedDerived + " values, got " + derived.length);
    }
    JsonNode f = fields.object(r, "features", at);
    String fat = at + "features.";
    Features features =
        new Features(
            fields.text(f, "type", fat),
            fields.smallInteger(f, "clauses", fat, 0),
            fields.longs(f, "termDocFreqs", fat, 0),
            fields.integer(f, "totalPostings", fat, 0));
    return new Request(
        fields.text(r, "id", at),
        fields.optionalText(r, "category", at),
        fields.text(r, "query", at),
        seq,
        units,
        measured,
        derived,
        features,
        spread(fields.optionalObject(r, "spread", at), at + "spread.", settings));
  }

  private Spread spread(JsonNode s, String at, Settings settings) throws IOException {
    if (s == null) {
      return null;
    }
    double[] byDegree = fields.nonNegativeNumbers(s, "byDegree", at);
    if (byDegree.length != settings.measuredDegrees()) {
      throw fields.problem(
          at + "byDegree",
          "expected " + settings.measuredDegrees() + " values, got " + byDegree.length);
    }
    return new Spread(fields.smallInteger(s, "samples", at, 1), byDegree);
  }
}
