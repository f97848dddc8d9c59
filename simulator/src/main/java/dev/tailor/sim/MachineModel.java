package dev.tailor.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFields;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;

/**
 * The machine part of a {@link Calibration}: what the measured machine does to every request
 * whatever its query, each measured by {@code tailor calibrate} and drawn from by the simulator
 * (seeded, so that a simulation still repeats exactly), with no constant of its own:
 *
 * <ul>
 *   <li>{@code stalls}: moments when nothing of the process runs (the noise meter's oversleeps
 *       beyond the wake-up every sleep costs, the GC pauses among them taken out): they come as a
 *       Poisson process at the measured rate, each as long as a draw from the measured durations,
 *       and stop every thread of the simulated server meanwhile;
 *   <li>{@code gcPauses}: stop-the-world pauses of the collector, as many per request served as
 *       were measured (after each completed request, one begins with that probability), each as
 *       long as a draw from the measured durations, stopping every thread;
 *   <li>{@code coRun}: how much slower a thread runs while {@code b} of the machine's threads run
 *       requests ({@code coRun[b - 1]}, 1 at {@code b = 1}): the run-time factor of co-running
 *       requests, applied to every running thread's pace whenever the count of working threads
 *       changes;
 *   <li>{@code warmStart}: how fast a request runs that waited for its thread, against one that
 *       found a thread idle. Measured, a busy server serves faster than its light-load run times
 *       say; the reading is that a thread going straight from one request to the next runs it on a
 *       core that has not idled. It multiplies the run time of every request that started after its
 *       arrival (it queued), 1 where not measured.
 * </ul>
 *
 * <p>A model belongs to the core count it was measured on; {@link #scaledTo} gives it for another
 * by the rules its javadoc states, and only when a user asks for it ({@link Calibration#scalable}).
 *
 * @param stalls the stalls that stop the process
 * @param gcPauses the collector's pauses
 * @param coRun the run-time factor by busy threads, {@code coRun[0] == 1}, one entry per core of
 *     the machine it describes
 * @param coRunRequests how many measured requests each factor rests on (0 where interpolated)
 * @param warmStart the run-time factor of a request that queued, 1 where not measured
 */
