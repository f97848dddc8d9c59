package dev.tailor.core.table;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.tailor.core.Internal;
import dev.tailor.core.json.JsonFile;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A TPC target table (Jeon et al., ASPLOS'16, §3.3): the target completion time {@code E} for each
 * load, the load being the threads busy on long requests (LongT, the paper's default, §4.6) or all
 * busy threads ({@link LoadMetric}), with the speedup profiles of the request groups that turn a
 * predicted time into a degree (§3.1).
 *
 * <p>Rows are {@code (d_i, e_i)} with loads ascending; a load {@code d} reads the {@code e_i} with
 * {@code d_{i-1} < d <= d_i}, the last row ({@code d = ∞}) every load above the others. The groups
 * are the paper's three (short, medium, long, by predicted sequential time; 30 and 80 ms in the
 * paper's Bing workload), their thresholds stated in the table because a workload of other sizes
 * needs them scaled; the long threshold is also what counts a request as long for LongT.
 *
 * <p>Versioned JSON ({@value IntervalTable#FORMAT}, version {@value #VERSION}, kind {@value #KIND})
 * that records what the table was built from (the profile's and the model's SHA-256 included) and
 * how the search went. {@link #read} validates and names the file, the field and the problem;
 * {@link #write} writes a temporary file and moves it over the target. Immutable; the lookups
 * allocate nothing.
 */
@Internal
public final class TargetTable {

  /** The version this code reads and writes. */
  public static final int VERSION = 1;

  /** The value of {@code kind} for a target table. */
  public static final String KIND = "tpc-target";

  /** The load bound of the last row: every load above the others. */
  public static final int INFINITE = Integer.MAX_VALUE;

  private final Inputs inputs;
  private final Groups groups;
  private final List<Row> rows;
  private final String builtAt;
  private final double buildSeconds;
  private final Search search;
  private final int[] upTo;
  private final long[] targets;

  /**
   * A table, checked by the rules {@link #read} checks a file by: at least one arrival rate, each
   * finite and positive, with one finite non-negative weight each, the weights summing above 0; the
   * quantile in {@code (0, 1)}; each group's speedup curve reaching {@code inputs.maxDegree}; rows
   * whose loads ascend, the last for every load ({@link #INFINITE}); the search's tails finite and
   * non-negative. The targets need not rise with the load: the search sets each on its own.
   *
   * @throws IllegalArgumentException naming the field by its path in the table file (e.g. {@code
   *     rows[2].upToLongThreads}), the value and what was expected
   */
  public TargetTable(
      Inputs inputs,
      Groups groups,
      List<Row> rows,
      String builtAt,
      double buildSeconds,
      Search search) {
    this.inputs = Objects.requireNonNull(inputs, "inputs");
    this.groups = Objects.requireNonNull(groups, "groups");
    this.rows = List.copyOf(rows);
    this.builtAt = Objects.requireNonNull(builtAt, "builtAt");
    this.buildSeconds = buildSeconds;
    this.search = Objects.requireNonNull(search, "search");
    Bounds.nonNegative("buildSeconds", buildSeconds);
    check(inputs);
    curve("groups.shortSpeedup", groups.shortCurve(), inputs.maxDegree());
    curve("groups.mediumSpeedup", groups.mediumCurve(), inputs.maxDegree());
    curve("groups.longSpeedup", groups.longCurve(), inputs.maxDegree());
    Bounds.require(!this.rows.isEmpty(), "rows", "expected at least one row, got none");
    upTo = new int[this.rows.size()];
    targets = new long[upTo.length];
    for (int i = 0; i < upTo.length; i++) {
      Row r = this.rows.get(i);
      String at = "rows[" + i + "].upToLongThreads";
      if (i == upTo.length - 1) {
        Bounds.require(
            r.upToLongThreads() == INFINITE,
            at,
            "the last row must be for every load (null in a file), got " + r.upToLongThreads());
      } else {
        Bounds.require(
            r.upToLongThreads() != INFINITE,
            at,
            "only the last row may be for every load, got " + r.upToLongThreads());
      }
      Bounds.require(
          i == 0 || r.upToLongThreads() > upTo[i - 1],
          at,
          "loads must ascend, got " + r.upToLongThreads() + " after " + (i == 0 ? 0 : upTo[i - 1]));
      upTo[i] = r.upToLongThreads();
      targets[i] = r.targetNanos();
    }
    Bounds.atLeast("search.iterations", search.iterations(), 0);
    Bounds.atLeast("search.measurements", search.measurements(), 0);
    Bounds.nonNegative("search.initialTailNanos", search.initialTailNanos());
    Bounds.nonNegative("search.finalTailNanos", search.finalTailNanos());
  }

  /** The rules of a table's inputs that relate its fields. */
  private static void check(Inputs in) {
    Bounds.atLeast("inputs.maxDegree", in.maxDegree(), 1);
    double[] rates = in.ratesRps();
    double[] weights = in.weights();
    Bounds.require(rates.length > 0, "inputs.ratesRps", "expected at least one rate, got none");
    double total = 0;
    for (int i = 0; i < rates.length; i++) {
      Bounds.positive("inputs.ratesRps[" + i + "]", rates[i]);
    }
    Bounds.require(
        weights.length == rates.length,
        "inputs.weights",
        "expected one weight per rate in inputs.ratesRps ("
            + rates.length
            + "), got "
            + weights.length);
    for (int i = 0; i < weights.length; i++) {
      Bounds.nonNegative("inputs.weights[" + i + "]", weights[i]);
      total += weights[i];
    }
    Bounds.require(total > 0, "inputs.weights", "must not all be 0: the tail is weighted by them");
    Bounds.require(
        in.quantile() > 0 && in.quantile() < 1,
        "inputs.quantile",
        "must be in (0, 1), got " + in.quantile());
  }

  private static void curve(String at, SpeedupCurve c, int maxDegree) {
    Bounds.require(
        c.maxDegree() >= maxDegree,
        at,
        "expected speedups at degrees 1.."
            + maxDegree
            + " (inputs.maxDegree), got "
            + c.maxDegree());
  }

  /**
   * What a table was built from.
   *
   * @param profile the demand profile's file, as given
   * @param profileDigest {@code sha256:} and the hex SHA-256 of the profile file
   * @param requests the profile's requests
   * @param model the predictor model's file whose predictions the search simulated, or null for the
   *     profile's true times (a table for the perfect predictor)
   * @param modelDigest the model file's digest, or null
   * @param predictions how the simulated predictions were made ({@code model}, {@code cross-fit K},
   *     {@code known})
   * @param cores the simulated server's threads
   * @param maxDegree P, the highest degree
   * @param ratesRps the arrival rates MeasureTail simulates: the production load range
   * @param weights each rate's weight in the weighted tail
   * @param quantile the tail's quantile, e.g. 0.99
   * @param stepNanos δ, the search's step
   * @param seeds the seeds of arrivals each rate is simulated with
   * @param workModel the simulator's work model
   * @param loadMetric what the rows' loads count
   */
  public record Inputs(
      String profile,
      String profileDigest,
      int requests,
      String model,
      String modelDigest,
      String predictions,
      int cores,
      int maxDegree,
      double[] ratesRps,
      double[] weights,
      double quantile,
      long stepNanos,
      int seeds,
      String workModel,
      LoadMetric loadMetric) {}

  /**
   * What a row's load counts (Jeon et al., ASPLOS'16, §4.6 compares them): the threads busy on long
   * requests (LongT, the paper's default), or all busy threads (AllT). LongT tells little on a
   * workload whose long requests are rare enough that at any rate none is usually running; AllT
   * then still tells a light load from a heavy one.
   */
  public enum LoadMetric {
    /** LongT: threads busy on requests flagged long. */
    LONG_THREADS("long-threads"),
    /** AllT: every busy thread of the budget. */
    ALL_THREADS("all-threads");

    private final String label;

    LoadMetric(String label) {
      this.label = label;
    }

    /** The metric's name in a table file and on the command line. */
    @JsonValue
    public String label() {
      return label;
    }

    /** The metric named {@code label}, or null. */
    public static LoadMetric of(String label) {
      for (LoadMetric m : values()) {
        if (m.label.equals(label)) {
          return m;
        }
      }
      return null;
    }

    /** The load this metric reads from the system now. */
    public int read(SystemView system) {
      return this == LONG_THREADS ? system.busyThreadsOnLongRequests() : system.busyWorkers();
    }
  }

  /**
   * The request groups by predicted sequential time, and each group's average speedup (§3.1).
   *
   * @param mediumFromNanos a prediction below this is short
   * @param longFromNanos a prediction at or above this is long; also the long flag's threshold
   * @param shortCurve the short group's speedup profile
   * @param mediumCurve the medium group's
   * @param longCurve the long group's
   */
  public record Groups(
      long mediumFromNanos,
      long longFromNanos,
      SpeedupCurve shortCurve,
      SpeedupCurve mediumCurve,
      SpeedupCurve longCurve) {

    /**
     * Checks the thresholds.
     *
     * @throws IllegalArgumentException unless {@code 0 < mediumFrom <= longFrom}
     */
    public Groups {
      if (mediumFromNanos <= 0 || longFromNanos < mediumFromNanos) {
        throw new IllegalArgumentException(
            "need 0 < mediumFrom <= longFrom, got " + mediumFromNanos + ", " + longFromNanos);
      }
    }

    /** The speedup profile of a request predicted to take {@code predictedNanos}. */
    public SpeedupCurve curveFor(long predictedNanos) {
      return predictedNanos >= longFromNanos
          ? longCurve
          : predictedNanos >= mediumFromNanos ? mediumCurve : shortCurve;
    }
  }

  /**
   * One row: the target for loads up to {@code upToLongThreads}.
   *
   * @param upToLongThreads {@code d_i}, or {@link #INFINITE} for the last row
   * @param targetNanos {@code e_i}
   */
  public record Row(int upToLongThreads, long targetNanos) {

    /**
     * Checks the row.
     *
     * @throws IllegalArgumentException if the load is negative or the target not positive
     */
    public Row {
      if (upToLongThreads < 0 || targetNanos <= 0) {
        throw new IllegalArgumentException(
            "need a load >= 0 and a target > 0, got " + upToLongThreads + ", " + targetNanos);
      }
    }
  }

  /**
   * How the search went.
   *
   * @param iterations steps taken (each raised one target by δ)
   * @param measurements simulated tables (MeasureTail calls), cache hits excluded
   * @param initialTailNanos the weighted tail of the initial table
   * @param finalTailNanos the weighted tail of this table
   */
  public record Search(
      int iterations, int measurements, double initialTailNanos, double finalTailNanos) {}

  /** What the table was built from. */
  public Inputs inputs() {
    return inputs;
  }

  /** The request groups and their speedup profiles. */
  public Groups groups() {
    return groups;
  }

  /** The rows, loads ascending, the last for every load above the others. */
  public List<Row> rows() {
    return rows;
  }

  /** When the table was built, ISO-8601. */
  public String builtAt() {
    return builtAt;
  }

  /** How long the build took, in seconds. */
  public double buildSeconds() {
    return buildSeconds;
  }

  /** How the search went. */
  public Search search() {
    return search;
  }

  /** The predicted time from which a request counts as long: the long group's threshold. */
  public long longThresholdNanos() {
    return groups.longFromNanos();
  }

  /**
   * The target {@code E} at load {@code longThreads}: {@code e_i} with {@code d_{i-1} < d <= d_i}.
   */
  public long targetNanos(int longThreads) {
    for (int i = 0; i < upTo.length - 1; i++) {
      if (longThreads <= upTo[i]) {
        return targets[i];
      }
    }
    return targets[targets.length - 1];
  }

  /**
   * TPC's predictive degree (§3.1): the smallest {@code i <= P} with {@code L / S_i <= E}, {@code
   * S} the speedup profile of the prediction's group; {@code P} if none is fast enough. An unknown
   * prediction runs sequentially.
   */
  public int degreeFor(long predictedNanos, long targetNanos) {
    if (predictedNanos == RequestView.UNKNOWN || predictedNanos <= targetNanos) {
      return 1;
    }
    SpeedupCurve s = groups.curveFor(predictedNanos);
    int p = inputs.maxDegree();
    for (int i = 2; i < p; i++) {
      if (predictedNanos / s.at(i) <= targetNanos) {
        return i;
      }
    }
    return p;
  }

  /** The same table with other targets, row for row: a step of the search. */
  public TargetTable withTargets(long[] targetsNanos) {
    if (targetsNanos.length != rows.size()) {
      throw new IllegalArgumentException(
          "expected " + rows.size() + " targets, got " + targetsNanos.length);
    }
    List<Row> next = new ArrayList<>(rows.size());
    for (int i = 0; i < targetsNanos.length; i++) {
      next.add(new Row(upTo[i], targetsNanos[i]));
    }
    return new TargetTable(inputs, groups, next, builtAt, buildSeconds, search);
  }

  /** The same table stamped with its build's time, duration and search. */
  public TargetTable built(String at, double seconds, Search how) {
    return new TargetTable(inputs, groups, rows, at, seconds, how);
  }

  /** The targets, row for row. */
  public long[] targetsNanos() {
    return targets.clone();
  }

  /** Names the table by when and from what it was built, for logs. */
  @Override
  public String toString() {
    return "the target table built at " + builtAt + " (" + inputs.profileDigest() + ")";
  }

  /** Writes the table as JSON, atomically and durably (see {@link JsonFile#writeAtomically}). */
  public void write(Path file) throws IOException {
    JsonFile.writeAtomically(file, TargetTableJson.tree(this));
  }

  /**
   * Reads and validates a table.
   *
   * @throws IOException if the file cannot be read, is not JSON, or is not a valid target table;
   *     the message names the file, the field and what was expected
   */
  public static TargetTable read(Path file) throws IOException {
    return new TargetTableJson(file).read();
  }
}
