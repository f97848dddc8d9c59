package dev.tailor.core.table;

import dev.tailor.core.Internal;
import dev.tailor.core.json.JsonFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A tail-control large-request threshold table (Li et al., PPoPP'16, §4.1, Fig. 3 and 4): for each
 * number of active requests {@code q = 1..qMax}, the work (processing time summed over every thread
 * that worked on a request) beyond which a request is serialized. The higher the load, the lower
 * the threshold; the longer the target, the higher.
 *
 * <p>A load above {@code qMax} reads the last row, a load below 1 the first.
 *
 * <p>Versioned JSON ({@value IntervalTable#FORMAT}, version {@value #VERSION}, kind {@value #KIND})
 * that records what the table was computed from: the target, the rate and cores, the work
 * distribution's source and its SHA-256, and the bins. {@link #read} validates and names the file,
 * the field and the problem; {@link #write} writes a temporary file and moves it over the target.
 * Immutable; the lookups allocate nothing.
 */
@Internal
public final class ThresholdTable {

  /** The version this code reads and writes. */
  public static final int VERSION = 1;

  /** The value of {@code kind} for a threshold table. */
  public static final String KIND = "tc-threshold";

  /** How a file writes an infinite {@code expectedMisses}, which JSON has no number for. */
  static final String INFINITE_MISSES = "Infinity";

  private final Inputs inputs;
  private final List<Row> rows;
  private final String builtAt;
  private final double buildSeconds;
  private final long[] thresholds;

  /**
   * What a table was computed from.
   *
   * @param source the work distribution's source: a profile's file as given, or a description of a
   *     generated workload
   * @param sourceDigest {@code sha256:} and the hex SHA-256 of the profile file, or null for a
   *     generated workload
   * @param requests the requests the distribution was taken from
   * @param bins the distribution's bins, {@code n}
   * @param binning how the bins were cut, e.g. {@code log} or {@code exact}
   * @param meanWorkNanos the mean work per request, {@code w̄}
   * @param targetNanos the target latency
   * @param rps the requests per second the table is computed for
   * @param cores the server's cores, {@code m}
   * @param utilization {@code U = w̄ · rps}, in cores
   * @param qMax the highest number of active requests with a row
   */
  public record Inputs(
      String source,
      String sourceDigest,
      int requests,
      int bins,
      String binning,
      long meanWorkNanos,
      long targetNanos,
      double rps,
      int cores,
      double utilization,
      int qMax) {}

  /**
   * One row: the thresholds for a number of active requests and the misses the calculation expects
   * of them during a pileup.
   *
   * @param activeRequests {@code q}, from 1
   * @param thresholdNanos tail-control's threshold
   * @param expectedMisses the expected misses at that threshold, {@code miss_l + miss_s}: at least
   *     0, and infinite when every threshold overruns the system (the calculation then keeps the
   *     smallest)
   */
  public record Row(int activeRequests, long thresholdNanos, double expectedMisses) {

    /**
     * Checks the row.
     *
     * @throws IllegalArgumentException if the load is below 1, the threshold below 0 or the misses
     *     below 0 or not a number
     */
    public Row {
      if (activeRequests < 1 || thresholdNanos < 0 || !(expectedMisses >= 0)) {
        throw new IllegalArgumentException(
            "need activeRequests >= 1, a threshold >= 0 and misses >= 0, got "
                + activeRequests
                + ", "
                + thresholdNanos
                + ", "
                + expectedMisses);
      }
    }
  }

  /**
   * A table, checked by the rules {@link #read} checks a file by: one row per load {@code 1..qMax},
   * in order; the rate is finite and positive; the utilization is finite, at least 0 and below the
   * cores (the calculation's model excludes an overloaded system). The thresholds need not fall as
   * the load rises: the calculation picks each row's on its own.
   *
   * @throws IllegalArgumentException naming the field by its path in the table file (e.g. {@code
   *     rows[3].activeRequests}), the value and what was expected
   */
  public ThresholdTable(Inputs inputs, List<Row> rows, String builtAt, double buildSeconds) {
    this.inputs = Objects.requireNonNull(inputs, "inputs");
    this.rows = List.copyOf(rows);
    this.builtAt = Objects.requireNonNull(builtAt, "builtAt");
    this.buildSeconds = buildSeconds;
    Bounds.nonNegative("buildSeconds", buildSeconds);
    Bounds.positive("inputs.rps", inputs.rps());
    Bounds.nonNegative("inputs.utilization", inputs.utilization());
    Bounds.require(
        inputs.utilization() < inputs.cores(),
        "inputs.utilization",
        "must be below inputs.cores ("
            + inputs.cores()
            + "): the calculation's model excludes an overloaded system, got "
            + inputs.utilization());
    Bounds.require(
        !this.rows.isEmpty() && this.rows.size() == inputs.qMax(),
        "rows",
        "expected one row per load 1.."
            + inputs.qMax()
            + " (inputs.qMax), got "
            + this.rows.size());
    thresholds = new long[this.rows.size()];
    for (int i = 0; i < thresholds.length; i++) {
      Row r = this.rows.get(i);
      Bounds.require(
          r.activeRequests() == i + 1,
          "rows[" + i + "].activeRequests",
          "expected " + (i + 1) + " (rows go by load from 1), got " + r.activeRequests());
      thresholds[i] = r.thresholdNanos();
    }
  }

  /** What the table was computed from. */
  public Inputs inputs() {
    return inputs;
  }

  /** The rows, for {@code 1..qMax} active requests. */
  public List<Row> rows() {
    return rows;
  }

  /** When the table was computed (ISO-8601). */
  public String builtAt() {
    return builtAt;
  }

  /** How long the computation took, in seconds. */
  public double buildSeconds() {
    return buildSeconds;
  }

  /**
   * The threshold for a number of active requests: above {@code qMax} the last row's, below 1 the
   * first's.
   */
  public long thresholdNanos(int activeRequests) {
    return thresholds[Math.min(thresholds.length, Math.max(1, activeRequests)) - 1];
  }

  /** The same table with its build time and duration recorded. */
  public ThresholdTable built(String at, double seconds) {
    return new ThresholdTable(inputs, rows, at, seconds);
  }

  @Override
  public String toString() {
    return "the threshold table built at "
        + builtAt
        + " ("
        + (inputs.sourceDigest() != null ? inputs.sourceDigest() : inputs.source())
        + ")";
  }

  /** Writes the table as JSON, atomically and durably (see {@link JsonFile#writeAtomically}). */
  public void write(Path file) throws IOException {
    JsonFile.writeAtomically(file, ThresholdTableJson.tree(this));
  }

  /**
   * Reads and validates a table.
   *
   * @throws IOException if the file cannot be read, is not JSON, or is not a valid threshold table;
   *     the message names the file, the field and what was expected
   */
  public static ThresholdTable read(Path file) throws IOException {
    return new ThresholdTableJson(file).read();
  }
}
