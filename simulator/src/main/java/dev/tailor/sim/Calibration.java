package dev.tailor.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFields;
import dev.tailor.core.json.JsonFile;
import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * What a served request costs on a machine beyond its profiled time, measured in a replay and
 * written down so that the simulator charges it too. A profile times each query alone on a warm
 * searcher; a served query also waits for a worker to wake, runs beside the load client that sends
 * it, and is answered after its last unit ends. The calibration holds each of these as a measured
 * distribution, not a constant, because their tails reach the latency's tail:
 *
 * <ul>
 *   <li>{@code runScale}: served run time over profiled time for requests run alone (sequential, at
 *       light load): the work every simulated request does is its profiled work times this, and it
 *       holds a core;
 *   <li>{@code dispatchNanos}: admitted to first running, the wake-up of the thread that runs the
 *       request: it holds the request's slot but does no work;
 *   <li>{@code completionNanos} and {@code sendLagNanos}: from the last unit's end to the answer
 *       seen by the client, and the client's own lag in sending; neither holds a slot of the
 *       scheduler, so both only add to the latency the simulated client records.
 * </ul>
 *
 * <p>Each distribution is its 101 percentiles (0 to 100) in nanoseconds; a simulated request draws
 * from it by inverse transform with linear interpolation, from a random stream seeded by the
 * point's seed, so that a simulation stays deterministic.
 *
 * <p>A calibration belongs to the machine and the workload it was measured on: {@link #check}
 * refuses a profile taken on another machine or of another index or trace, and warns when the
 * calibration is older than the profile.
 *
 * @param format always {@value #FORMAT}
 * @param version {@value #VERSION}
 * @param createdAt when it was derived, ISO-8601
 * @param machine the machine it was measured on
 * @param workload the profile it was measured against
 * @param source what it was derived from, e.g. the replay report and points
 * @param runScale served run time over profiled time, at least 0.1
 * @param dispatchNanos the dispatch delay's 101 percentiles
 * @param completionNanos the completion delay's 101 percentiles
 * @param sendLagNanos the client's send lag's 101 percentiles
 */
public record Calibration(
    String format,
    int version,
    String createdAt,
    Machine machine,
    Workload workload,
    String source,
    double runScale,
    long[] dispatchNanos,
    long[] completionNanos,
    long[] sendLagNanos) {

  /** The {@code format} field of every calibration file. */
  public static final String FORMAT = "tailor-calibration";

  /** The version this Tailor writes and reads. */
  public static final int VERSION = 1;

  /** The percentiles each distribution holds: 0, 1, ..., 100. */
  public static final int PERCENTILES = 101;

  /**
   * The machine a calibration was measured on, as a profile records it.
   *
   * @param cores the processors the JVM saw
   * @param os the operating system and architecture
   */
  public record Machine(int cores, String os) {}

  /**
   * The profile a calibration was measured against, as it records its workload.
   *
   * @param index the index's path as the profile gives it
   * @param trace the trace's path as the profile gives it
   * @param takenAt when that profile was started, ISO-8601
   */
  public record Workload(String index, String trace, String takenAt) {}

  /** Checks the fields; the arrays are copied. */
  public Calibration {
    if (!(runScale >= 0.1 && runScale <= 100)) {
      throw new IllegalArgumentException("runScale must be within 0.1..100, got " + runScale);
    }
    dispatchNanos = percentiles(dispatchNanos, "dispatchNanos");
    completionNanos = percentiles(completionNanos, "completionNanos");
    sendLagNanos = percentiles(sendLagNanos, "sendLagNanos");
  }

  private static long[] percentiles(long[] p, String name) {
    if (p == null || p.length != PERCENTILES) {
      throw new IllegalArgumentException(name + " must hold " + PERCENTILES + " percentiles");
    }
    for (int i = 0; i < p.length; i++) {
      if (p[i] < 0 || (i > 0 && p[i] < p[i - 1])) {
        throw new IllegalArgumentException(
            name + " must be non-negative and ascending, not at percentile " + i);
      }
    }
    return p.clone();
  }

  /**
   * A calibration measured on this machine against {@code profile}, created now.
   *
   * @param source what it was derived from
   */
  public static Calibration of(
      DemandProfile profile,
      String source,
      double runScale,
      long[] dispatchNanos,
      long[] completionNanos,
      long[] sendLagNanos) {
    DemandProfile.Environment e = profile.environment();
    return new Calibration(
        FORMAT,
        VERSION,
        Instant.now().toString(),
        new Machine(e.cores(), e.os()),
        new Workload(e.index(), e.trace(), e.takenAt()),
        source,
        runScale,
        dispatchNanos,
        completionNanos,
        sendLagNanos);
  }

  /**
   * Checks that this calibration may be used with {@code profile}, and says what a user should know
   * about it.
   *
   * @param file where the calibration was read from, for the message
   * @return a warning to print (the calibration is older than the profile, or the profile was not
   *     measured, so the calibration was never validated on it), or null for none
   * @throws IOException naming the file and the field, if the profile was measured on another
   *     machine or of another index or trace
   */
  public String check(Path file, DemandProfile profile) throws IOException {
    JsonFields fields = new JsonFields(file);
    DemandProfile.Environment e = profile.environment();
    if (e == null || e.takenAt() == null || e.index() == null) {
      return file
          + ": the profile was not measured (a given or parametric workload), so this calibration"
          + " from "
          + workload.index()
          + " was not validated on it";
    }
    if (machine.cores() != e.cores()) {
      throw fields.problem(
          "machine.cores",
          "the calibration was measured on "
              + machine.cores()
              + " cores, the profile on "
              + e.cores()
              + ": another machine");
    }
    if (!machine.os().equals(e.os())) {
      throw fields.problem(
          "machine.os",
          "the calibration was measured on "
              + machine.os()
              + ", the profile on "
              + e.os()
              + ": another machine");
    }
    if (!workload.index().equals(e.index()) || !workload.trace().equals(e.trace())) {
      throw fields.problem(
          "workload",
          "the calibration was measured on "
              + workload.index()
              + " with "
              + workload.trace()
              + ", the profile is of "
              + e.index()
              + " with "
              + e.trace()
              + ": another workload");
    }
    if (isBefore(createdAt, e.takenAt())) {
      return file
          + ": the calibration ("
          + createdAt
          + ") is older than the profile ("
          + e.takenAt()
          + "): derive it again from a replay of this profile";
    }
    return null;
  }

  private static boolean isBefore(String a, String b) {
    try {
      return Instant.parse(a).isBefore(Instant.parse(b));
    } catch (DateTimeParseException ex) {
      return false; // a profile with a local time: the comparison is not known
    }
  }

  /** Writes the calibration as JSON, atomically (see {@link JsonFile#writeAtomically}). */
  public void write(Path file) throws IOException {
    JsonFile.writeAtomically(file, this);
  }

  /**
   * Reads and validates a calibration.
   *
   * @throws IOException if the file cannot be read, is not JSON, or is not a calibration of this
   *     format version; the message names the file, the field and what was expected
   */
  public static Calibration read(Path file) throws IOException {
    JsonFields fields = new JsonFields(file);
    JsonNode root = JsonFile.readTree(file);
    fields.header(root, FORMAT, VERSION);
    JsonNode m = fields.object(root, "machine", "");
    JsonNode w = fields.object(root, "workload", "");
    double runScale = fields.number(root, "runScale", "");
    if (!(runScale >= 0.1 && runScale <= 100)) {
      throw fields.problem("runScale", "expected a number within 0.1..100, got " + runScale);
    }
    return new Calibration(
        FORMAT,
        VERSION,
        instant(fields, root, "createdAt"),
        new Machine(
            fields.smallInteger(m, "cores", "machine.", 1), fields.text(m, "os", "machine.")),
        new Workload(
            fields.text(w, "index", "workload."),
            fields.text(w, "trace", "workload."),
            fields.text(w, "takenAt", "workload.")),
        fields.text(root, "source", ""),
        runScale,
        distribution(fields, root, "dispatchNanos"),
        distribution(fields, root, "completionNanos"),
        distribution(fields, root, "sendLagNanos"));
  }

  private static String instant(JsonFields fields, JsonNode root, String field) throws IOException {
    String text = fields.text(root, field, "");
    try {
      Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw fields.problem(field, "expected an ISO-8601 instant, got \"" + text + "\"");
    }
    return text;
  }

  private static long[] distribution(JsonFields fields, JsonNode root, String field)
      throws IOException {
    long[] p = fields.longs(root, field, "", 0);
    if (p.length != PERCENTILES) {
      throw fields.problem(
          field, "expected " + PERCENTILES + " percentiles (0 to 100), got " + p.length);
    }
    for (int i = 1; i < p.length; i++) {
      if (p[i] < p[i - 1]) {
        throw fields.problem(field + "[" + i + "]", "percentiles must not decrease");
      }
    }
    return p;
  }

  /** A draw from percentiles {@code p} by inverse transform, interpolating between them. */
  static long draw(long[] p, SplittableRandom random) {
    double x = random.nextDouble() * (PERCENTILES - 1);
    int i = (int) x;
    if (i >= PERCENTILES - 1) {
      return p[PERCENTILES - 1];
    }
    double f = x - i;
    return Math.round(p[i] + f * (p[i + 1] - p[i]));
  }

  /** The median of percentiles {@code p}. */
  public static long median(long[] p) {
    return p[50];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Calibration c
        && format.equals(c.format)
        && version == c.version
        && createdAt.equals(c.createdAt)
        && machine.equals(c.machine)
        && workload.equals(c.workload)
        && source.equals(c.source)
        && Double.compare(runScale, c.runScale) == 0
        && Arrays.equals(dispatchNanos, c.dispatchNanos)
        && Arrays.equals(completionNanos, c.completionNanos)
        && Arrays.equals(sendLagNanos, c.sendLagNanos);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(dispatchNanos) * 31 + Double.hashCode(runScale);
  }

  @Override
  public String toString() {
    return String.format(
        java.util.Locale.ROOT,
        "calibration of %s (%d cores): run x%.2f, dispatch P50 %d ns P99 %d ns, completion P50 %d"
            + " ns P99 %d ns, send lag P50 %d ns P99 %d ns",
        workload.index(),
        machine.cores(),
        runScale,
        dispatchNanos[50],
        dispatchNanos[99],
        completionNanos[50],
        completionNanos[99],
        sendLagNanos[50],
        sendLagNanos[99]);
  }
}
