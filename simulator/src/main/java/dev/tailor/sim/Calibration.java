package dev.tailor.sim;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.tailor.core.json.JsonFile;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.Provenance;
import dev.tailor.measure.SpeedProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * What a served request costs on a machine beyond its profiled time, measured in a replay and
 * written down so that the simulator charges it too. A profile times each query alone on a warm
 * searcher; a served query also waits for a worker to wake, runs beside the load client and beside
 * other requests, is stopped with the whole process by stalls and GC pauses, and is answered after
 * its last unit ends. The calibration holds each of these as a measured distribution or factor, not
 * a constant, because their tails reach the latency's tail. It has two parts:
 *
 * <ul>
 *   <li>the <b>per-query part</b>, which relates one profile's times to the served ones and is used
 *       only with a profile of that index and trace: {@code runScale}, served run time over
 *       profiled time for a request run alone on the machine (the work every simulated request does
 *       is its profiled work times this, and it holds a core), and, since version 3, the {@link
 *       RunTimeMap}, that ratio by degree and by the request's place in the profile, which a
 *       simulation takes instead of the one scale where it is present;
 *   <li>the <b>machine part</b>, which any workload may take, a generated one too: {@code
 *       dispatchNanos} (admitted to first running, the wake-up of the thread that runs the request:
 *       it holds the request's slot but does no work), {@code completionNanos} and {@code
 *       sendLagNanos} (from the last unit's end to the answer the client saw, and the client's own
 *       lag in sending: neither holds a slot of the scheduler, so both only add to the latency the
 *       simulated client records), and, since version 2, the {@link MachineModel}: the stalls and
 *       GC pauses that stop every thread and the co-run slowdown by busy threads.
 * </ul>
 *
 * <p>Each distribution is its 101 percentiles (0 to 100) in nanoseconds; a simulated request draws
 * from it by inverse transform with linear interpolation, from a random stream seeded by the
 * point's seed, so that a simulation stays deterministic.
 *
 * <p>A calibration belongs to the machine and the workload it was measured on: {@link #check}
 * refuses a profile taken on another machine (cores, operating system, Java) or of another index or
 * trace, and warns when the calibration is older than the profile; {@link #modelFor} refuses to
 * simulate another core count than the one it was measured on unless it was read {@linkplain
 * #withScaling scalable}, and then scales its machine model by {@link MachineModel#scaledTo}'s
 * rules. Version 1 files (no machine model, no host, CPU or Java) and version 2 files (no run-time
 * map) still read.
 *
 * @param format always {@value #FORMAT}
 * @param version {@value #VERSION}, or 1 for a calibration read from an older file
 * @param createdAt when it was derived, ISO-8601
 * @param machine the machine it was measured on
 * @param workload the profile its per-query part was measured against, or null for a calibration of
 *     the machine part alone
 * @param source what it was derived from, e.g. the replay report and points
 * @param runScale served run time over profiled time of a request alone, at least 0.1; 1 without a
 *     per-query part
 * @param dispatchNanos the dispatch delay's 101 percentiles
 * @param completionNanos the completion delay's 101 percentiles
 * @param sendLagNanos the client's send lag's 101 percentiles
 * @param model the stalls, GC pauses and co-run slowdown, or null (a version 1 calibration)
 * @param runTimes the served run time by degree and percentile ({@link RunTimeMap}), part of the
 *     per-query part; null where not measured (before version 3, or a calibration of the machine
 *     part alone), and then every time is scaled by {@code runScale}
 * @param probe the machine's speed while the run-time map was measured (the median of its runs'
 *     {@link SpeedProbe}s), or null where they carried none; {@link #atSpeed} carries the map to
 *     another speed by it
 * @param scalable whether a user asked for the machine model to be scaled to another core count
 *     ({@link #withScaling}); never written
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
    long[] sendLagNanos,
    MachineModel model,
    RunTimeMap runTimes,
    SpeedProbe probe,
    @JsonIgnore boolean scalable) {

  /** The {@code format} field of every calibration file. */
  public static final String FORMAT = "tailor-calibration";

  /** The version this Tailor writes: 3, with the machine model and the run-time map. */
  public static final int VERSION = 3;

  /** The oldest version this Tailor reads: 1, without the machine model. */
  public static final int OLDEST_VERSION = 1;

  /** The percentiles each distribution holds: 0, 1, ..., 100. */
  public static final int PERCENTILES = 101;

  /**
   * The machine a calibration was measured on, as the measured points' provenance records it (host,
   * cores, CPU model, architecture, Java) and the profile its operating system.
   *
   * @param host the host name, or null where not recorded (a version 1 calibration, one made
   *     without the points' provenance)
   * @param cores the processors the JVM saw
   * @param cpu the CPU's model name, or null where not recorded
   * @param arch the architecture, or null where not recorded
   * @param java the Java version, e.g. {@code 25.0.3}, or null where not recorded
   * @param os the operating system and architecture, as a profile records it
   */
  public record Machine(String host, int cores, String cpu, String arch, String java, String os) {

    /** A machine known only by its cores and operating system, as version 1 recorded it. */
    public Machine(int cores, String os) {
      this(null, cores, null, null, null, os);
    }

    /** The machine a point's provenance and a profile's environment describe. */
    public static Machine of(Provenance.Machine m, String os) {
      return new Machine(m.host(), m.cores(), m.cpu(), m.arch(), m.java(), os);
    }
  }

  /**
   * The profile a calibration's per-query part was measured against, as it records its workload.
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
    if (machine == null) {
      throw new IllegalArgumentException("a calibration records its machine");
    }
    if (model != null && model.cores() != machine.cores()) {
      throw new IllegalArgumentException(
          "the machine model describes "
              + model.cores()
              + " cores, the machine has "
              + machine.cores());
    }
    dispatchNanos = percentiles(dispatchNanos, "dispatchNanos");
    completionNanos = percentiles(completionNanos, "completionNanos");
    sendLagNanos = percentiles(sendLagNanos, "sendLagNanos");
  }

  /** Checks and copies percentiles {@code p}; {@code name} names them in the error. */
  static long[] percentiles(long[] p, String name) {
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
   * A calibration without a machine model, measured on this machine against {@code profile},
   * created now: what version 1 held.
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
    return now(
        new Machine(e.cores(), e.os()),
        profile,
        source,
        runScale,
        new long[][] {dispatchNanos, completionNanos, sendLagNanos},
        null);
  }

  /**
   * A calibration with its machine model, measured on {@code machine} against {@code profile},
   * created now.
   *
   * @param source what it was derived from
   */
  public static Calibration measured(
      Provenance.Machine machine,
      DemandProfile profile,
      String source,
      double runScale,
      long[] dispatchNanos,
      long[] completionNanos,
      long[] sendLagNanos,
      MachineModel model) {
    return now(
        Machine.of(machine, profile.environment().os()),
        profile,
        source,
        runScale,
        new long[][] {dispatchNanos, completionNanos, sendLagNanos},
        model);
  }

  /**
   * A calibration created now against {@code profile}; {@code costs}: dispatch, completion, lag.
   */
  private static Calibration now(
      Machine machine,
      DemandProfile profile,
      String source,
      double runScale,
      long[][] costs,
      MachineModel model) {
    DemandProfile.Environment e = profile.environment();
    return new Calibration(
        FORMAT,
        VERSION,
        Instant.now().toString(),
        machine,
        new Workload(e.index(), e.trace(), e.takenAt()),
        source,
        runScale,
        costs[0],
        costs[1],
        costs[2],
        model,
        null,
        null,
        false);
  }

  /** Whether it has a per-query part (a workload and its run scale). */
  public boolean hasPerQueryPart() {
    return workload != null;
  }

  /**
   * Its machine part alone: no workload, a run scale of 1; what a generated (parametric,
   * log-normal) workload takes.
   */
  public Calibration machineOnly() {
    return with(null, 1, null, null, scalable);
  }

  /**
   * The same calibration for requests that each do {@code share} of a measured request's work
   * ({@link MachineModel#forShare}); itself without a machine model.
   */
  public Calibration forShare(double share) {
    if (model == null) {
      return this;
    }
    return new Calibration(
        format,
        version,
        createdAt,
        machine,
        workload,
        source,
        runScale,
        dispatchNanos,
        completionNanos,
        sendLagNanos,
        model.forShare(share),
        runTimes,
        probe,
        scalable);
  }

  /**
   * The same calibration with the run-time map {@code map}, measured at speed {@code speed} (null
   * where not probed), as part of its per-query part.
   */
  public Calibration withRunTimes(RunTimeMap map, SpeedProbe speed) {
    return with(workload, runScale, map, speed, scalable);
  }

  /**
   * This calibration carried to a moment when the machine's speed probe read {@code now}: its
   * run-time map's ratios from the median up scaled toward the change of the probe's long set (the
   * profile's top 1%), reached at P99 ({@link RunTimeMap#scaled}); itself where either probe or the
   * map is missing. The median and below stay as measured: the probe's short set read 1.0-1.8 times
   * its profiled time within one point's runs of a replay whose served median did not move, so its
   * reading is the probe's own noise, not the machine's.
   */
  public Calibration atSpeed(SpeedProbe now) {
    if (now == null || probe == null || runTimes == null) {
      return this;
    }
    double atTail = now.longRatio() / probe.longRatio();
    return with(workload, runScale, runTimes.scaled(1, atTail), now, scalable);
  }

  /**
   * {@code profile} as this calibration says it is served: through its {@linkplain RunTimeMap
   * run-time map} where it has one, else every time scaled by its run scale; predictions, which are
   * of profiled times as a real run's are, kept.
   */
  public DemandProfile served(DemandProfile profile) {
    DemandProfile served = runTimes == null ? profile.scaled(runScale) : runTimes.serve(profile);
    return served.withPredictions(profile.predictions());
  }

  /**
   * The same calibration, whose machine model may ({@code true}) or may not be scaled to another
   * core count than the one it was measured on ({@link #modelFor}).
   */
  public Calibration withScaling(boolean scalable) {
    return with(workload, runScale, runTimes, probe, scalable);
  }

  private Calibration with(
      Workload w, double scale, RunTimeMap map, SpeedProbe speed, boolean canScale) {
    return new Calibration(
        format,
        version,
        createdAt,
        machine,
        w,
        source,
        scale,
        dispatchNanos,
        completionNanos,
        sendLagNanos,
        model,
        map,
        speed,
        canScale);
  }

  /**
   * The machine model for a simulation of {@code workers} threads, one a core: the measured one on
   * its own core count, else scaled by {@link MachineModel#scaledTo}'s rules if this calibration is
   * {@link #scalable}; null where there is no model (a version 1 calibration).
   *
   * @throws IllegalArgumentException naming {@code machine.cores} if the core counts differ and
   *     scaling was not asked for
   */
  public MachineModel modelFor(int workers) {
    if (model == null || workers == machine.cores()) {
      return model;
    }
    if (!scalable) {
      throw new IllegalArgumentException(
          "calibration field machine.cores: the calibration was measured on "
              + machine.cores()
              + " cores, the simulation has "
              + workers
              + "; ask for its documented scaling (--scale-calibration) to use it there");
    }
    return model.scaledTo(workers);
  }

  /**
   * The calibration as {@code profile} takes it: whole for a measured profile, its machine part
   * alone ({@link #machineOnly}) for a generated one.
   */
  public Calibration forProfile(DemandProfile profile) {
    return CalibrationCheck.measured(profile) ? this : machineOnly();
  }

  /**
   * Checks that this calibration may be used with {@code profile}, and says what a user should know
   * about it; the rules are {@link CalibrationCheck}'s.
   *
   * @param file where the calibration was read from, for the message
   * @return a warning to print (the calibration is older than the profile, or the profile was not
   *     measured, so only the machine part is used), or null for none
   * @throws IOException naming the file and the field, if the profile was measured on another
   *     machine (cores, operating system, Java) or of another index or trace
   */
  public String check(Path file, DemandProfile profile) throws IOException {
    return CalibrationCheck.check(this, file, profile);
  }

  /** Writes the calibration as JSON, atomically (see {@link JsonFile#writeAtomically}). */
  public void write(Path file) throws IOException {
    JsonFile.writeAtomically(file, this);
  }

  /**
   * Reads and validates a calibration of version 1 to 3; a version 1 file reads without a machine
   * model, one before version 3 without a run-time map.
   *
   * @throws IOException if the file cannot be read, is not JSON, or is not a calibration of a
   *     version this Tailor reads; the message names the file, the field and what was expected
   */
  public static Calibration read(Path file) throws IOException {
    return CalibrationReader.read(file);
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
        && java.util.Objects.equals(workload, c.workload)
        && source.equals(c.source)
        && Double.compare(runScale, c.runScale) == 0
        && Arrays.equals(dispatchNanos, c.dispatchNanos)
        && Arrays.equals(completionNanos, c.completionNanos)
        && Arrays.equals(sendLagNanos, c.sendLagNanos)
        && java.util.Objects.equals(model, c.model)
        && java.util.Objects.equals(runTimes, c.runTimes)
        && java.util.Objects.equals(probe, c.probe)
        && scalable == c.scalable;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(dispatchNanos) * 31 + Double.hashCode(runScale);
  }

  @Override
  public String toString() {
    return String.format(
            java.util.Locale.ROOT,
            "calibration of %s (%d cores%s): run x%.2f, dispatch P50 %d ns P99 %d ns, completion"
                + " P50 %d ns P99 %d ns, send lag P50 %d ns P99 %d ns",
            workload == null ? "the machine alone" : workload.index(),
            machine.cores(),
            machine.host() == null ? "" : ", " + machine.host() + ", Java " + machine.java(),
            runScale,
            dispatchNanos[50],
            dispatchNanos[99],
            completionNanos[50],
            completionNanos[99],
            sendLagNanos[50],
            sendLagNanos[99])
        + (model == null ? "; no machine model" : "; " + model.describe())
        + (runTimes == null ? "" : "; " + runTimes.describe())
        + (probe == null
            ? ""
            : String.format(
                java.util.Locale.ROOT,
                "; speed probe x%.2f (median queries), x%.2f (longest)",
                probe.shortRatio(),
                probe.longRatio()));
  }
}
