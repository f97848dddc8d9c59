package dev.tailor.sweep;

import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.load.IndexSegments;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.Estimate;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PooledLatency;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.IndexLayout;
import dev.tailor.sim.Peer;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.tables.FmTableTuner;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The capacity plan ({@code tailor plan}): for each core count, which policy of a candidate list
 * holds a P99 target up to the highest of the given loads, its predicted P50 and P99 there with
 * intervals over arrival seeds, and the fewest of the core counts that hold the target at a peak
 * load. Every prediction is a simulated sweep ({@link SimulatedSweep}) of the profile on that many
 * cores, every policy under one degree cap, each point pooled over its seeds ({@link
 * PooledLatency}: the seeds' histograms merged, each percentile with a 95% interval by bootstrap
 * over the seeds). The candidate {@value #TUNED_FM} is Few-to-Many's work-conserving policy on a
 * table tuned for that core count as {@code tables tune fm} tunes one ({@link FmTableTuner}, the
 * throughput rule, against {@link #FM_BASELINES}), written beside the plan so that it can be run.
 *
 * <p>A policy holds the target up to load L when at every given load up to L its pooled P99 (the
 * point estimate) is at most the target and no seed saturated. The best policy at a core count
 * holds it to the highest load; among equals, the one with the lower P99 there, then the first
 * listed. A target below what no policy can go under ({@link #bound}) is refused before anything is
 * simulated.
 *
 * <p>This class runs the plan; the bound is {@link PlanBound}'s, the tuned candidate {@link
 * TunedFm}'s, and the reading of the points into predictions and choices {@link PlanChoice}'s.
 */
public final class CapacityPlan {

  /** The candidate that stands for Few-to-Many's work-conserving policy on a tuned table. */
  public static final String TUNED_FM = "fm-tuned";

  /** The candidates by default: the built-ins that need no table and are not clairvoyant. */
  public static final List<String> DEFAULT_POLICIES =
      List.of("seq", "fixed:2", "adaptive", "wq-linear", "steal-first", "admit-first", TUNED_FM);

  /** The baselines the tuned table must beat, as {@code tables tune fm} has them by default. */
  public static final List<String> FM_BASELINES =
      List.of("seq", "fixed:2", "adaptive", "wq-linear");

  /** The format of the plan's JSON. */
  public static final String FORMAT = "tailor-plan";

  /**
   * What to plan.
   *
   * @param cores the core counts to answer for, each simulated with one thread a core
   * @param rps the loads, requests/s, at least one
   * @param peakRps the peak load to find the fewest cores for, or null
   * @param targetNanos the P99 target
   * @param policies the candidates: registry specifications and {@value #TUNED_FM}
   * @param maxDegree the degree cap of every policy
   * @param seeds arrival seeds a point, at least 1
   * @param seed the first seed
   * @param requests requests a simulated point, a tenth of them warm-up
   * @param model the simulator's work model
   * @param quantumNanos the policies' tick
   * @param calibration the machine's calibration (already checked against the profile), or null
   * @param fmUtilizations the tuned table's candidate utilizations
   * @param fmQueueFactors the tuned table's candidate queue factors
   * @param tableDir where the tuned tables are written
   * @param extraCores a core count simulated at {@code extraRps} too (to set beside a replay), or
   *     null
   * @param extraRps loads simulated at {@code extraCores} besides {@code rps}
   */
  public record Settings(
      List<Integer> cores,
      List<Double> rps,
      Double peakRps,
      long targetNanos,
      List<String> policies,
      int maxDegree,
      int seeds,
      long seed,
      int requests,
      Simulator.WorkModel model,
      long quantumNanos,
      Calibration calibration,
      List<Double> fmUtilizations,
      List<Double> fmQueueFactors,
      Path tableDir,
      Integer extraCores,
      List<Double> extraRps) {

    /**
     * Checks and copies.
     *
     * @throws IllegalArgumentException naming the setting that is out of range
     */
    public Settings {
      cores = List.copyOf(new TreeSet<>(cores));
      rps = List.copyOf(new TreeSet<>(rps));
      policies = List.copyOf(policies);
      fmUtilizations = List.copyOf(fmUtilizations);
      fmQueueFactors = List.copyOf(fmQueueFactors);
      extraRps = List.copyOf(extraRps);
      require(!cores.isEmpty() && cores.get(0) >= 1, "--cores: at least one count, each >= 1");
      require(!rps.isEmpty() && rps.get(0) > 0, "--rps: at least one load, each > 0");
      require(peakRps == null || peakRps > 0, "--peak must be > 0");
      require(targetNanos > 0, "--target-p99 must be > 0");
      require(!policies.isEmpty(), "--policies: at least one");
      require(maxDegree >= 1, "--max-degree must be >= 1");
      require(seeds >= 1, "--seeds must be >= 1");
      require(requests >= 100, "--requests must be >= 100");
    }

    private static void require(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException(message);
      }
    }

    /** The loads simulated at {@code c} cores: the plan's, the peak, and the extra ones there. */
    List<Double> loadsAt(int c) {
      TreeSet<Double> loads = new TreeSet<>(rps);
      if (peakRps != null) {
        loads.add(peakRps);
      }
      if (extraCores != null && extraCores == c) {
        loads.addAll(extraRps);
      }
      return List.copyOf(loads);
    }
  }

  /**
   * The least P99 any policy can reach: each request alone, never queued, at its best degree up to
   * the cap. Its sequential P99 is the same at degree 1.
   *
   * @param sequentialP99Ms the profile's P99 at degree 1, as served (times the calibration's run
   *     scale), milliseconds
   * @param bestP99Ms the P99 of each request's time at its best degree up to the cap, likewise
   * @param maxDegree the cap
   */
  public record Bound(double sequentialP99Ms, double bestP99Ms, int maxDegree) {}

  /**
   * One policy at one load on one core count.
   *
   * @param policy its specification (the tuned table's file for {@value #TUNED_FM})
   * @param rps the load
   * @param saturated whether a seed saturated
   * @param p50Ms the pooled P50 with its interval over the seeds, milliseconds
   * @param p99Ms the pooled P99 with its interval over the seeds, milliseconds
   */
  public record Prediction(
      String policy, double rps, boolean saturated, Estimate p50Ms, Estimate p99Ms) {

    /** Whether it holds a target: unsaturated, its pooled P99 at most the target. */
    public boolean holds(double targetMs) {
      return !saturated && p99Ms.known() && p99Ms.value() <= targetMs;
    }
  }

  /**
   * The answer for one core count.
   *
   * @param cores the cores
   * @param predictions every policy at every load simulated there, by policy then load
   * @param best the policy that holds the target to the highest load, or null if none holds it at
   *     the lowest
   * @param heldToRps the highest load it holds it to, or NaN
   * @param fmTable the tuned table's file and chosen rule, or null where it was not a candidate
   */
  public record AtCores(
      int cores, List<Prediction> predictions, String best, double heldToRps, String fmTable) {

    /** Copies the list. */
    public AtCores {
      predictions = List.copyOf(predictions);
    }

    /** The prediction of {@code policy} at {@code rps}, or null. */
    public Prediction at(String policy, double rps) {
      for (Prediction p : predictions) {
        if (p.policy().equals(policy) && p.rps() == rps) {
          return p;
        }
      }
      return null;
    }
  }

  /**
   * The plan.
   *
   * @param format always {@value #FORMAT}
   * @param version 1
   * @param workload what was simulated
   * @param calibration the calibration's summary, or null
   * @param targetMs the P99 target, milliseconds
   * @param rps the plan's loads
   * @param peakRps the peak, or null
   * @param maxDegree the degree cap of every policy
   * @param seeds arrival seeds a point
   * @param requests requests a point
   * @param bound the least P99 any policy can reach
   * @param byCores the answer per core count, ascending
   * @param coresForPeak the fewest of the core counts at which a policy holds the target at the
   *     peak, or null (no peak, or none does)
   * @param policyAtPeak the policy with the lowest P99 there among those that hold it, or null
   */
  public record Result(
      String format,
      int version,
      String workload,
      String calibration,
      double targetMs,
      List<Double> rps,
      Double peakRps,
      int maxDegree,
      int seeds,
      int requests,
      Bound bound,
      List<AtCores> byCores,
      Integer coresForPeak,
      String policyAtPeak) {

    /** Copies the lists. */
    public Result {
      rps = List.copyOf(rps);
      byCores = List.copyOf(byCores);
    }

    /** The answer for {@code cores}, or null. */
    public AtCores atCores(int cores) {
      return byCores.stream().filter(a -> a.cores() == cores).findFirst().orElse(null);
    }
  }

  private CapacityPlan() {}

  /**
   * The least P99 any policy can reach on {@code profile} as served under {@code calibration} (see
   * {@link PlanBound}).
   */
  public static Bound bound(DemandProfile profile, Calibration calibration, int maxDegree) {
    return PlanBound.of(profile, calibration, maxDegree);
  }

  /**
   * Refuses a target no policy can meet, saying why.
   *
   * @throws IllegalArgumentException if the target is below the bound
   */
  public static void requireFeasible(Bound bound, long targetNanos) {
    PlanBound.requireFeasible(bound, targetNanos);
  }

  /**
   * Plans: checks the target against the bound, then for every core count tunes the Few-to-Many
   * table where it is a candidate, simulates every candidate at every load over the seeds, and
   * chooses.
   *
   * @param corpus how the simulated points name what they ran on
   * @param workload how the plan names the workload
   * @param profileName the profile's file, recorded in a tuned table
   * @param profileDigest the profile's digest, recorded in a tuned table
   * @param log a line per simulated point and tuning step
   * @throws IllegalArgumentException if the target is below the bound, a candidate is not a policy,
   *     or the calibration cannot be used on a core count (naming its field)
   * @throws IOException if a tuned table cannot be written
   */
  public static Result plan(
      DemandProfile profile,
      String corpus,
      String workload,
      String profileName,
      String profileDigest,
      Settings s,
      PrintWriter log)
      throws IOException {
    Bound bound = bound(profile, s.calibration(), s.maxDegree());
    requireFeasible(bound, s.targetNanos());
    for (String p : s.policies()) {
      // A bad specification is refused before any simulation.
      if (Peer.isSpec(p)) {
        Peer.parse(p, 1);
      } else if (!p.equals(TUNED_FM)) {
        PolicyRegistry.of(p).close();
      }
    }
    // The plain-Lucene peers slice the profile's index, where it is on this machine.
    IndexLayout layout =
        s.policies().stream().anyMatch(Peer::isSpec) ? IndexSegments.ofProfile(profile) : null;
    double targetMs = s.targetNanos() / 1e6;
    List<AtCores> byCores = new ArrayList<>();
    for (int cores : s.cores()) {
      List<Double> loads = s.loadsAt(cores);
      Simulator.Config config =
          Workloads.counted(
              cores,
              s.quantumNanos(),
              s.requests(),
              List.of(s.targetNanos()),
              s.model(),
              s.calibration());
      List<String> specs = new ArrayList<>();
      String fmTable = null;
      for (String p : s.policies()) {
        if (p.equals(TUNED_FM)) {
          FmTableTuner.Tuned tuned =
              TunedFm.tune(profile, profileName, profileDigest, s, cores, config, log);
          Path file = s.tableDir().resolve("fm-wc-" + cores + "cores.json");
          tuned.table().write(file);
          fmTable = file + " (" + tuned.chosen().rule() + ")";
          specs.add("fm-wc:" + file);
        } else {
          // A peer is named with its pool at these cores, as a real sweep names it.
          specs.add(Peer.isSpec(p) ? Peer.parse(p, cores).spec() : p);
        }
      }
      log.printf(
          "%d cores: %d policies x %d loads x %d seeds%n",
          cores, specs.size(), loads.size(), s.seeds());
      log.flush();
      List<PointResult> points =
          new SimulatedSweep(
                  profile,
                  corpus,
                  config,
                  SweepPlan.counted("poisson", s.seed(), s.requests()),
                  loads,
                  specs,
                  s.seeds(),
                  s.seed(),
                  s.maxDegree(),
                  layout)
              .run(log);
      List<Prediction> predictions = PlanChoice.predictions(points, specs, loads, s.seeds());
      PlanChoice.Best best = PlanChoice.best(predictions, specs, s.rps(), targetMs);
      byCores.add(new AtCores(cores, predictions, best.spec(), best.heldToRps(), fmTable));
    }
    PlanChoice.AtPeak peak = PlanChoice.atPeak(byCores, s.peakRps(), targetMs);
    return new Result(
        FORMAT,
        1,
        workload,
        s.calibration() == null ? null : s.calibration().toString(),
        targetMs,
        s.rps(),
        s.peakRps(),
        s.maxDegree(),
        s.seeds(),
        s.requests(),
        bound,
        byCores,
        peak.cores(),
        peak.policy());
  }
}
