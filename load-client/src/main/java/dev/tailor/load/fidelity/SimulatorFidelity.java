package dev.tailor.load.fidelity;

import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.load.LuceneTarget;
import dev.tailor.load.Sweep;
import dev.tailor.load.report.ReplayedTrace;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.SpeedProbe;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.CalibrationFit;
import dev.tailor.sim.HindsightOracle;
import dev.tailor.sim.IndexLayout;
import dev.tailor.sim.Peer;
import dev.tailor.sim.PeerSimulator;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Simulates every measured point of a replay again: the same profile's requests, the same policy
 * and rate, and from the replay's {@link SweepPlan} (with each point's recorded seed) the same
 * arrivals, query order and warm-up. Each point is simulated under every work model the profile
 * allows: fluid (Few-to-Many's, the tables') always, units (the runtime's) where the profile has
 * unit times. The points of the plain Lucene baselines ({@link LuceneTarget}) are left out: they
 * ran no policy of Tailor's, and the simulator has no model of Lucene's own threads.
 */
public final class SimulatorFidelity {

  /**
   * One measured point beside its simulations.
   *
   * @param measured the replay's point
   * @param simulated one simulation per work model, in the comparison's model order
   */
  public record Row(PointResult measured, List<PointResult> simulated) {

    /** Copies the list. */
    public Row {
      simulated = List.copyOf(simulated);
    }
  }

  /**
   * One cell, a policy at a load: its measured runs, and per work model its simulations over the
   * comparison's seeds.
   *
   * @param policy the policy
   * @param load the offered load, requests/s
   * @param measured the cell's measured runs, by repetition
   * @param simulated per work model (in the comparison's order), one simulation per seed: the first
   *     of the runs' own seed (the replay's arrivals), then the next seeds
   */
  public record CellRuns(
      String policy, double load, List<PointResult> measured, List<List<PointResult>> simulated) {

    /** Copies the lists. */
    public CellRuns {
      measured = List.copyOf(measured);
      simulated = simulated.stream().map(List::copyOf).toList();
    }
  }

  /**
   * What the comparison found.
   *
   * @param workers the simulated threads
   * @param models the work models simulated, in column order
   * @param rows one per measured point of a Tailor policy, by load then policy
   * @param mismatches the simulations (of unsaturated points) that counted another number of
   *     requests than the replay did: a sign that the plan was not the replay's
   * @param cells the measured cells, by load then policy, each with its simulations over the seeds
   * @param seeds the arrival seeds each cell was simulated with
   */
  public record Comparison(
      int workers,
      List<Simulator.WorkModel> models,
      List<Row> rows,
      List<Mismatch> mismatches,
      List<CellRuns> cells,
      int seeds) {

    /** Copies the lists. */
    public Comparison {
      models = List.copyOf(models);
      rows = List.copyOf(rows);
      mismatches = List.copyOf(mismatches);
      cells = List.copyOf(cells);
    }
  }

  /**
   * A simulation that counted another number of requests than the replay.
   *
   * @param measured the replay's point
   * @param simulatedRequests the requests the simulation counted
   */
  public record Mismatch(PointResult measured, long simulatedRequests) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%s at %s rps: %d requests measured, %d simulated",
          measured.policy(),
          measured.offeredRps(),
          measured.sent(),
          simulatedRequests);
    }
  }

  private SimulatorFidelity() {}

  /**
   * Refuses a profile of other queries than the report replayed.
   *
   * @throws IllegalArgumentException naming both files and both traces if they differ
   */
  public static void requireSameQueries(
      MeasuredReport report, Path profileFile, DemandProfile profile) {
    if (report.trace() == null || profile.environment() == null) {
      return; // nothing recorded to compare: an older report or a hand-made profile
    }
    ReplayedTrace profiled =
        ReplayedTrace.of(Path.of(profile.environment().trace()), profile.requests().size());
    if (!profiled.sameQueriesAs(report.trace())) {
      throw new IllegalArgumentException(
          "profile "
              + profileFile
              + " is of trace "
              + profiled
              + ", but report "
              + report.dir()
              + " replayed trace "
              + report.trace()
              + "; profile the replayed queries (the same --trace and --limit)");
    }
  }

  /** The work models a profile can be simulated under: units only where it has unit times. */
  public static List<Simulator.WorkModel> models(DemandProfile profile) {
    return profile.requests().stream().allMatch(DemandProfile.Request::hasUnitTimes)
        ? List.of(Simulator.WorkModel.FLUID, Simulator.WorkModel.UNITS)
        : List.of(Simulator.WorkModel.FLUID);
  }

  /**
   * Simulates every measured point, each simulation recording its miss ratio at a latency target
   * and charging every simulated request what {@code calibration} says a served one costs beyond
   * its profiled time; and every cell (a policy at a load) with {@code seeds} arrival seeds: its
   * runs' own seed, then the next ones, so that the cell's simulated percentiles pool over other
   * arrivals as its measured ones pool over runs.
   *
   * @param plan the replay's plan (arrivals, duration, warm-up); each point's own seed is used
   * @param workers the simulated threads
   * @param quantumNanos the policies' tick, as the replay's scheduler had it
   * @param targetNanos the latency target, or 0 for none
   * @param calibration the machine's calibration, or null for nothing beyond the profile
   * @param atRunSpeed whether to carry the calibration to the machine's speed when each point ran
   *     ({@link Calibration#atSpeed}): a row at its run's {@link SpeedProbe}, a cell at the median
   *     of its runs' (as measured where the runs or the calibration carry none)
   * @param seeds the arrival seeds of every cell, at least 1
   * @param layout the index's segments, for the plain Lucene baselines' points: simulated by the
   *     simulator's model of them ({@link PeerSimulator}); null leaves them out, as there is
   *     nothing to slice
   * @throws IllegalArgumentException if the plan's arrivals are not those a point records, every
   *     point is a plain Lucene baseline's and no layout is given, or {@code seeds} is below 1
   */
  public static Comparison compare(
      MeasuredReport report,
      DemandProfile profile,
      SweepPlan plan,
      int workers,
      long quantumNanos,
      long targetNanos,
      Calibration calibration,
      boolean atRunSpeed,
      int seeds,
      IndexLayout layout) {
    if (seeds < 1) {
      throw new IllegalArgumentException("--seeds must be >= 1, got " + seeds);
    }
    List<Simulator.WorkModel> models = models(profile);
    List<Row> rows = new ArrayList<>();
    List<Mismatch> mismatches = new ArrayList<>();
    Simulation simulation =
        new Simulation(
            profile,
            plan,
            workers,
            quantumNanos,
            targetNanos,
            calibration,
            layout,
            new HashMap<>());
    for (PointResult real : report.points()) {
      if (LuceneTarget.isSpec(real.policy()) && layout == null) {
        continue; // a real-run baseline, and no segments to slice for its model
      }
      List<PointResult> sims = new ArrayList<>();
      for (Simulator.WorkModel model : models) {
        PointResult sim = simulation.of(real, real.seed(), model, atRunSpeed ? real.probe() : null);
        if (sim.sent() != real.sent() && !real.saturated()) {
          mismatches.add(new Mismatch(real, sim.sent()));
        }
        sims.add(sim);
      }
      rows.add(new Row(real, sims));
    }
    Map<String, List<PointResult>> byCell = new java.util.LinkedHashMap<>();
    for (Row r : rows) {
      byCell
          .computeIfAbsent(
              r.measured().offeredRps() + "|" + r.measured().policy(), k -> new ArrayList<>())
          .add(r.measured());
    }
    List<CellRuns> cells = new ArrayList<>();
    for (List<PointResult> runs : byCell.values()) {
      PointResult first = runs.get(0);
      SpeedProbe speed = atRunSpeed ? CalibrationFit.speed(runs) : null;
      List<List<PointResult>> byModel = new ArrayList<>();
      for (Simulator.WorkModel model : models) {
        List<PointResult> overSeeds = new ArrayList<>();
        for (int k = 0; k < seeds; k++) {
          overSeeds.add(simulation.of(first, first.seed() + k, model, speed).withRepetition(k + 1));
        }
        byModel.add(overSeeds);
      }
      cells.add(new CellRuns(first.policy(), first.offeredRps(), runs, byModel));
    }
    if (rows.isEmpty() && !report.points().isEmpty()) {
      throw new IllegalArgumentException(
          "report "
              + report.dir()
              + " measured only the plain Lucene baselines, and their index's segments, which the"
              + " simulator's model of them slices, are not known; replay a policy of Tailor's"
              + " beside them, or give the profile's index");
    }
    return new Comparison(workers, models, rows, mismatches, cells, seeds);
  }

  /**
   * Simulates a measured point again on a seed's arrivals, each policy, load, seed and model once
   * (repetitions of a point share its plan, so they share its simulation).
   */
  private record Simulation(
      DemandProfile profile,
      SweepPlan plan,
      int workers,
      long quantumNanos,
      long targetNanos,
      Calibration calibration,
      IndexLayout layout,
      Map<String, PointResult> cache) {

    /**
     * The simulation of {@code real}'s policy and load on {@code seed}'s arrivals, the calibration
     * carried to the machine's speed {@code speed} (as measured where null).
     *
     * @throws IllegalArgumentException if the plan's arrivals are not those {@code real} records
     */
    PointResult of(PointResult real, long seed, Simulator.WorkModel model, SpeedProbe speed) {
      String key = real.policy() + "|" + real.offeredRps() + "|" + seed + "|" + model + "|" + speed;
      PointResult cached = cache.get(key);
      if (cached != null) {
        return cached;
      }
      PointPlan point = plan.withSeed(seed).point(real.offeredRps(), profile.requests().size());
      if (!point.arrivals().equals(real.arrivals())) {
        throw new IllegalArgumentException(
            String.format(
                Locale.ROOT,
                "%s at %s rps: the replay's arrivals were %s, but arrivals %s give %s",
                real.policy(),
                real.offeredRps(),
                real.arrivals(),
                plan.arrivals(),
                point.arrivals()));
      }
      Simulator.Config config =
          new Simulator.Config(
              workers,
              quantumNanos,
              Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
              point.warmupRequests(),
              Math.max(1_000, point.requests()),
              targetNanos > 0 ? List.of(targetNanos) : List.of(),
              model,
              calibration == null || speed == null ? calibration : calibration.atSpeed(speed));
      PointResult sim;
      if (LuceneTarget.isSpec(real.policy())) {
        // A plain Lucene baseline: the peers' model, on its own pools and rules.
        Peer peer = Peer.parse(real.policy(), workers);
        sim = new PeerSimulator(profile, peer, layout, config).run(point, real.corpus());
      } else if (HindsightOracle.isTuned(real.policy())) {
        // The replay tuned the oracle's budget by simulating this very point, capped at the
        // workers as every policy of a demo is; tuned again here, it is the simulator's best.
        sim = HindsightOracle.tune(profile, config, point, real.corpus(), workers).result();
      } else {
        // A policy listed with {rps} ran the table of its point's load.
        try (Policy policy = PolicyRegistry.of(Sweep.atLoad(real.policy(), real.offeredRps()))) {
          sim = new Simulator(profile, policy, config).run(point, real.corpus());
        }
      }
      cache.put(key, sim);
      return sim;
    }
  }
}
