package dev.tailor.sim.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.model.Schedule;
import dev.tailor.core.model.SpeedupCurve;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The model against hand computations. Times in milliseconds, held as nanoseconds. */
class ScheduleEvaluatorTest {

  static final double MS = 1e6;
  static final double EPS = 1e-6 * MS;

  /** The Fig. 5 curve: s(2) = 1.5, s(3) = 2. */
  static final SpeedupCurve FIG5 = SpeedupCurve.of(1, 1.5, 2);

  private static ScheduleEvaluator.Evaluation one(double seqMs, Schedule s) {
    return new ScheduleEvaluator(Workload.single(seqMs * MS, FIG5), s.maxDegree(), 0.99)
        .evaluate(s);
  }

  @Test
  void oneRequestFollowsTheIntervalsDegreeByDegree() {
    // seq 150 under (10, 20, 40, then degree 3): 20 at d1 (20 done), 40 at d2 (60 more, 80
    // done), the last 70 at s(3) = 2 takes 35: time 10 + 20 + 40 + 35 = 105.
    ScheduleEvaluator.Evaluation e = one(150, Schedule.ofMillis(10, 20, 40));
    assertEquals(105 * MS, e.meanNanos(), EPS);
    assertEquals(105 * MS, e.tailNanos(), EPS);
    // thread-time 1·20 + 2·40 + 3·35 = 205 over 105
    assertEquals(205.0 / 105, e.parallelism(), 1e-12);
    assertEquals(3 * 205.0 / 105, e.totalParallelism(3), 1e-12);
  }

  @Test
  void aRequestThatFinishesInAnIntervalNeverReachesTheNext() {
    // seq 40 under (0, 20, 40): 20 at d1, the last 20 at s(2) = 1.5 takes 13.33.
    ScheduleEvaluator.Evaluation e = one(40, Schedule.ofMillis(0, 20, 40));
    assertEquals((20 + 20 / 1.5) * MS, e.meanNanos(), EPS);
    assertEquals((20 + 2 * 20 / 1.5) / (20 + 20 / 1.5), e.parallelism(), 1e-12);
    // seq 15 finishes at degree 1.
    ScheduleEvaluator.Evaluation seq = one(15, Schedule.ofMillis(5, 20, 40));
    assertEquals(20 * MS, seq.meanNanos(), EPS);
    assertEquals(15.0 / 20, seq.parallelism(), 1e-12, "the wait counts zero threads");
  }

  @Test
  void theTailIsTheCeilPhiTimesNthTime() {
    // 100 requests of 1..100 ms run sequentially: the 0.99-tail is L[ceil(99.0)] = L[99] = 99 ms,
    // although 0.99 * 100 is 99.00000000000001 in doubles.
    Workload.Builder b = Workload.builder();
    for (int i = 100; i >= 1; i--) {
      b.add(i * MS, SpeedupCurve.of(1), 1);
    }
    ScheduleEvaluator ev = new ScheduleEvaluator(b.build(), 1, 0.99);
    assertEquals(99 * MS, ev.evaluate(Schedule.of(0)).tailNanos(), EPS);
    assertEquals(50.5 * MS, ev.evaluate(Schedule.of(0)).meanNanos(), EPS);
    assertEquals(
        100 * MS, new ScheduleEvaluator(b.build(), 1, 0.995).evaluate(Schedule.of(0)).tailNanos());
  }

  @Test
  void weightsCountAsCopies() {
    SplittableRandom random = new SplittableRandom(7);
    Workload.Builder copies = Workload.builder();
    Workload.Builder weighted = Workload.builder();
    for (int i = 0; i < 50; i++) {
      double seq = (1 + random.nextInt(300)) * MS;
      SpeedupCurve curve = SpeedupCurve.of(1, 1 + random.nextDouble(), 2 + random.nextDouble());
      int w = 1 + random.nextInt(4);
      weighted.add(seq, curve, w);
      for (int c = 0; c < w; c++) {
        copies.add(seq, curve, 1);
      }
    }
    for (long[] v : new long[][] {{0, 0, 0}, {0, 50, 50}, {30, 100, 0}, {0, 10, 20}}) {
      Schedule s = Schedule.ofMillis(v);
      ScheduleEvaluator.Evaluation a = new ScheduleEvaluator(copies.build(), 3, 0.9).evaluate(s);
      ScheduleEvaluator.Evaluation b = new ScheduleEvaluator(weighted.build(), 3, 0.9).evaluate(s);
      assertEquals(a.tailNanos(), b.tailNanos(), EPS, s.toString());
      assertEquals(a.meanNanos(), b.meanNanos(), EPS, s.toString());
      assertEquals(a.parallelism(), b.parallelism(), 1e-9, s.toString());
    }
  }

  @Test
  void theTailSelectionAgreesWithSorting() {
    SplittableRandom random = new SplittableRandom(11);
    for (int trial = 0; trial < 200; trial++) {
      int m = 1 + random.nextInt(60);
      double[] values = new double[m];
      double[] weights = new double[m];
      for (int i = 0; i < m; i++) {
        values[i] = random.nextInt(10); // many duplicates
        weights[i] = 1 + random.nextInt(3);
      }
      double total = 0;
      for (double w : weights) {
        total += w;
      }
      double rank = 0.5 + random.nextDouble() * (total - 0.5);
      double expected = bySorting(values, weights, rank);
      assertEquals(expected, ScheduleEvaluator.select(values, weights, m, rank), "trial " + trial);
    }
  }

  private static double bySorting(double[] values, double[] weights, double rank) {
    Integer[] order = new Integer[values.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, (x, y) -> Double.compare(values[x], values[y]));
    double cum = 0;
    for (int i : order) {
      cum += weights[i];
      if (cum >= rank) {
        return values[i];
      }
    }
    return values[order[order.length - 1]];
  }

  @Test
  void theConstraintIsMonotoneInTheLoad() {
    ScheduleEvaluator.Evaluation e = new ScheduleEvaluator.Evaluation(0, 0, 5.0 / 3);
    assertEquals(3, e.highestLoad(6)); // 3 · 5/3 = 5 <= 6 < 4 · 5/3
    assertTrue(e.fits(3, 6));
    assertFalse(e.fits(4, 6));
    // exactly on the target: 2 · 3 = 6 fits
    assertTrue(new ScheduleEvaluator.Evaluation(0, 0, 3).fits(2, 6));
    assertEquals(2, new ScheduleEvaluator.Evaluation(0, 0, 3).highestLoad(6));
  }

  @Test
  void degreeAtAndThePairForm() {
    Schedule s = Schedule.ofMillis(0, 50, 0);
    assertEquals(1, s.startDegree());
    assertEquals(1, s.degreeAt(49_999_999));
    assertEquals(3, s.degreeAt(50_000_000));
    assertEquals("{(0, d1), (50ms, d3)}", s.pairs());
    assertEquals("{(0, d3)}", Schedule.ofMillis(0, 0, 0).pairs());
    assertEquals("{(50ms, d1), (150ms, d3)}", Schedule.ofMillis(50, 100, 0).pairs());
    assertEquals("{(0, d1), (100ms, d2), (150ms, d3)}", Schedule.ofMillis(0, 100, 50).pairs());
    assertEquals("(e1, 20ms, 0)", Schedule.awaitingExit(150_000_000, 20_000_000, 0).toString());
  }
}
