package dev.tailor.tables;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.model.Schedule;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.sim.model.ScheduleEvaluator;
import dev.tailor.sim.model.Workload;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FmTableBuilderTest {

  static final long MS = 1_000_000L;
  static final String DIGEST = "sha256:" + "0".repeat(64);

  /**
   * Fig. 5 (Haque et al., ASPLOS'15, §4.1): short 50 ms and long 150 ms, s(2) = 1.5, s(3) = 2, 6
   * cores.
   */
  static Workload fig5() {
    SpeedupCurve s = SpeedupCurve.of(1, 1.5, 2);
    return Workload.builder().add(50 * MS, s, 1).add(150 * MS, s, 1).build();
  }

  static FmTableBuilder.Options fig5Options(int[] degrees, int threads) {
    return new FmTableBuilder.Options(
        6, IntervalTable.Rule.paper(6), 3, degrees, 50 * MS, 0, 0.99, 7, 0, threads);
  }

  /**
   * The rows the paper's model (§4.1, Fig. 6) and search (Fig. 7) give; the paper's printed table
   * garbles rows 4-6 and prints "e1" at load 7, so these are the model's values, not the paper's
   * printed table.
   */
  @Test
  void buildsTheFig5TableWithDegreesOneAndThree() {
    IntervalTable t =
        new FmTableBuilder(fig5Options(new int[] {1, 3}, 2)).build(fig5(), "fig5", DIGEST);
    long[][] expected = {
      {0, 0, 0}, {0, 0, 0}, {0, 50, 0}, {0, 100, 0}, {0, 150, 0}, {0, 150, 0}, {50, 100, 0}
    };
    double[] tails = {75, 75, 100, 125, 150, 150, 175};
    for (int q = 1; q <= 7; q++) {
      assertEquals(Schedule.ofMillis(expected[q - 1]), t.schedule(q), "load " + q);
      assertEquals(tails[q - 1] * MS, t.rows().get(q - 1).tailNanos(), 1, "tail at load " + q);
    }
    assertEquals(1.67, t.rows().get(2).parallelism(), 0.005);
    assertEquals(0.82, t.rows().get(6).parallelism(), 0.005);
    assertEquals(150 * MS, t.inputs().horizonNanos(), "the horizon is the longest request");
  }

  @Test
  void buildsTheFig5TableWithDegreeTwo() {
    IntervalTable t = new FmTableBuilder(fig5Options(null, 1)).build(fig5(), "fig5", DIGEST);
    long[][] expected = {
      {0, 0, 0}, {0, 0, 0}, {0, 0, 100}, {0, 50, 50}, {0, 100, 50}, {0, 150, 0}, {50, 100, 0}
    };
    for (int q = 1; q <= 7; q++) {
      assertEquals(Schedule.ofMillis(expected[q - 1]), t.schedule(q), "load " + q);
    }
  }

  @Test
  void agreesWithAPlainSearchOverEverySchedule() {
    Workload w = random(60, 3);
    FmTableBuilder.Options o =
        new FmTableBuilder.Options(
            4, IntervalTable.Rule.paper(5), 3, null, 40 * MS, 400 * MS, 0.9, 12, 0, 2);
    IntervalTable t = new FmTableBuilder(o).build(w, "random", DIGEST);
    ScheduleEvaluator model = new ScheduleEvaluator(w, 3, 0.9);
    for (int q = 1; q <= 12; q++) {
      Schedule best = null;
      ScheduleEvaluator.Evaluation bestE = null;
      for (long v0 = 0; v0 <= 400; v0 += 40) {
        for (long v1 = 0; v1 <= 400; v1 += 40) {
          for (long v2 = 0; v1 + v2 <= 400; v2 += 40) {
            Schedule s = Schedule.ofMillis(v0, v1, v2);
            ScheduleEvaluator.Evaluation e = model.evaluate(s);
            if (e.fits(q, 5)
                && (best == null
                    || Math.rint(e.tailNanos()) < Math.rint(bestE.tailNanos())
                    || (Math.rint(e.tailNanos()) == Math.rint(bestE.tailNanos())
                        && Math.rint(e.meanNanos()) < Math.rint(bestE.meanNanos())))) {
              best = s;
              bestE = e;
            }
          }
        }
      }
      if (best != null) {
        assertEquals(best.intervals()[0], t.schedule(q).waitNanos(), "v0 at load " + q);
        assertEquals(
            best.toString().replace("400ms,", "e1,"), t.schedule(q).toString(), "load " + q);
      } else {
        assertTrue(t.schedule(q).awaitsExit(), "nothing fits at load " + q + ": wait for an exit");
      }
    }
  }

  @Test
  void theTableIsTheSameWhateverTheThreadCount() {
    Workload w = random(300, 4);
    IntervalTable one = build(w, 1, 0);
    IntervalTable three = build(w, 3, 0);
    for (int q = 1; q <= 16; q++) {
      assertEquals(one.schedule(q), three.schedule(q), "load " + q);
      assertEquals(one.rows().get(q - 1).tailNanos(), three.rows().get(q - 1).tailNanos());
    }
  }

  @Test
  void everyRowFitsTheTargetAndTheTailRisesWithTheLoad() {
    IntervalTable t = build(random(300, 4), 2, 0);
    for (int q = 2; q <= 16; q++) {
      IntervalTable.Row lower = t.rows().get(q - 2);
      IntervalTable.Row row = t.rows().get(q - 1);
      assertTrue(row.tailNanos() >= lower.tailNanos(), "tail at load " + q);
      assertTrue(row.load() * row.parallelism() <= 8 * (1 + 1e-9), "q·A <= target at " + q);
    }
  }

  @Test
  void binningGroupsTheDemandAndIsRecorded() {
    Workload w = random(2_000, 4);
    IntervalTable binned = build(w, 2, 50);
    assertEquals(50, binned.inputs().bins());
    assertEquals(2_000, binned.inputs().requests());
    assertTrue(w.binned(50).size() <= 50);
    assertEquals(w.totalWeight(), w.binned(50).totalWeight(), 1e-9);
  }

  @Test
  void aLoadNothingFitsWaitsForAnExit() {
    // One 100 ms request at degree 1, target 0.5, horizon 200 ms: A = 100 / (100 + v0), so load 1
    // fits with v0 = 100 ms, and load 2 (A <= 0.25, v0 >= 300 ms) fits with no wait on the grid.
    Workload w = Workload.single(100 * MS, SpeedupCurve.of(1));
    IntervalTable t =
        new FmTableBuilder(
                new FmTableBuilder.Options(
                    1, IntervalTable.Rule.paper(0.5), 1, null, 50 * MS, 200 * MS, 0.99, 2, 0, 1))
            .build(w, "one", DIGEST);
    assertFalse(t.schedule(1).awaitsExit());
    assertEquals(100 * MS, t.schedule(1).waitNanos());
    assertTrue(t.schedule(2).awaitsExit());
    assertEquals(200 * MS, t.schedule(2).waitNanos(), "the longest wait, the leanest schedule");
  }

  @Test
  void badOptionsAreRejectedWithTheReason() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new FmTableBuilder.Options(
                    4, IntervalTable.Rule.paper(5), 3, new int[] {1, 2}, MS, 0, 0.99, 8, 0, 1));
    assertTrue(e.getMessage().contains("must end with the max degree 3"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new FmTableBuilder.Options(
                4, IntervalTable.Rule.paper(5), 3, null, MS, 0, 1.5, 8, 0, 1));
  }

  @Test
  void anImpossibleGridFailsAtOnceWithTheRemedy() {
    FmTableBuilder.Options o =
        new FmTableBuilder.Options(
            16, IntervalTable.Rule.paper(18), 8, null, MS, 1_000 * MS, 0.99, 4, 0, 1);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new FmTableBuilder(o).build(fig5(), "fig5", DIGEST));
    assertTrue(e.getMessage().contains("use a larger step"), e.getMessage());
  }

  private static IntervalTable build(Workload w, int threads, int bins) {
    FmTableBuilder.Options o =
        new FmTableBuilder.Options(
            8, IntervalTable.Rule.paper(8), 4, null, 25 * MS, 0, 0.99, 16, bins, threads);
    return new FmTableBuilder(o).build(w, "random", DIGEST);
  }

  private static Workload random(int size, int degrees) {
    SplittableRandom random = new SplittableRandom(size);
    Workload.Builder b = Workload.builder();
    for (int i = 0; i < size; i++) {
      double seq = (5 + random.nextInt(400)) * MS * (random.nextInt(20) == 0 ? 1 : 0.5);
      double[] s = new double[degrees];
      s[0] = 1;
      for (int d = 1; d < degrees; d++) {
        s[d] = Math.min(d + 1, s[d - 1] + random.nextDouble());
      }
      b.add(seq, SpeedupCurve.of(s), 1);
    }
    return b.build();
  }
}
