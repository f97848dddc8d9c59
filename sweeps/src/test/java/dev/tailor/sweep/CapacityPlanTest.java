package dev.tailor.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CapacityPlanTest {

  private static final long MS = 1_000_000;

  @TempDir Path dir;

  /**
   * 200 requests of exactly 10 ms that no second thread speeds up ({@code speedup} 1), or that two
   * threads run in 6 ms.
   */
  static DemandProfile profile(double speedupAt2) {
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      requests.add(
          new DemandProfile.Request(
              Integer.toString(i),
              null,
              "q",
              10 * MS,
              new long[] {5 * MS, 5 * MS},
              new double[] {1.0, speedupAt2},
              new double[] {1.0, speedupAt2},
              new DemandProfile.Features("test", 1, new long[0], 0)));
    }
    return DemandProfile.of(
        new DemandProfile.Environment(
            "crafted", "crafted", 1, "crafted", 2, "j", "os", "generated"),
        new DemandProfile.Settings(1, 1, 2, 2),
        true,
        requests);
  }

  private CapacityPlan.Settings settings(
      List<Integer> cores, List<Double> rps, Double peak, long target, List<String> policies) {
    return new CapacityPlan.Settings(
        cores,
        rps,
        peak,
        target,
        policies,
        2,
        2,
        1,
        2_000,
        Simulator.WorkModel.FLUID,
        Scheduler.DEFAULT_QUANTUM_NANOS,
        null,
        List.of(1.0),
        List.of(1.0),
        dir,
        null,
        List.of());
  }

  private static CapacityPlan.Result plan(DemandProfile profile, CapacityPlan.Settings s)
      throws IOException {
    return CapacityPlan.plan(
        profile,
        "crafted",
        "crafted",
        "crafted.json",
        "sha256:" + "0".repeat(64),
        s,
        new PrintWriter(new StringWriter()));
  }

  /**
   * Requests of 10 ms on one thread: a core serves 100 a second. One core holds a 60 ms P99 at 50
   * rps but not at 120 (past its capacity); two hold it at 120; the fewest cores for a peak of 150
   * are two.
   */
  @Test
  void aCraftedProfileGetsItsKnownCapacity() throws IOException {
    CapacityPlan.Result r =
        plan(
            profile(1.0),
            settings(List.of(1, 2, 4), List.of(50.0, 120.0), 150.0, 60 * MS, List.of("seq")));
    CapacityPlan.AtCores one = r.atCores(1);
    assertEquals("seq", one.best());
    assertEquals(50.0, one.heldToRps());
    CapacityPlan.AtCores two = r.atCores(2);
    assertEquals("seq", two.best());
    assertEquals(120.0, two.heldToRps());
    assertEquals(2, r.coresForPeak());
    assertEquals("seq", r.policyAtPeak());
    assertEquals(10.0, r.bound().sequentialP99Ms(), 1e-9);
    CapacityPlan.Prediction p = two.at("seq", 120);
    assertTrue(p.p99Ms().hasInterval(), "an interval over the two seeds");
    assertTrue(p.p50Ms().value() >= 10 && p.p50Ms().value() <= p.p99Ms().value());

    String md = PlanReport.markdown(r);
    assertTrue(md.contains("| 2 | seq | 120 |"), md);
    assertTrue(md.contains("At the peak of 150 rps, 2 cores are the fewest"), md);
    PlanReport.writeJson(r, dir.resolve("plan.json"));
    assertTrue(Files.readString(dir.resolve("plan.json")).contains("\"coresForPeak\" : 2"));
    PlanReport.plot(r, dir.resolve("plan.png"));
    assertTrue(Files.size(dir.resolve("plan.png")) > 0);
  }

  /**
   * Requests of 10 ms that two threads run in 5 ms, a target of 8 ms, one request a second or two:
   * only a policy that gives them both threads meets it; seq never does.
   */
  @Test
  void aCraftedProfileGetsItsKnownPolicy() throws IOException {
    CapacityPlan.Result r =
        plan(
            profile(2.0),
            settings(List.of(2), List.of(1.0, 2.0), null, 8 * MS, List.of("seq", "fixed:2")));
    CapacityPlan.AtCores two = r.atCores(2);
    assertEquals("fixed:2", two.best());
    assertEquals(2.0, two.heldToRps());
    assertTrue(Double.isNaN(PlanChoice.heldTo(two.predictions(), "seq", r.rps(), r.targetMs())));
    assertEquals(5.0, r.bound().bestP99Ms(), 1e-9);
  }

  @Test
  void aTargetBelowTheProfilesOwnP99IsRefusedSayingWhy() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                plan(
                    profile(1.0),
                    settings(List.of(2), List.of(50.0), null, 5 * MS, List.of("seq"))));
    assertTrue(e.getMessage().startsWith("no policy can meet a P99 of 5.000 ms"), e.getMessage());
    assertTrue(e.getMessage().contains("10.000 ms at degree 1"), e.getMessage());
    // Where two threads run a request in 6 ms, 8 ms is below its sequential P99 but not out of
    // reach: the bound is each request at its best degree.
    CapacityPlan.Bound parallel = CapacityPlan.bound(profile(10.0 / 6), null, 2);
    assertEquals(10.0, parallel.sequentialP99Ms(), 1e-9);
    assertEquals(6.0, parallel.bestP99Ms(), 1e-9);
    CapacityPlan.requireFeasible(parallel, 8 * MS);
  }

  @Test
  void theTunedFewToManyTableIsACandidateAndIsWrittenBesideThePlan() throws IOException {
    CapacityPlan.Result r =
        plan(
            profile(10.0 / 6),
            settings(
                List.of(2), List.of(40.0), null, 100 * MS, List.of("seq", CapacityPlan.TUNED_FM)));
    CapacityPlan.AtCores two = r.atCores(2);
    assertNotNull(two.fmTable());
    Path table = dir.resolve("fm-wc-2cores.json");
    assertTrue(Files.isRegularFile(table));
    assertNotNull(two.at("fm-wc:" + table, 40.0));
  }
}