public record MachineModel(
    Stalls stalls, GcPauses gcPauses, double[] coRun, long[] coRunRequests, double warmStart) {

  /**
   * The stalls that stop the whole process.
   *
   * @param windowNanos the time the meter measured them over
   * @param events how many stalls it saw in that time
   * @param floorNanos the oversleep every sleep has (the median), which is not a stall
   * @param durationsNanos the stalls' durations, 101 percentiles (0 to 100)
   */
  public record Stalls(long windowNanos, long events, long floorNanos, long[] durationsNanos) {

    /** Checks the fields; copies the durations. */
    public Stalls {
      if (windowNanos < 1 || events < 0 || floorNanos < 0) {
        throw new IllegalArgumentException(
            "stalls need a positive window and non-negative events and floor");
      }
      durationsNanos = Calibration.percentiles(durationsNanos, "stalls.durationsNanos");
    }

    /** Stalls per second of wall time. */
    public double perSecond() {
      return events * 1e9 / windowNanos;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Stalls s
          && windowNanos == s.windowNanos
          && events == s.events
          && floorNanos == s.floorNanos
          && Arrays.equals(durationsNanos, s.durationsNanos);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(events) * 31 + Arrays.hashCode(durationsNanos);
    }
  }

  /**
   * The collector's stop-the-world pauses.
   *
   * @param requests the requests served while they were counted
   * @param pauses how many pauses there were
   * @param durationsNanos their durations, 101 percentiles (0 to 100)
   */
  public record GcPauses(long requests, long pauses, long[] durationsNanos) {

    /** Checks the fields; copies the durations. */
    public GcPauses {
      if (requests < 1 || pauses < 0) {
        throw new IllegalArgumentException("GC pauses need requests >= 1 and pauses >= 0");
      }
      durationsNanos = Calibration.percentiles(durationsNanos, "gcPauses.durationsNanos");
    }

    /** Pauses per request served. */
    public double perRequest() {
      return pauses / (double) requests;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof GcPauses g
          && requests == g.requests
          && pauses == g.pauses
          && Arrays.equals(durationsNanos, g.durationsNanos);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(pauses) * 31 + Arrays.hashCode(durationsNanos);
    }
  }

  /**
   * Checks the fields; copies the arrays.
   *
   * @throws IllegalArgumentException if a part is missing, the co-run factors are not one per core,
   *     starting at 1, each positive, or the warm-start factor is not positive
   */
  public MachineModel {
    if (stalls == null || gcPauses == null || coRun == null || coRunRequests == null) {
      throw new IllegalArgumentException("a machine model needs stalls, GC pauses and co-run");
    }
    if (coRun.length < 1 || coRun.length != coRunRequests.length || coRun[0] != 1) {
      throw new IllegalArgumentException(
          "coRun needs one factor per core, the first 1, and as many request counts");
    }
    for (double f : coRun) {
      if (!(f > 0 && f < 100)) {
        throw new IllegalArgumentException("a co-run factor must lie in (0, 100), got " + f);
      }
    }
    if (!(warmStart > 0 && warmStart < 100)) {
      throw new IllegalArgumentException(
          "a warm-start factor must lie in (0, 100), got " + warmStart);
    }
    coRun = coRun.clone();
    coRunRequests = coRunRequests.clone();
  }

  /** A model without a warm-start factor (1: a request runs alike whether it queued or not). */
  public MachineModel(Stalls stalls, GcPauses gcPauses, double[] coRun, long[] coRunRequests) {
    this(stalls, gcPauses, coRun, coRunRequests, 1);
  }

  /**
   * The run-time factor of a request by whether it started after its arrival ({@link #warmStart}).
   */
  public double startFactor(boolean queued) {
    return queued ? warmStart : 1;
  }

  /** The cores this model describes: one co-run factor each. */
  public int cores() {
    return coRun.length;
  }

  /** The run-time factor while {@code busy} threads work: 1 for none or one, the last beyond. */
  public double coRunAt(int busy) {
    return busy <= 1 ? 1 : coRun[Math.min(busy, coRun.length) - 1];
  }

  /**
   * This model for a machine of {@code cores} cores, by the rules a calibration is scaled by:
   *
   * <ul>
   *   <li>stalls keep their rate per second and their durations (a stall stops the whole process,
   *       whatever its cores);
   *   <li>GC pauses keep their rate per request served and their durations (the garbage a request
   *       makes does not depend on the cores);
   *   <li>the co-run factor at {@code b} busy of {@code cores} is the measured one at the same
   *       share of the measured machine's cores busy: at {@code 1 + (b - 1) (C - 1) / (cores - 1)}
   *       busy of its {@code C}, interpolated linearly between the measured counts; a measured
   *       factor below 1 is carried as 1. Requests measured running faster beside others than alone
   *       say that the measured machine is slower idle (a core woken from its idle state, a
   *       frequency raised under load), which its per-query part already holds at the light load it
   *       was measured at; carried to many cores, it would make every busy thread faster than any
   *       measurement shows;
   *   <li>the warm-start factor stays on fewer cores than measured: it is a core's own, going
   *       straight from one request to the next, and a replay of one and two workers interleaved
   *       held it from 2 cores to 1. On more cores a factor below 1 is carried as 1, as the co-run
   *       factor is: a speed-up checked nowhere there would make every queued request faster.
   * </ul>
   */
  public MachineModel scaledTo(int cores) {
    if (cores < 1) {
      throw new IllegalArgumentException("cores must be >= 1, got " + cores);
    }
    if (cores == coRun.length) {
      return this;
    }
    double[] factors = new double[cores];
    long[] requests = new long[cores];
    int measured = coRun.length;
    for (int b = 1; b <= cores; b++) {
      double at = cores == 1 ? 1 : 1 + (b - 1) * (measured - 1) / (double) (cores - 1);
      int low = (int) Math.floor(at);
      int high = Math.min(measured, low + 1);
      double f = at - low;
      factors[b - 1] = Math.max(1, coRun[low - 1] + f * (coRun[high - 1] - coRun[low - 1]));
    }
    factors[0] = 1;
    double warm = cores > measured ? Math.max(1, warmStart) : warmStart;
    return new MachineModel(stalls, gcPauses, factors, requests, warm);
  }

  /**
   * This model for requests that each do {@code share} of a measured request's work, as a shard's
   * part of a query does: GC pauses keep their durations and come {@code share} times as often per
   * request (the garbage a request makes goes with its work); stalls and co-run stay.
   */
  public MachineModel forShare(double share) {
    if (!(share > 0 && share <= 1)) {
      throw new IllegalArgumentException(
          "a share of a request's work lies in (0, 1], got " + share);
    }
    long requests = Math.max(1, Math.round(gcPauses.requests() / share));
    return new MachineModel(
        stalls,
        new GcPauses(requests, gcPauses.pauses(), gcPauses.durationsNanos()),
        coRun,
        coRunRequests,
        warmStart);
  }

  /** Reads the model of a calibration file; {@code at} is its path, e.g. {@code "model."}. */
  static MachineModel read(JsonFields fields, JsonNode m, String at) throws IOException {
    JsonNode s = fields.object(m, "stalls", at);
    JsonNode g = fields.object(m, "gcPauses", at);
    String sAt = at + "stalls.";
    String gAt = at + "gcPauses.";
    long window = fields.integer(s, "windowNanos", sAt, 1);
    long events = fields.integer(s, "events", sAt, 0);
    long floor = fields.integer(s, "floorNanos", sAt, 0);
    long[] stallDurations = CalibrationReader.distribution(fields, s, "durationsNanos", sAt);
    long requests = fields.integer(g, "requests", gAt, 1);
    long pauses = fields.integer(g, "pauses", gAt, 0);
    long[] gcDurations = CalibrationReader.distribution(fields, g, "durationsNanos", gAt);
    double[] coRun = fields.positiveNumbers(m, "coRun", at);
    long[] coRunRequests = fields.longs(m, "coRunRequests", at, 0);
    if (coRun.length < 1 || coRun[0] != 1) {
      throw fields.problem(at + "coRun", "expected one factor per core, the first 1");
    }
    if (coRunRequests.length != coRun.length) {
      throw fields.problem(
          at + "coRunRequests", "expected " + coRun.length + " counts, one per co-run factor");
    }
    // Absent in a calibration written before it was measured: no warm-start effect.
    double warmStart = m.has("warmStart") ? fields.number(m, "warmStart", at) : 1;
    if (!(warmStart > 0 && warmStart < 100)) {
      throw fields.problem(at + "warmStart", "expected a factor in (0, 100), got " + warmStart);
    }
    return new MachineModel(
        new Stalls(window, events, floor, stallDurations),
        new GcPauses(requests, pauses, gcDurations),
        coRun,
        coRunRequests,
        warmStart);
  }

  /** The model in one line, e.g. for the calibration's summary. */
  public String describe() {
    StringBuilder co = new StringBuilder();
    for (int b = 1; b <= coRun.length; b++) {
      co.append(b == 1 ? "" : ", ")
          .append(String.format(Locale.ROOT, "%d: x%.2f", b, coRun[b - 1]));
    }
    return String.format(
        Locale.ROOT,
        "stalls %.1f/s (P50 %.3f ms, P99 %.3f ms, max %.3f ms), GC %.4f pauses a request (P50 %.1f"
            + " ms, max %.1f ms), co-run by busy threads %s, warm start x%.2f",
        stalls.perSecond(),
        stalls.durationsNanos()[50] / 1e6,
        stalls.durationsNanos()[99] / 1e6,
        stalls.durationsNanos()[100] / 1e6,
        gcPauses.perRequest(),
        gcPauses.durationsNanos()[50] / 1e6,
        gcPauses.durationsNanos()[100] / 1e6,
        co,
        warmStart);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MachineModel m
        && stalls.equals(m.stalls)
        && gcPauses.equals(m.gcPauses)
        && Arrays.equals(coRun, m.coRun)
        && Arrays.equals(coRunRequests, m.coRunRequests)
        && Double.compare(warmStart, m.warmStart) == 0;
  }

  @Override
  public int hashCode() {
    return stalls.hashCode() * 31 + Arrays.hashCode(coRun);
  }

  @Override
  public String toString() {
    return describe();
  }
}
