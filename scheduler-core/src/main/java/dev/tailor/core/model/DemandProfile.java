package dev.tailor.core.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFields;
import dev.tailor.core.json.JsonFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A demand profile: what each request of a trace costs on an index, measured in isolation. Every
 * table is built from one, so its accuracy bounds everything downstream.
 *
 * <p>Per request it holds the sequential time, the time of each work unit at degree 1, the speedup
 * measured at each degree up to the machine's cores and, beyond them, speedups derived from the
 * unit times (kept apart, never mixed with measured ones), and the query's features. Versioned JSON
 * ({@value #FORMAT}, version {@value #VERSION}); {@link #read} validates and names the file, the
 * field and the problem. A profile being taken is written with {@code complete = false} after every
 * few requests, so an interrupted run leaves valid JSON that a rerun resumes.
 *
 * @param format always {@value #FORMAT}
 * @param version the format version, {@value #VERSION}
 * @param environment where the profile was taken
 * @param settings how it was taken
 * @param complete whether every request of the trace has been measured
 * @param requests the measured requests, in trace order
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DemandProfile(
    String format,
    int version,
    Environment environment,
    Settings settings,
    boolean complete,
    List<Request> requests) {

  /** The value of {@code format} in every profile. */
  public static final String FORMAT = "tailor-demand-profile";

  /** The version this code reads and writes. */
  public static final int VERSION = 1;

  /** Copies the request list. */
  public DemandProfile {
    requests = List.copyOf(requests);
  }

  /**
   * Where the profile was taken.
   *
   * @param index the index directory
   * @param indexLabel the index's source label (e.g. "synthetic, trained on wikipedia-summaries")
   * @param indexDocs the number of documents in the index
   * @param trace the trace file
   * @param cores the processors the JVM saw
   * @param jvm the Java runtime version
   * @param os the operating system and architecture
   * @param takenAt when the profile was started, ISO-8601
   */
  public record Environment(
      String index,
      String indexLabel,
      long indexDocs,
      String trace,
      int cores,
      String jvm,
      String os,
      String takenAt) {}

  /**
   * How the profile was taken.
   *
   * @param warmups untimed runs before the timed ones, per query and degree
   * @param repetitions timed runs per query and degree; times are their medians
   * @param unitsPerQuery the units each query was cut into
   * @param measuredDegrees degrees 1..this were measured
   * @param maxDegree degrees above {@code measuredDegrees} up to this are derived
   */
  public record Settings(
      int warmups, int repetitions, int unitsPerQuery, int measuredDegrees, int maxDegree) {}

  /**
   * One request's demand.
   *
   * @param id the query's id in its trace (or its line number)
   * @param category the query's category ({@code HighTerm}, ...), or {@code null}
   * @param query the query text as the trace gave it
   * @param sequentialNanos median time at degree 1
   * @param unitNanos median time of each unit at degree 1, in slice order
   * @param measuredSpeedup {@code measuredSpeedup[d - 1]} is the measured speedup at degree d
   * @param derivedSpeedup {@code derivedSpeedup[i]} is the speedup derived for degree {@code
   *     measuredDegrees + 1 + i} by list-scheduling the unit times
   * @param features what the predictor learns from
   */
  public record Request(
      String id,
      String category,
      String query,
      long sequentialNanos,
      long[] unitNanos,
      double[] measuredSpeedup,
      double[] derivedSpeedup,
      Features features) {

    /** Measured speedups, then derived ones: the request's curve up to the profile's max degree. */
    public SpeedupCurve speedupCurve() {
      double[] all = new double[measuredSpeedup.length + derivedSpeedup.length];
      System.arraycopy(measuredSpeedup, 0, all, 0, measuredSpeedup.length);
      System.arraycopy(derivedSpeedup, 0, all, measuredSpeedup.length, derivedSpeedup.length);
      for (int i = 0; i < all.length; i++) {
        all[i] = Math.max(1.0, all[i]); // a curve never drops below sequential
      }
      all[0] = 1.0;
      return SpeedupCurve.of(all);
    }

    /** Whether the profile has unit times for the request, so that it has a {@link #unitWork}. */
    public boolean hasUnitTimes() {
      return unitNanos != null && unitNanos.length > 0;
    }

    /**
     * The request's work as the runtime cuts it, calibrated by its measured speedups; null if the
     * profile has no unit times for it (a parametric profile).
     */
    public UnitWork unitWork() {
      if (!hasUnitTimes()) {
        return null;
      }
      double[] measured = new double[measuredSpeedup.length];
      for (int d = 0; d < measured.length; d++) {
        measured[d] = sequentialNanos / measuredSpeedup[d];
      }
      return UnitWork.of(sequentialNanos, unitNanos, measured);
    }
  }

  /**
   * The query's features, from the query and the index's statistics.
   *
   * @param type the query's kind (its Lucene class, e.g. {@code BooleanQuery})
   * @param clauses leaf clauses in the rewritten query
   * @param termDocFreqs the document frequency of each term the rewritten query reads
   * @param totalPostings the sum of those document frequencies
   */
  public record Features(String type, int clauses, long[] termDocFreqs, long totalPostings) {}

  /** A profile with the requests so far; {@code complete} says whether that is all of them. */
  public static DemandProfile of(
      Environment environment, Settings settings, boolean complete, List<Request> requests) {
    return new DemandProfile(FORMAT, VERSION, environment, settings, complete, requests);
  }

  /** Writes the profile as JSON, atomically and durably (see {@link JsonFile#writeAtomically}). */
  public void write(Path file) throws IOException {
    JsonFile.writeAtomically(file, this);
  }

  /**
   * Reads and validates a profile.
   *
   * @throws IOException if the file cannot be read, is not JSON, or is not a valid profile; the
   *     message names the file, the field and what was expected
   */
  public static DemandProfile read(Path file) throws IOException {
    return new Reader(file).profile(JsonFile.readTree(file));
  }

  /** Reads a profile tree field by field, so that every problem names its field. */
  private static final class Reader {
    private final JsonFields fields;

    Reader(Path file) {
      this.fields = new JsonFields(file);
    }

    DemandProfile profile(JsonNode root) throws IOException {
      fields.header(root, FORMAT, VERSION);
      JsonNode env = fields.object(root, "environment", "");
      Environment environment =
          new Environment(
              fields.text(env, "index", "environment."),
              fields.optionalText(env, "indexLabel", "environment."),
              fields.integer(env, "indexDocs", "environment.", 0),
              fields.text(env, "trace", "environment."),
              fields.smallInteger(env, "cores", "environment.", 1),
              fields.optionalText(env, "jvm", "environment."),
              fields.optionalText(env, "os", "environment."),
              fields.optionalText(env, "takenAt", "environment."));
      JsonNode set = fields.object(root, "settings", "");
      Settings settings =
          new Settings(
              fields.smallInteger(set, "warmups", "settings.", 0),
              fields.smallInteger(set, "repetitions", "settings.", 1),
              fields.smallInteger(set, "unitsPerQuery", "settings.", 1),
              fields.smallInteger(set, "measuredDegrees", "settings.", 1),
              fields.smallInteger(set, "maxDegree", "settings.", 1));
      if (settings.maxDegree() < settings.measuredDegrees()) {
        throw fields.problem("settings.maxDegree", "must be >= settings.measuredDegrees");
      }
      boolean complete = fields.bool(root, "complete", "");
      JsonNode list = fields.array(root, "requests", "");
      List<Request> requests = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        String at = "requests[" + i + "]";
        requests.add(request(fields.objectAt(list, i, at), at + ".", settings));
      }
      return new DemandProfile(FORMAT, VERSION, environment, settings, complete, requests);
    }

    private Request request(JsonNode r, String at, Settings settings) throws IOException {
      long seq = fields.integer(r, "sequentialNanos", at, 1);
      long[] units = fields.longs(r, "unitNanos", at, 0);
      if (units.length == 0) {
        throw fields.problem(at + "unitNanos", "expected at least one unit time");
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
            at + "derivedSpeedup",
            "expected " + expectedDerived + " values, got " + derived.length);
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
          features);
    }
  }
}
