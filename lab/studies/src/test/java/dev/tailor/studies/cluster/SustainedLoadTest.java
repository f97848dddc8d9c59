package dev.tailor.studies.cluster;

import static dev.tailor.studies.cluster.SimulatedClusterTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.model.LogNormalProfile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SustainedLoadTest {

  private static final long MS = 1_000_000;

  /** A step at {@code u} that meets the target exactly when {@code u <= crossing}. */
  private static SustainedLoad.Step step(double u, double crossing) {
    return new SustainedLoad.Step(
        u, 100 * u, false, u <= crossing ? MS : 3 * MS, false, u <= crossing);
  }

  /** The bracket narrows monotonically: the met step only rises, the missed one only falls. */
  private static void assertBracketNarrows(SustainedLoad.Result r) {
    double lo = 0;
    double hi = 1;
    for (SustainedLoad.Step s : r.steps()) {
      assertTrue(s.utilization() > lo && s.utilization() < hi, s + " outside " + lo + ".." + hi);
      if (s.meets()) {
        lo = s.utilization();
      } else {
        hi = s.utilization();
      }
    }
    assertEquals(r.utilization(), lo, 0);
    assertEquals(r.missesAtUtilization(), hi, 0);
    assertTrue(hi - lo <= r.tolerance(), lo + ".." + hi);
  }

  @Test
  void theSearchNarrowsTheCrossingToTheTolerance() {
    for (double crossing : new double[] {0.001, 0.2, 0.437, 0.5, 0.75, 0.999}) {
      List<Double> asked = new ArrayList<>();
      SustainedLoad.Result r =
          SustainedLoad.search(
              u -> {
                asked.add(u);
                return step(u, crossing);
              },
              2 * MS,
              0.01);
      assertEquals(0.5, asked.get(0), 0, "half the capacity is tried first");
      assertBracketNarrows(r);
      assertTrue(r.utilization() <= crossing, crossing + ": " + r);
      assertTrue(r.missesAtUtilization() > crossing, crossing + ": " + r);
      // 1/2^7 < 0.01 <= 1/2^6: seven halvings.
      assertEquals(7, asked.size(), crossing + ": " + asked);
      if (crossing < 1.0 / 128) {
        assertNull(r.sustained(), "nothing at or below 1/128 was tried and met");
        assertEquals(0, r.rps(), 0);
      } else {
        assertEquals(100 * r.utilization(), r.rps(), 1e-9);
      }
    }
  }

  @Test
  void aTargetMetEverywhereEndsJustBelowTheCapacityWhichIsNeverSimulated() {
    List<Double> asked = new ArrayList<>();
    SustainedLoad.Result r =
        SustainedLoad.search(
            u -> {
              asked.add(u);
              return step(u, 2);
            },
            2 * MS,
            0.01);
    assertEquals(1 - 1.0 / 128, r.utilization(), 0);
    assertSame(r.steps().get(r.steps().size() - 1), r.sustained());
    assertEquals(1, r.missesAtUtilization(), 0);
    assertTrue(asked.stream().allMatch(u -> u < 1), asked.toString());
  }

  @Test
  void onAClusterTheFoundLoadMeetsTheTargetAndJustAboveItMisses() {
    int requests = 2_000;
    DemandProfile profile =
        LogNormalProfile.generate(LogNormalProfile.Shape.parse("10ms,13ms"), requests, 16, 3);
    SimulatedCluster cluster =
        new SimulatedCluster(
            profile,
            new SimulatedCluster.Config(
                5, 4, "seq", ShardWork.correlated(0.3), 0, Simulator.WorkModel.FLUID, requests, 3));
    long target = 25 * MS;
    SustainedLoad.Result r = SustainedLoad.find(cluster, target, 0.02);
    assertBracketNarrows(r);
    SustainedLoad.Step found = r.sustained();
    assertTrue(
        found != null && found.meets() && found.aggregatorP99Nanos() <= target, r.toString());
    assertTrue(found.utilization() > 0.2 && found.utilization() < 1, r.toString());
    // The found point and the first missed one, simulated whole: one meets, the other does not.
    ClusterPoint at = cluster.atUtilization(found.utilization());
    assertEquals(found.aggregatorP99Nanos(), at.aggregatorQuantileNanos(0.99));
    ClusterPoint above = cluster.atUtilization(r.missesAtUtilization());
    assertTrue(above.saturated() || above.aggregatorQuantileNanos(0.99) > target, r.toString());
    // A stopped step's P99 is over its first shards: a lower bound already past the target.
    for (SustainedLoad.Step s : r.steps()) {
      if (s.partial()) {
        assertFalse(s.meets());
        assertTrue(s.aggregatorP99Nanos() > target, s.toString());
      }
    }
    // A looser target sustains at least as much; an impossible one nothing.
    assertTrue(SustainedLoad.find(cluster, 2 * target, 0.02).utilization() >= r.utilization());
    SustainedLoad.Result none = SustainedLoad.find(cluster, 1, 0.02);
    assertNull(none.sustained());
    assertEquals(0, none.utilization(), 0);
    // Deterministic.
    assertEquals(r, SustainedLoad.find(cluster, target, 0.02));
  }

  @Test
  void badTargetsAndTolerancesAreRefusedNamingTheValue() {
    assertMessage(
        "target P99 must be > 0, got 0 ns", () -> SustainedLoad.search(u -> null, 0, 0.01));
    assertMessage(
        "tolerance must be a utilization in (0, 1) such as 0.01, got 1.0",
        () -> SustainedLoad.search(u -> null, MS, 1));
    assertMessage("got 0.0", () -> SustainedLoad.search(u -> null, MS, 0));
  }
}
