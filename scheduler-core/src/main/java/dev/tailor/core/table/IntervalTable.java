package dev.tailor.core.table;

import dev.tailor.core.Internal;
import dev.tailor.core.json.JsonFile;
import dev.tailor.core.model.Schedule;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A Few-to-Many interval table: one {@link Schedule} per load {@code q = 1..loads}, the number of
 * requests in the system, as the offline search chose it under its {@link Rule}: the paper's (Fig.
 * 7) or the throughput-consistent one. A load above the last row reads the last row.
 *
 * <p>Versioned JSON ({@value #FORMAT}, version {@value #VERSION}, kind {@value #KIND}) that records
 * the inputs the table was built from, the profile's SHA-256 and the rule included, and per row the
 * schedule with the tail, mean and average parallelism the model expects of it (and, under the
 * throughput rule, the arrival rate the row was built for). A version-1 table, from before the
 * rules, reads as the paper's rule. {@link #read} validates and names the file, the field and the
 * problem; {@link #write} writes a temporary file and moves it over the target, so that a watcher
 * never sees half a table. Immutable.
 */
@Internal
public final class IntervalTable {

  /** The value of {@code format} in every table. */
  public static final String FORMAT = "tailor-table";

  /** The version this code reads and writes. */
  public static final int VERSION = 2;

  /** The value of {@code kind} for an interval table. */
  public static final String KIND = "fm-interval";

  /**
   * The largest horizon a table may have, an hour: every interval is at most the horizon, so that a
   * table cannot hold a request for longer (a search request never needs a schedule that long; a
   * larger value is a mistake of unit).
   */
  public static final long MAX_HORIZON_NANOS = TimeUnit.HOURS.toNanos(1);

  private final Inputs inputs;
  private final String builtAt;
  private final double buildSeconds;
  private final List<Row> rows;
  private final Schedule[] byLoad; // byLoad[q - 1]

  /**
   * A table, checked by the rules {@link #read} checks a file by: the degrees ascend within {@code
   * 1..maxDegree} and end with it; the horizon {@code y} is at most {@link #MAX_HORIZON_NANOS};
   * there is one row per load {@code 1..loads}, in order, with one interval per degree; every
   * interval is at most {@code y}, and so is the sum of the running intervals {@code v1..v_{n-1}},
   * as the search (Fig. 7) enumerates them; a degree outside {@code inputs.degrees} has a zero
   * interval; a wait for an exit keeps {@code v0 = y}; under the throughput rule a row never waits
   * and records the positive arrival rate it was built for, under the paper's none; tail and mean
   * are finite and non-negative, and the parallelism {@code A(S)} lies in {@code 0..maxDegree}.
   *
   * @throws IllegalArgumentException naming the field by its path in the table file (e.g. {@code
   *     rows[3].intervalsNanos[2]}), the value and what was expected
   */
  public IntervalTable(Inputs inputs, String builtAt, double buildSeconds, List<Row> rows) {
    this.inputs = Objects.requireNonNull(inputs, "inputs");
    this.builtAt = Objects.requireNonNull(builtAt, "builtAt");
    this.buildSeconds = buildSeconds;
    this.rows = List.copyOf(rows);
    Bounds.nonNegative("buildSeconds", buildSeconds);
    check(inputs);
    Bounds.require(
        this.rows.size() == inputs.loads(),
        "rows",
        "expected one row per load 1.."
            + inputs.loads()
            + " (inputs.loads), got "
            + this.rows.size());
    byLoad = new Schedule[this.rows.size()];
    for (int i = 0; i < byLoad.length; i++) {
      Row r = this.rows.get(i);
      check(inputs, r, i);
      byLoad[i] = r.schedule();
    }
  }

  /** The rules of a table's inputs; the reader has checked each field's type and own minimum. */
  private static void check(Inputs in) {
    Objects.requireNonNull(in.rule(), "inputs.rule");
    Bounds.atLeast("inputs.maxDegree", in.maxDegree(), 1);
    Bounds.atLeast("inputs.stepNanos", in.stepNanos(), 1);
    Bounds.atLeast("inputs.horizonNanos", in.horizonNanos(), 0);
    Bounds.atMost(
        "inputs.horizonNanos", in.horizonNanos(), MAX_HORIZON_NANOS, "an hour in nanoseconds");
    int[] degrees = in.degrees();
    Bounds.require(degrees.length > 0, "inputs.degrees", "expected at least one degree, got none");
    for (int i = 0; i < degrees.length; i++) {
      int previous = i == 0 ? 0 : degrees[i - 1];
      Bounds.require(
          degrees[i] > previous && degrees[i] <= in.maxDegree(),
          "inputs.degrees[" + i + "]",
          "expected degrees ascending between 1 and inputs.maxDegree ("
              + in.maxDegree()
              + "), got "
              + degrees[i]
              + (i == 0 ? "" : " after " + previous));
    }
    Bounds.require(
        degrees[degrees.length - 1] == in.maxDegree(),
        "inputs.degrees",
        "must end with inputs.maxDegree (" + in.maxDegree() + "), got " + Arrays.toString(degrees));
    Bounds.require(
        in.phi() > 0 && in.phi() <= 1, "inputs.phi", "must be in (0, 1], got " + in.phi());
  }

  /** The rules of row {@code i}, which the online policy depends on (see the constructor). */
  private static void check(Inputs in, Row r, int i) {
    String at = "rows[" + i + "]";
    Bounds.require(
        r.load() == i + 1,
        at + ".load",
        "expected " + (i + 1) + " (rows go by load from 1), got " + r.load());
    Schedule s = r.schedule();
    int n = in.maxDegree();
    Bounds.require(
        s.maxDegree() == n,
        at + ".intervalsNanos",
        "expected " + n + " intervals (inputs.maxDegree), got " + s.maxDegree());
    long y = in.horizonNanos();
    boolean[] allowed = new boolean[n + 1];
    for (int d : in.degrees()) {
      allowed[d] = true;
    }
    long running = 0;
    for (int d = 0; d < n; d++) {
      String interval = at + ".intervalsNanos[" + d + "]";
      long v = s.intervalNanos(d);
      Bounds.atMost(interval, v, y, "inputs.horizonNanos");
      if (d > 0) {
        Bounds.require(
            v == 0 || allowed[d],
            interval,
            "degree "
                + d
                + " is not in inputs.degrees "
                + Arrays.toString(in.degrees())
                + ", so its interval must be 0, got "
                + v);
        running += v; // no overflow: each term is at most y <= MAX_HORIZON_NANOS
      }
    }
    Bounds.require(
        running <= y,
        at + ".intervalsNanos",
        "the running intervals v1.. sum to "
            + running
            + ", more than inputs.horizonNanos ("
            + y
            + ")");
    if (in.rule().isPaper()) {
      Bounds.require(
          !s.awaitsExit() || s.waitNanos() == y,
          at + ".intervalsNanos[0]",
          "a row that waits for an exit keeps v0 = inputs.horizonNanos ("
              + y
              + "), got "
              + s.waitNanos());
      Bounds.require(
          r.arrivalRate() == 0,
          at + ".arrivalRate",
          "the paper's rule builds rows for no arrival rate, got " + r.arrivalRate());
    } else {
      Bounds.require(
          !s.awaitsExit(), at + ".awaitExit", "the throughput rule's rows never wait, got true");
      Bounds.require(
          s.waitNanos() == 0,
          at + ".intervalsNanos[0]",
          "the throughput rule's rows never wait, got v0 = " + s.waitNanos());
      Bounds.positive(at + ".arrivalRate", r.arrivalRate());
    }
    Bounds.nonNegative(at + ".tailNanos", r.tailNanos());
    Bounds.nonNegative(at + ".meanNanos", r.meanNanos());
    // A(S) is busy thread time over latency: at most n, give or take the rounding of its sums.
    Bounds.require(
        Double.isFinite(r.parallelism())
            && r.parallelism() >= 0
            && r.parallelism() <= n * (1 + 1e-9),
        at + ".parallelism",
        "must be between 0 and inputs.maxDegree (" + n + "), got " + r.parallelism());
  }

  /**
   * What a table was built from.
   *
   * @param profile the demand profile's file, as given
   * @param profileDigest {@code sha256:} and the hex SHA-256 of the profile file
   * @param requests the profile's requests
   * @param bins demand bins the search used, 0 for every request
   * @param cores the cores of the target machine
   * @param rule how a row's schedule was chosen
   * @param maxDegree n, the highest degree
   * @param degrees the degrees a schedule could use (the others' intervals were held at 0)
   * @param stepNanos the grid's step
   * @param horizonNanos y: the largest interval, and the most the running intervals may sum to
   * @param phi the tail's quantile
   * @param loads the rows: loads 1 to this
   * @param tuning how the rule's inputs were chosen ({@code tables tune}), or null if they were
   *     given
   */
  public record Inputs(
      String profile,
      String profileDigest,
      int requests,
      int bins,
      int cores,
      Rule rule,
      int maxDegree,
      int[] degrees,
      long stepNanos,
      long horizonNanos,
      double phi,
      int loads,
      String tuning) {}

  /**
   * The rule that chose each row's schedule.
   *
   * <ul>
   *   <li>{@value #PAPER} (Haque et al., ASPLOS'15, §4.1, Fig. 7): of every schedule, waits
   *       included, the lowest tail with {@code q·A(S) <= targetParallelism}. Its model has no
   *       queueing: a wait counts as no threads, so under load the rows delay and leave cores idle.
   *   <li>{@value #THROUGHPUT}: each row is built for the arrival rate {@code λ} that produces its
   *       load, {@code queueFactor·λ·E[T] = q}; of the schedules without a wait, the lowest tail
   *       whose busy thread time keeps {@code λ·E[busy] <= utilization·cores}. Waiting is left to
   *       the admission queue.
   * </ul>
   *
   * @param mode {@value #PAPER} or {@value #THROUGHPUT}
   * @param targetParallelism the paper's target_p; 0 under the throughput rule
   * @param utilization ρ, the share of the cores the busy thread time may fill; 0 under the paper's
   * @param queueFactor qs, requests in the system per request in service; 0 under the paper's
   */
  public record Rule(
      String mode, double targetParallelism, double utilization, double queueFactor) {

    /** The paper's mode. */
    public static final String PAPER = "paper";

    /** The throughput-consistent mode. */
    public static final String THROUGHPUT = "throughput";

    /**
     * Checks the values for the mode.
     *
     * @throws IllegalArgumentException on an unknown mode or a value out of its range
     */
    public Rule {
      if (PAPER.equals(mode)) {
        if (!(targetParallelism > 0) || utilization != 0 || queueFactor != 0) {
          throw new IllegalArgumentException(
              "the paper's rule needs a target parallelism > 0 and nothing else, got "
                  + targetParallelism);
        }
      } else if (THROUGHPUT.equals(mode)) {
        if (!(utilization > 0 && utilization <= 1)
            || !(queueFactor >= 1)
            || targetParallelism != 0) {
          throw new IllegalArgumentException(
              "the throughput rule needs a utilization in (0, 1] and a queue factor >= 1, got "
                  + utilization
                  + " and "
                  + queueFactor);
        }
      } else {
        throw new IllegalArgumentException(
            "mode must be " + PAPER + " or " + THROUGHPUT + ", got " + mode);
      }
    }

    /** The paper's rule with target_p. */
    public static Rule paper(double targetParallelism) {
      return new Rule(PAPER, targetParallelism, 0, 0);
    }

    /** The throughput-consistent rule with ρ and qs. */
    public static Rule throughput(double utilization, double queueFactor) {
      return new Rule(THROUGHPUT, 0, utilization, queueFactor);
    }

    /** Whether this is the paper's rule. */
    public boolean isPaper() {
      return PAPER.equals(mode);
    }

    @Override
    public String toString() {
      return isPaper()
          ? "paper, target parallelism " + trim(targetParallelism)
          : "throughput, utilization " + trim(utilization) + ", queue factor " + trim(queueFactor);
    }

    private static String trim(double v) {
      return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
  }

  /**
   * One row: the schedule for a load and what the model expects of it.
   *
   * @param load q, the number of requests in the system
   * @param schedule the schedule
   * @param tailNanos its φ-tail over the profile
   * @param meanNanos its mean
   * @param parallelism A(S), so that {@code q·A(S)} threads are busy on average
   * @param arrivalRate under the throughput rule, the arrival rate (requests per second) the row
   *     was built for; 0 under the paper's
   */
  public record Row(
      int load,
      Schedule schedule,
      double tailNanos,
      double meanNanos,
      double parallelism,
      double arrivalRate) {

    /** A row of the paper's rule, built for no particular arrival rate. */
    public Row(
        int load, Schedule schedule, double tailNanos, double meanNanos, double parallelism) {
      this(load, schedule, tailNanos, meanNanos, parallelism, 0);
    }
  }

  /** What the table was built from. */
  public Inputs inputs() {
    return inputs;
  }

  /** When the table was built, ISO-8601. */
  public String builtAt() {
    return builtAt;
  }

  /** Names the table by when and from what it was built, for logs. */
  @Override
  public String toString() {
    return "the interval table built at " + builtAt + " (" + inputs.profileDigest() + ")";
  }

  /** How long the build took. */
  public double buildSeconds() {
    return buildSeconds;
  }

  /** The rows, for loads 1, 2, .... */
  public List<Row> rows() {
    return rows;
  }

  /**
   * The schedule for a load: row {@code q}, the first row below 1 and the last above the last.
   * Allocates nothing.
   */
  public Schedule schedule(int load) {
    return byLoad[Math.max(1, Math.min(load, byLoad.length)) - 1];
  }

  /** Writes the table as JSON, atomically and durably (see {@link JsonFile#writeAtomically}). */
  public void write(Path file) throws IOException {
    JsonFile.writeAtomically(file, IntervalTableJson.tree(this));
  }

  /**
   * Reads and validates a table.
   *
   * @throws IOException if the file cannot be read, is not JSON, or is not a valid interval table;
   *     the message names the file, the field and what was expected
   */
  public static IntervalTable read(Path file) throws IOException {
    return new IntervalTableJson(file).read();
  }
}
