package dev.tailor.sweep;

import dev.tailor.core.policy.DegreeCap;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.load.Sweep;
import dev.tailor.load.report.Report;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.HindsightOracle;
import dev.tailor.sim.IndexLayout;
import dev.tailor.sim.Peer;
import dev.tailor.sim.PeerSimulator;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A sweep of policies and loads in the simulator, each point repeated with successive seeds: the
 * points a replay would measure, for the same report.
 *
 * @param corpus how the points name what they ran on
 * @param plan the arrivals of every point, reseeded per repetition
 * @param rates the offered loads, requests per second
 * @param policies the policy specifications; {@value Sweep#LOAD} stands for the point's load, and a
 *     bare {@value HindsightOracle#SPEC} is tuned at every point; a plain-Lucene peer ({@link
 *     Peer}) runs in its own model ({@link PeerSimulator}) on the same arrivals
 * @param seeds how many repetitions, seeds {@code seed}, {@code seed + 1}, ...
 * @param cap the degree cap of every policy, or 0 for none; a peer has its own rule, uncapped
 * @param layout the index's segments the peers slice, or null where no peer is listed
 */
public record SimulatedSweep(
    DemandProfile profile,
    String corpus,
    Simulator.Config config,
    SweepPlan plan,
    List<Double> rates,
    List<String> policies,
    int seeds,
    long seed,
    int cap,
    IndexLayout layout) {

  /**
   * Copies the policies.
   *
   * @throws IllegalArgumentException naming the peer if a peer is listed without a layout
   */
  public SimulatedSweep {
    policies = List.copyOf(policies);
    for (String policy : policies) {
      if (Peer.isSpec(policy) && layout == null) {
        throw new IllegalArgumentException(
            "the plain-Lucene peer '"
                + policy
                + "' slices the index's segments: give them (--index-segments D1,D2,..., where"
                + " the command takes it) or a profile whose index is on this machine");
      }
    }
  }

  /**
   * Simulates every point, the policies innermost, each result carrying its repetition; a line per
   * point (and per oracle tuned) goes to {@code log}.
   */
  public List<PointResult> run(PrintWriter log) {
    PointProgress progress = new PointProgress(rates.size() * seeds * policies.size());
    List<PointResult> points = new ArrayList<>();
    for (double rate : rates) {
      for (int s = 0; s < seeds; s++) {
        PointPlan point = plan.withSeed(seed + s).point(rate, profile.requests().size());
        for (String policy : policies) {
          PointResult p = simulate(policy, point, log).withRepetition(s + 1);
          points.add(p);
          log.printf(
              "  %-16s %8.1f rps%s: p50 %8.2f ms  p99 %8.2f ms%s  (%s)%n",
              Report.displayName(p.policy()),
              rate,
              seeds > 1 ? ", seed " + point.seed() : "",
              p.latencyAt("p50") / 1e6,
              p.latencyAt("p99") / 1e6,
              p.saturated() ? "  SATURATED" : "",
              progress.pointDone());
          log.flush();
        }
      }
    }
    return points;
  }

  /**
   * Simulates one point of a policy under the degree cap, or of a peer by its own rule; a bare
   * oracle is tuned on the point, capped at the cap or else at the simulated cores.
   */
  private PointResult simulate(String policy, PointPlan point, PrintWriter log) {
    if (Peer.isSpec(policy)) {
      Peer peer = Peer.parse(policy, config.workers());
      return new PeerSimulator(profile, peer, layout, config).run(point, corpus);
    }
    if (HindsightOracle.isTuned(policy)) {
      HindsightOracle.Tuned tuned =
          HindsightOracle.tune(profile, config, point, corpus, cap > 0 ? cap : config.workers());
      log.printf(
          "  oracle at %.1f rps, seed %d, budgets tried: %s%n",
          point.offeredRps(), point.seed(), tuned.describe());
      return tuned.result();
    }
    String concrete = Sweep.atLoad(policy, point.offeredRps());
    Policy created = PolicyRegistry.of(concrete);
    try (Policy simulated = cap > 0 ? DegreeCap.of(created, cap) : created) {
      PointResult p = new Simulator(profile, simulated, config).run(point, corpus);
      // Reported as listed, so that one column holds the policy at every load.
      return concrete.equals(policy) ? p : p.withPolicy(p.policy().replace(concrete, policy));
    }
  }

  /** How a report describes the repetitions, or null for one seed. */
  public String order() {
    return seeds < 2
        ? null
        : "the repetitions are seeds "
            + seed
            + "-"
            + (seed + seeds - 1)
            + " (each its own arrivals and query order); simulated points do not share a machine,"
            + " so the order they ran in does not matter";
  }
}
