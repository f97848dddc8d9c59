package dev.tailor.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.arrival.ArrivalProcess;
import dev.tailor.core.arrival.RequestOrder;
import dev.tailor.core.metrics.PointResult;
import dev.tailor.core.model.DemandProfile;
import dev.tailor.core.model.ParametricProfile;
import dev.tailor.core.policy.PolicyRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatorTest {

  private static final long MS = 1_000_000L;

  /** A profile of requests with the given sequential times and speedups 1, 1.5, 2. */
  private static DemandProfile profile(long... sequentialMs) {
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (int i = 0; i < sequentialMs.length; i++) {
      requests.add(
          new DemandProfile.Request(
              Integer.toString(i),
              null,
              "q" + i,
              sequentialMs[i] * MS,
              new long[] {sequentialMs[i] * MS},
              new double[] {1.0, 1.5},
              new double[] {2.0},
              new DemandProfile.Features("test", 1, new long[0], 0)));
    }
    return DemandProfile.of(
        new DemandProfile.Environment("i", "test", 1, "t", 2, "j", "o", "now"),
        new DemandProfile.Settings(0, 1, 1, 2, 3),
        true,
        requests);
  }

  private static Simulator.Config config(int workers) {
    return new Simulator.Config(workers, 5 * MS, 80 * MS, true, 0, 1_000, List.of(100 * MS));
  }

  private static final Simulator.Labels LABELS = new Simulator.Labels(1, "test", 1, "test");

  private static double latencyMs(PointResult r, String p) {
    return r.latencyAt(p) / 1e6;
  }

  @Test
  void aLoneRequestAtAFixedDegreeTakesItsTimeOverTheSpeedup() {
    Simulator sim = new Simulator(profile(150), PolicyRegistry.of("fixed:2"), config(4));
    PointResult r = sim.run(new long[] {0}, new int[] {0}, LABELS);
    assertEquals(100.0, latencyMs(r, "max"), 0.1, "150 ms of work at speedup 1.5");
    assertEquals(1, r.completed());
    assertEquals("simulated, 4 cores", r.environment());
  }

  @Test
  void rampUpAddsThreadsAsTheRequestRunsAsTheFewToManyModelSays() {
    // 50 ms at degree 1 (50 done), 50 ms at degree 2 (75 more), then 25 left at speedup 2.
    Simulator sim = new Simulator(profile(150), PolicyRegistry.of("rampup:50ms,3"), config(4));
    PointResult r = sim.run(new long[] {0}, new int[] {0}, LABELS);
    assertEquals(112.5, latencyMs(r, "max"), 0.1);
    assertEquals(1, r.degreeDistribution().values().iterator().next()[3], "reached degree 3");
  }

  @Test
  void requestsQueueForTheThreadsInArrivalOrder() {
    Simulator sim = new Simulator(profile(10, 20), PolicyRegistry.of("seq"), config(1));
    PointResult r = sim.run(new long[] {0, 0}, new int[] {0, 1}, LABELS);
    assertEquals(30.0, latencyMs(r, "max"), 0.1, "the second waits for the first");
    assertEquals(10.0, r.queueing().get("max") / 1e6, 0.1);
  }

  @Test
  void theSameInputsGiveTheSameResult() {
    DemandProfile p = ParametricProfile.generate(2_000, 8, 3);
    long[] arrivals = ArrivalProcess.poisson(40, 9).schedule(60_000 * MS);
    int[] order = RequestOrder.shuffled(arrivals.length, p.requests().size(), 9);
    Simulator.Config c = Simulator.Config.of(16, arrivals.length);
    PointResult a =
        new Simulator(p, PolicyRegistry.of("rampup:20ms,4"), c).run(arrivals, order, LABELS);
    PointResult b =
        new Simulator(p, PolicyRegistry.of("rampup:20ms,4"), c).run(arrivals, order, LABELS);
    assertEquals(a.latency(), b.latency());
    assertEquals(a.latencyHistogram(), b.latencyHistogram());
    assertFalse(a.saturated());
  }

  @Test
  void anOverloadedPointStopsSaturated() {
    DemandProfile p = profile(100);
    long[] arrivals = ArrivalProcess.poisson(1_000, 1).schedule(10_000 * MS);
    Simulator.Config c = new Simulator.Config(2, 5 * MS, 80 * MS, true, 0, 500, List.of());
    PointResult r =
        new Simulator(p, PolicyRegistry.of("seq"), c)
            .run(arrivals, new int[arrivals.length], LABELS);
    assertTrue(r.saturated());
  }

  @Test
  void aDelayedAdmissionWaitsItsTime() {
    dev.tailor.core.policy.Policy delaying =
        new dev.tailor.core.policy.Policy() {
          @Override
          public dev.tailor.core.policy.Admission admit(
              dev.tailor.core.policy.RequestView request, dev.tailor.core.policy.SystemView s) {
            return s.nanoTime() < request.arrivalNanos() + 30 * MS
                ? dev.tailor.core.policy.Admission.delayUntil(request.arrivalNanos() + 30 * MS)
                : dev.tailor.core.policy.Admission.start(1);
          }

          @Override
          public int degree(
              dev.tailor.core.policy.RequestView request, dev.tailor.core.policy.SystemView s) {
            return 1;
          }

          @Override
          public String spec() {
            return "delay30";
          }
        };
    PointResult r =
        new Simulator(profile(10), delaying, config(2)).run(new long[] {0}, new int[] {0}, LABELS);
    assertEquals(40.0, latencyMs(r, "max"), 0.1);
  }
}
