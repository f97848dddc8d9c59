package dev.tailor.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.policy.TailControlPolicy;
import dev.tailor.core.table.TableSource;
import dev.tailor.core.table.ThresholdTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.arrival.ArrivalProcess;
import dev.tailor.sim.arrival.RequestOrder;
import dev.tailor.sim.model.ParametricProfile;
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
        new DemandProfile.Settings(1, 1, 2, 3),
        true,
        requests);
  }

  private static Simulator.Config config(int workers) {
    return new Simulator.Config(
        workers, 5 * MS, 80 * MS, 0, 1_000, List.of(100 * MS), Simulator.WorkModel.FLUID);
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
    Simulator.Config c =
        new Simulator.Config(2, 5 * MS, 80 * MS, 0, 500, List.of(), Simulator.WorkModel.FLUID);
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

  /** A request of the unit model: its sequential time, unit times, and speedups measured. */
  private static DemandProfile.Request unitRequest(
      long sequentialMs, long[] unitsMs, double[] measured, double derived) {
    long[] units = new long[unitsMs.length];
    for (int i = 0; i < units.length; i++) {
      units[i] = unitsMs[i] * MS;
    }
    return new DemandProfile.Request(
        "r" + sequentialMs,
        null,
        "q",
        sequentialMs * MS,
        units,
        measured,
        new double[] {derived},
        new DemandProfile.Features("test", 1, new long[0], 0));
  }

  private static DemandProfile profileOf(DemandProfile.Request... requests) {
    return DemandProfile.of(
        new DemandProfile.Environment("i", "test", 1, "t", 2, "j", "o", "now"),
        new DemandProfile.Settings(1, 4, 2, 3),
        true,
        List.of(requests));
  }

  private static Simulator.Config unitConfig(int workers) {
    return new Simulator.Config(
        workers, 5 * MS, 80 * MS, 0, 1_000, List.of(), Simulator.WorkModel.UNITS);
  }

  @Test
  void underTheUnitModelALoneRequestTakesTheTimeMeasuredAtItsDegree() {
    // Serial 20 ms, four units of 20 ms; measured 70 ms on 2 threads, where the units explain
    // 20 + 40: a hand-off overhead of 5 ms per unit round.
    DemandProfile p =
        profileOf(unitRequest(100, new long[] {20, 20, 20, 20}, new double[] {1.0, 100 / 70.0}, 2));
    PointResult two =
        new Simulator(p, PolicyRegistry.of("fixed:2"), unitConfig(4))
            .run(new long[] {0}, new int[] {0}, LABELS);
    assertEquals(70.0, latencyMs(two, "max"), 0.1);
    PointResult one =
        new Simulator(p, PolicyRegistry.of("seq"), unitConfig(4))
            .run(new long[] {0}, new int[] {0}, LABELS);
    assertEquals(100.0, latencyMs(one, "max"), 0.1, "alone on one thread: no overhead");
  }

  @Test
  void underTheUnitModelAHelperLeavesWhenNoUnitIsLeftAndItsThreadServesTheNextRequest() {
    // A: serial 20 ms, then units of 10, 10 and 60 ms. On two threads the helper takes the second
    // unit and leaves at 30 ms, while A's own thread runs the last unit until 90 ms.
    DemandProfile p =
        profileOf(
            unitRequest(100, new long[] {10, 10, 60}, new double[] {1.0}, 1.2),
            unitRequest(10, new long[] {10}, new double[] {1.0}, 1.0));
    long[] arrivals = {0, 35 * MS};
    int[] order = {0, 1};
    PointResult units =
        new Simulator(p, PolicyRegistry.of("fixed:2"), unitConfig(2)).run(arrivals, order, LABELS);
    assertEquals(90.0, latencyMs(units, "max"), 0.1);
    assertEquals(10.0, latencyMs(units, "p50"), 0.1, "B ran at once on the helper's thread");
    assertTrue(units.queueing().get("max") < MS, units.queueing().toString());
    assertEquals(2, units.completed());

    // Without prompt admission the fluid model keeps both threads on A (100 ms at speedup 1.2)
    // until it ends: B queues. Promptly, A's helper gives B its thread at the next tick.
    Simulator fluidLate = new Simulator(p, PolicyRegistry.of("fixed:2"), config(2));
    fluidLate.promptAdmission(false);
    PointResult fluid = fluidLate.run(arrivals, order, LABELS);
    assertTrue(fluid.queueing().get("max") > 40 * MS, fluid.queueing().toString());
    PointResult fluidPrompt =
        new Simulator(p, PolicyRegistry.of("fixed:2"), config(2)).run(arrivals, order, LABELS);
    assertTrue(
        fluidPrompt.queueing().get("max") <= 5 * MS, "within a tick: " + fluidPrompt.queueing());
  }

  @Test
  void everyRequestCompletesExactlyOnceUnderTheUnitModel() {
    DemandProfile p =
        profileOf(
            unitRequest(100, new long[] {10, 10, 60}, new double[] {1.0, 1.1}, 1.2),
            unitRequest(10, new long[] {2, 3, 4}, new double[] {1.0, 1.3}, 1.5),
            unitRequest(40, new long[] {5, 5, 5, 5, 5, 5}, new double[] {1.0, 1.6}, 2.0));
    long[] arrivals = ArrivalProcess.poisson(40, 3).first(5_000);
    int[] order = RequestOrder.shuffled(arrivals.length, 3, 3);
    for (String policy : List.of("seq", "fixed:4", "rampup:10ms,3", "adaptive")) {
      PointResult r =
          new Simulator(p, PolicyRegistry.of(policy), unitConfig(4)).run(arrivals, order, LABELS);
      assertFalse(r.saturated(), policy);
      assertEquals(arrivals.length, r.completed(), policy);
      assertEquals(arrivals.length, r.sent(), policy);
    }
  }

  @Test
  void underTailControlARequestPastItsThresholdGetsNoHelperAfterItsNextUnitBoundary() {
    // Threshold 0 at every load: the request starts with every worker (no work done yet), four
    // threads take a 10 ms unit each, and at that boundary it is marked: the helpers leave and its
    // own thread runs the other four units alone, 10 + 40 ms in all.
    ThresholdTable zero =
        new ThresholdTable(
            new ThresholdTable.Inputs("t", null, 1, 1, "exact", MS, MS, 1, 4, 0.001, 1),
            List.of(new ThresholdTable.Row(1, 0, 1)),
            "now",
            0);
    DemandProfile p =
        profileOf(
            unitRequest(80, new long[] {10, 10, 10, 10, 10, 10, 10, 10}, new double[] {1}, 4));
    List<String> decisions = new ArrayList<>();
    Simulator tc =
        new Simulator(
            p,
            TailControlPolicy.of(TailControlPolicy.Variant.TC, TableSource.fixed(zero)),
            unitConfig(4));
    tc.decisionListener((d, id, value) -> decisions.add(d + " " + value));
    PointResult r = tc.run(new long[] {0}, new int[] {0}, LABELS);
    assertEquals(50.0, latencyMs(r, "max"), 0.1);
    int marked = decisions.indexOf(Dispatcher.Decision.DEGREE + " 0");
    assertTrue(marked > 0, decisions.toString());
    assertEquals(
        List.of("START 4", "HELP 1", "HELP 2", "HELP 3"), decisions.subList(0, marked), "before");
    assertEquals(marked, decisions.size() - 1, "nothing after the mark: " + decisions);
    Simulator stealFirst = new Simulator(p, PolicyRegistry.of("steal-first"), unitConfig(4));
    stealFirst.slack(0);
    assertEquals(
        20.0, latencyMs(stealFirst.run(new long[] {0}, new int[] {0}, LABELS), "max"), 0.1);
    // With a thread of slack, five threads share the four cores: five units at 4/5 of a core's
    // speed (12.5 ms), then the last three alone on a core each (10 ms).
    Simulator slack = new Simulator(p, PolicyRegistry.of("steal-first"), unitConfig(4));
    slack.slack(1);
    assertEquals(22.5, latencyMs(slack.run(new long[] {0}, new int[] {0}, LABELS), "max"), 0.1);
  }

  @Test
  void theUnitModelNeedsUnitTimes() {
    DemandProfile p = profileOf(unitRequest(10, new long[0], new double[] {1.0}, 1.0));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Simulator(p, PolicyRegistry.of("seq"), unitConfig(2)));
    assertTrue(
        e.getMessage().contains("request r10 of the profile has no unit times"), e.getMessage());
  }

  @Test
  void aClairvoyantPolicyIsToldTheTruthAndAnyOtherTheProfilesPrediction() {
    DemandProfile p =
        profile(10)
            .withPredictions(
                new DemandProfile.Predictions("m", "sha256:x", "model", new long[] {3 * MS}));
    assertEquals(List.of(3 * MS), seenPredictions(p, false));
    assertEquals(List.of(10 * MS), seenPredictions(p, true));
    assertEquals(List.of(RequestView.UNKNOWN), seenPredictions(profile(10), false));
  }

  private static List<Long> seenPredictions(DemandProfile p, boolean clairvoyant) {
    List<Long> seen = new ArrayList<>();
    Policy recording =
        new Policy() {
          @Override
          public Admission admit(RequestView request, SystemView system) {
            seen.add(request.predictedSequentialNanos());
            return Admission.start(1);
          }

          @Override
          public int degree(RequestView request, SystemView system) {
            return 1;
          }

          @Override
          public boolean clairvoyant() {
            return clairvoyant;
          }

          @Override
          public String spec() {
            return "recording";
          }
        };
    new Simulator(p, recording, config(2)).run(new long[] {0}, new int[] {0}, LABELS);
    return seen;
  }
}
