package dev.tailor.measure;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.tailor.core.json.JsonFile;
import dev.tailor.core.model.SpeedupCurve;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A demand profile: what each request of a trace costs on an index, measured in isolation. Every
 * table is built from one, so its accuracy bounds everything downstream.
 *
 * <p>Per request it holds the sequential time, the time of each work unit at degree 1, the speedup
 * measured at each degree up to the machine's cores and, beyond them, speedups derived from the
 * unit times (kept apart, never mixed with measured ones), the query's features, and how far its
 * samples spread. The profile also records the conditions it was taken in (how busy the machine
 * was, the garbage collections and JIT compilation during the timed rounds). Versioned JSON
 * ({@value #FORMAT}, version {@value #VERSION}); {@link #read} validates and names the file, the
 * field and the problem. A profile being taken is written with {@code complete = false} after every
 * few requests, so an interrupted run leaves valid JSON that a rerun resumes.
 *
 * @param format always {@value #FORMAT}
 * @param version the format version, {@value #VERSION}
 * @param environment where the profile was taken
 * @param settings how it was taken
 * @param complete whether every request of the trace has been measured
 * @param conditions what the machine did while the profile was taken, or null if not recorded
 * @param requests the measured requests, in trace order
 * @param predictions a predictor's estimate of each request's sequential time, or null if none was
 *     attached ({@code tailor predictor predict})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DemandProfile(
    String format,
    int version,
    Environment environment,
    Settings settings,
    boolean complete,
    Conditions conditions,
    List<Request> requests,
    Predictions predictions) {

  /** The value of {@code format} in every profile. */
  public static final String FORMAT = "tailor-demand-profile";

  /** The version this code reads and writes. */
  public static final int VERSION = 2;

  /**
   * Copies the request list.
   *
   * @throws IllegalArgumentException if the predictions do not cover exactly the requests
   */
  public DemandProfile {
    requests = List.copyOf(requests);
    if (predictions != null && predictions.sequentialNanos().length != requests.size()) {
      throw new IllegalArgumentException(
          "predictions for "
              + predictions.sequentialNanos().length
              + " requests, the profile has "
              + requests.size());
    }
  }

  /**
   * A predictor's estimate of every request's sequential time, attached to a profile so that the
   * simulator and the table builders can run a predicting policy (TPC, Jeon et al., ASPLOS'16,
   * §3.1) on the very predictions it would get online.
   *
   * @param model the model file's name, or null for predictions no model made (synthetic ones)
   * @param modelDigest the model file's digest, or null
   * @param method how the predictions were made: {@value #MODEL} (the model as it is) or {@code
   *     cross-fit K} (each request predicted by a model trained on the other K-1 folds, so none is
   *     predicted by a model that saw it)
   * @param sequentialNanos {@code sequentialNanos[i]} is the prediction for request {@code i}, in
   *     the profile's order
   */
  public record Predictions(
      String model, String modelDigest, String method, long[] sequentialNanos) {

    /** The method of predictions made by one model as it is. */
    public static final String MODEL = "model";

    /** The same predictions with every time multiplied by {@code factor}. */
    Predictions scaled(double factor) {
      long[] scaled = new long[sequentialNanos.length];
      for (int i = 0; i < scaled.length; i++) {
        scaled[i] = Math.round(sequentialNanos[i] * factor);
      }
      return new Predictions(model, modelDigest, method, scaled);
    }
  }

  /**
   * The mean sequential time of the requests, in nanoseconds: the work a utilization is a share of.
   *
   * @throws java.util.NoSuchElementException if the profile has no request
   */
  public double meanSequentialNanos() {
    return requests.stream().mapToLong(Request::sequentialNanos).average().orElseThrow();
  }

  /** The same profile with these predictions attached (null to remove them). */
  public DemandProfile withPredictions(Predictions attached) {
    return new DemandProfile(
        format, version, environment, settings, complete, conditions, requests, attached);
  }

  /** The prediction for request {@code i}, or -1 if the profile carries none. */
  public long predictedNanos(int i) {
    return predictions == null ? -1 : predictions.sequentialNanos()[i];
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
   * @param method how times were measured and summarized, e.g. {@value #INTERLEAVED_ROUNDS}
   * @param warmupNanos the least untimed warm-up before the timed rounds
   * @param rounds timed rounds over the whole trace, so at least this many samples per request and
   *     degree
   * @param minSampleNanos a sample of a shorter query repeats it until it lasts this long
   * @param unitsPerQuery the units each query was cut into
   * @param measuredDegrees degrees 1..this were measured
   * @param maxDegree degrees above {@code measuredDegrees} up to this are derived
   * @param totalHitsThreshold each search counted its total hits exactly up to this many ({@link
   *     #DEFAULT_TOTAL_HITS_THRESHOLD}, Lucene's default, for a profile that does not say), or
   *     {@link Integer#MAX_VALUE} for an exact count: a search that counts every hit scores every
   *     match, where a lower threshold lets Lucene skip the non-competitive ones
   */
  public record Settings(
      String method,
      long warmupNanos,
      int rounds,
      long minSampleNanos,
      int unitsPerQuery,
      int measuredDegrees,
      int maxDegree,
      int totalHitsThreshold) {

    /** The hits counted exactly by a profile that does not say: Lucene's default, 1,000. */
    public static final int DEFAULT_TOTAL_HITS_THRESHOLD = 1000;

    /** Settings of searches that count hits up to {@link #DEFAULT_TOTAL_HITS_THRESHOLD}. */
    public Settings(
        String method,
        long warmupNanos,
        int rounds,
        long minSampleNanos,
        int unitsPerQuery,
        int measuredDegrees,
        int maxDegree) {
      this(
          method,
          warmupNanos,
          rounds,
          minSampleNanos,
          unitsPerQuery,
          measuredDegrees,
          maxDegree,
          DEFAULT_TOTAL_HITS_THRESHOLD);
    }

    /**
     * The profiler's method: timed rounds over the whole trace in a new order each round, each time
     * the {@linkplain RobustTime lower-half mean} of a request's samples.
     */
    public static final String INTERLEAVED_ROUNDS = "interleaved-rounds, lower-half mean";

    /** The method of a profile that was given, not measured (a parametric or a test profile). */
    public static final String GIVEN = "given";

    /** Settings of a profile that was given, not measured. */
    public Settings(int rounds, int unitsPerQuery, int measuredDegrees, int maxDegree) {
      this(GIVEN, 0, rounds, 0, unitsPerQuery, measuredDegrees, maxDegree);
    }
  }

  /**
   * What the machine did while the profile was taken: how a profile notices that it measured the
   * machine rather than the queries.
   *
   * @param elapsedNanos the profiling time, warm-up included
   * @param warmupRounds untimed rounds run before the timed ones
   * @param timedRoundNanos the length of each timed round over the whole trace; a trend says the
   *     machine (or the JIT) drifted during the profile
   * @param remeasuredRequests requests whose samples spread too far and were measured again
   * @param gcDiscardedSamples samples thrown away and taken again because a garbage collection ran
   *     during them
   * @param compilationMillis JIT compilation time during the timed rounds, or -1 if unknown
   * @param otherCpuShare the share of the machine's CPU time other processes used during the timed
   *     rounds (0..1), or null if unknown (not Linux)
   * @param stealShare the share of CPU time the hypervisor stole during the timed rounds, or null
   */
  public record Conditions(
      long elapsedNanos,
      int warmupRounds,
      long[] timedRoundNanos,
      int remeasuredRequests,
      long gcDiscardedSamples,
      long compilationMillis,
      Double otherCpuShare,
      Double stealShare) {}

  /**
   * How far a request's samples spread ({@link RobustTime#spread}: interquartile range over the
   * estimate).
   *
   * @param samples the samples per degree the times are estimated from
   * @param byDegree {@code byDegree[d - 1]} is the spread of the samples at measured degree d
   */
  public record Spread(int samples, double[] byDegree) {

    /** The spread of the sequential (degree 1) samples. */
    public double sequential() {
      return byDegree[0];
    }
  }

  /**
   * One request's demand.
   *
   * @param id the query's id in its trace (or its line number)
   * @param category the query's category ({@code HighTerm}, ...), or {@code null}
   * @param query the query text as the trace gave it
   * @param sequentialNanos time at degree 1, estimated from its samples ({@link Settings#method})
   * @param unitNanos time of each unit at degree 1, in slice order
   * @param measuredSpeedup {@code measuredSpeedup[d - 1]} is the measured speedup at degree d
   * @param derivedSpeedup {@code derivedSpeedup[i]} is the speedup derived for degree {@code
   *     measuredDegrees + 1 + i} by list-scheduling the unit times
   * @param features what the predictor learns from
   * @param spread how far the samples spread, or null for a profile that was given
   */
  public record Request(
      String id,
      String category,
      String query,
      long sequentialNanos,
      long[] unitNanos,
      double[] measuredSpeedup,
      double[] derivedSpeedup,
      Features features,
      Spread spread) {

    /** A request whose demand was given, not measured: it has no spread. */
    public Request(
        String id,
        String category,
        String query,
        long sequentialNanos,
        long[] unitNanos,
        double[] measuredSpeedup,
        double[] derivedSpeedup,
        Features features) {
      this(
          id,
          category,
          query,
          sequentialNanos,
          unitNanos,
          measuredSpeedup,
          derivedSpeedup,
          features,
          null);
    }

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

    /**
     * The same request with every time multiplied by {@code factor} (speedups unchanged): how a
     * measured request takes longer served under load than profiled alone.
     */
    public Request scaled(double factor) {
      long[] units = null;
      if (unitNanos != null) {
        units = new long[unitNanos.length];
        for (int i = 0; i < units.length; i++) {
          units[i] = Math.round(unitNanos[i] * factor);
        }
      }
      return new Request(
          id,
          category,
          query,
          Math.round(sequentialNanos * factor),
          units,
          measuredSpeedup,
          derivedSpeedup,
          features,
          spread);
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
    return of(environment, settings, complete, null, requests);
  }

  /** A profile with the requests so far, taken in the given conditions. */
  public static DemandProfile of(
      Environment environment,
      Settings settings,
      boolean complete,
      Conditions conditions,
      List<Request> requests) {
    return new DemandProfile(
        FORMAT, VERSION, environment, settings, complete, conditions, requests, null);
  }

  /**
   * The same profile with every request's times multiplied by {@code factor}: a simulation
   * calibrated to how much longer requests take served than profiled alone (see {@code tailor
   * fidelity}).
   *
   * @throws IllegalArgumentException unless the factor is positive and finite
   */
  public DemandProfile scaled(double factor) {
    if (!(factor > 0) || Double.isInfinite(factor)) {
      throw new IllegalArgumentException("a time scale must be positive, got " + factor);
    }
    return new DemandProfile(
        format,
        version,
        environment,
        settings,
        complete,
        conditions,
        requests.stream().map(r -> r.scaled(factor)).toList(),
        predictions == null ? null : predictions.scaled(factor));
  }

  /**
   * The same profile with other requests, one for each of its own and in the same order (as a
   * calibration serves them), its predictions kept.
   *
   * @throws IllegalArgumentException if the count differs
   */
  public DemandProfile withRequests(List<Request> served) {
    if (served.size() != requests.size()) {
      throw new IllegalArgumentException(
          "expected " + requests.size() + " requests, got " + served.size());
    }
    return new DemandProfile(
        format, version, environment, settings, complete, conditions, served, predictions);
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
    return new DemandProfileReader(file).profile(JsonFile.readTree(file));
  }
}
