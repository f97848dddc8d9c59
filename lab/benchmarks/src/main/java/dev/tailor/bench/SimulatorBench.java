package dev.tailor.bench;

import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.ArrivalProcess;
import dev.tailor.sim.arrival.RequestOrder;
import dev.tailor.sim.model.ParametricProfile;
import java.io.PrintWriter;

/**
 * {@code bench simulator}: simulated requests per second of this machine's time, for the simple
 * policies, on the parametric profile at 16 simulated cores and about 60% load.
 */
public final class SimulatorBench {

  static final double GOAL = 500_000;

  /** The benchmark's name, as {@code ./tailor bench} knows it. */
  public static final String NAME = "simulator";

  private SimulatorBench() {}

  /**
   * Measures and prints the figures; {@code quick} measures less: a rough figure in a fraction of
   * the time.
   */
  public static void run(boolean quick, PrintWriter out) {
    int requests = quick ? 100_000 : 400_000;
    DemandProfile profile = ParametricProfile.generate(10_000, 16, 1);
    double mean = profile.meanSequentialNanos();
    double rate = 0.6 * 16 * 1e9 / mean;
    long[] offsets = ArrivalProcess.poisson(rate, 7).first(requests);
    int[] order = RequestOrder.shuffled(requests, profile.requests().size(), 7);
    out.printf(
        "%nsimulator: %,d requests per point, parametric profile, 16 simulated cores, %.0f rps"
            + " (about 60%% load); one thread of this machine%n",
        requests, rate);
    for (String policy : new String[] {"seq", "fixed:4", "rampup:20ms,4", "adaptive"}) {
      double seconds;
      try (Policy p = PolicyRegistry.of(policy)) {
        Simulator sim = new Simulator(profile, p, Simulator.Config.of(16, requests));
        sim.run(offsets, order, new Simulator.Labels(rate, "warm-up", 7, "bench")); // JIT warm-up
        long start = System.nanoTime();
        sim.run(offsets, order, new Simulator.Labels(rate, "poisson", 7, "bench"));
        seconds = (System.nanoTime() - start) / 1e9;
      }
      double perSecond = requests / seconds;
      out.printf(
          "  %-16s %10.0f simulated requests/s (%.2f s)  goal >= %.0f per core -> %s%n",
          policy, perSecond, seconds, GOAL, perSecond >= GOAL ? "met" : "NOT met");
    }
    out.flush();
  }
}
