package dev.tailor.tables;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.model.Schedule;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.sim.model.ScheduleEvaluator;
import dev.tailor.sim.model.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ThroughputRuleTest {

  private static final long MS = 1_000_000L;
  private static final String DIGEST = "sha256:" + "0".repeat(64);

  /** Every schedule without a wait on the grid (step 20 ms, horizon 200 ms, n = 3). */
  private static List<Schedule> everyRunningSchedule() {
    List<Schedule> out = new ArrayList<>();
    for (long v1 = 0; v1 <= 200; v1 += 20) {
      for (long v2 = 0; v1 + v2 <= 200; v2 += 20) {
        out.add(Schedule.ofMillis(0, v1, v2));
      }
    }
    return out;
  }

  @Test
  void agreesWithABruteForceOfTheSameRule() {
    Workload w = random(80, 3);
    double rho = 0.9;
    double qs = 1.3;
    int cores = 4;
    FmTableBuilder.Options o =
        new FmTableBuilder.Options(
            cores,
            IntervalTable.Rule.throughput(rho, qs),
            3,
            null,
            20 * MS,
            200 * MS,
            0.95,
            24,
            0,
            2);
    IntervalTable t = new FmTableBuilder(o).build(w, "random", DIGEST);
    ScheduleEvaluator model = new ScheduleEvaluator(w, 3, 0.95);
    List<Schedule> all = everyRunningSchedule();
    List<ScheduleEvaluator.Evaluation> evals = new ArrayList<>();
    for (Schedule s : all) {
      evals.add(model.evaluate(s));
    }
    double servers = rho * cores;
    for (int q = 1; q <= 24; q++) {
      // Every rate where the best schedule or the load's bound can change.
      List<Double> rates = new ArrayList<>();
      for (ScheduleEvaluator.Evaluation e : evals) {
        rates.add(servers / busy(e));
        rates.add(q / (qs * e.meanNanos()));
      }
      double bestRate = -1;
      int bestIndex = -1;
      for (double rate : rates) {
        int best = bestAllowed(all, evals, servers / rate);
        if (best < 0) {
          continue; // nothing keeps up at this rate
        }
        boolean fits = qs * rate * evals.get(best).meanNanos() <= q * (1 + 1e-9);
        if (fits && rate > bestRate * (1 + 1e-12)) {
          bestRate = rate;
          bestIndex = best;
        }
      }
      IntervalTable.Row row = t.rows().get(q - 1);
      assertEquals(all.get(bestIndex), row.schedule(), "load " + q);
      assertEquals(bestRate * 1e9, row.arrivalRate(), bestRate * 1e9 * 1e-6, "rate at " + q);
      assertEquals(0, row.schedule().waitNanos(), "no row waits");
      assertTrue(
          row.arrivalRate() / 1e9 * busy(evals.get(bestIndex)) <= servers * (1 + 1e-6),
          "λ·E[busy] <= ρ·cores at " + q);
    }
  }

  /** The lowest tail, then mean, then first, among schedules with busy time within the budget. */
  private static int bestAllowed(
      List<Schedule> all, List<ScheduleEvaluator.Evaluation> evals, double budget) {
    int best = -1;
    for (int i = 0; i < all.size(); i++) {
      ScheduleEvaluator.Evaluation e = evals.get(i);
      if (busy(e) > budget * (1 + 1e-9)) {
        continue;
      }
      if (best < 0) {
        best = i;
        continue;
      }
      ScheduleEvaluator.Evaluation b = evals.get(best);
      int c = Double.compare(Math.rint(e.tailNanos()), Math.rint(b.tailNanos()));
      if (c == 0) {
        c = Double.compare(Math.rint(e.meanNanos()), Math.rint(b.meanNanos()));
      }
      if (c == 0) {
        c = all.get(i).compareTo(all.get(best));
      }
      if (c < 0) {
        best = i;
      }
    }
    return best;
  }

  private static double busy(ScheduleEvaluator.Evaluation e) {
    return e.parallelism() * e.meanNanos();
  }

  @Test
  void lighterLoadsGetMoreParallelismAndTheHeaviestRunSequentially() {
    IntervalTable t = table(IntervalTable.Rule.throughput(1, 1.2), 64);
    IntervalTable.Row light = t.rows().get(0);
    IntervalTable.Row heavy = t.rows().get(63);
    assertTrue(light.parallelism() > 1.5, "alone, a request may take threads: " + light);
    assertEquals(1, heavy.parallelism(), 1e-9, "at the heaviest load, no thread to spare");
    for (int q = 2; q <= 64; q++) {
      IntervalTable.Row lower = t.rows().get(q - 2);
      IntervalTable.Row row = t.rows().get(q - 1);
      assertTrue(row.arrivalRate() >= lower.arrivalRate() * (1 - 1e-9), "rate rises at " + q);
      assertTrue(row.tailNanos() >= lower.tailNanos() * (1 - 1e-9), "tail rises at " + q);
    }
  }

  @Test
  void everyRowKeepsBothBoundsAndTheHeaviestRunSequentiallyAtTheCoresRate() {
    IntervalTable.Rule tightRule = IntervalTable.Rule.throughput(0.7, 1.5);
    IntervalTable.Rule looseRule = IntervalTable.Rule.throughput(1, 1.0);
    IntervalTable tight = table(tightRule, 32);
    IntervalTable loose = table(looseRule, 32);
    for (int q = 1; q <= 32; q++) {
      for (IntervalTable t : List.of(tight, loose)) {
        IntervalTable.Rule r = t.inputs().rule();
        IntervalTable.Row row = t.rows().get(q - 1);
        double rate = row.arrivalRate() / 1e9;
        double busy = row.parallelism() * row.meanNanos();
        assertTrue(rate * busy <= r.utilization() * 8 * (1 + 1e-6), "utilization at " + q);
        boolean saturated = q > 1 && row.parallelism() == 1;
        assertTrue(
            saturated || r.queueFactor() * rate * row.meanNanos() <= q * (1 + 1e-6),
            "Little's bound at " + q);
      }
    }
    // The heaviest rows run sequentially at the highest rate the cores sustain: ρ·cores/E[seq].
    IntervalTable.Row lastTight = tight.rows().get(31);
    IntervalTable.Row lastLoose = loose.rows().get(31);
    assertEquals(1, lastTight.parallelism(), 1e-9);
    assertEquals(1, lastLoose.parallelism(), 1e-9);
    assertEquals(0.7 * 8 / lastTight.meanNanos() * 1e9, lastTight.arrivalRate(), 1e-6);
    assertEquals(8 / lastLoose.meanNanos() * 1e9, lastLoose.arrivalRate(), 1e-6);
  }

  @Test
  void thePapersRuleIsUnchangedAndSharesThePreparedGrid() {
    Workload w = random(200, 4);
    FmTableBuilder.Options o =
        new FmTableBuilder.Options(
            8, IntervalTable.Rule.paper(8), 4, null, 25 * MS, 0, 0.99, 16, 0, 1);
    FmTableBuilder builder = new FmTableBuilder(o);
    IntervalTable direct = builder.build(w, "random", DIGEST);
    FmTableBuilder.Prepared prepared = builder.prepare(w);
    IntervalTable viaPrepared =
        prepared.table(IntervalTable.Rule.paper(8), "random", DIGEST, "tuned");
    IntervalTable throughput =
        prepared.table(IntervalTable.Rule.throughput(1, 1.2), "random", DIGEST, null);
    boolean anyWait = false;
    for (int q = 1; q <= 16; q++) {
      assertEquals(direct.schedule(q), viaPrepared.schedule(q), "load " + q);
      assertEquals(0, throughput.schedule(q).waitNanos());
      anyWait |= direct.schedule(q).waitNanos() > 0 || direct.schedule(q).awaitsExit();
    }
    assertTrue(anyWait, "under load the paper's rule delays: the collapse the other rule avoids");
    assertEquals("tuned", viaPrepared.inputs().tuning());
    assertFalse(throughput.inputs().rule().isPaper());
  }

  @Test
  void theFrontierIsTheSameWhateverTheThreadCount() {
    Workload w = random(300, 4);
    IntervalTable.Rule rule = IntervalTable.Rule.throughput(0.95, 1.3);
    IntervalTable one =
        new FmTableBuilder(new FmTableBuilder.Options(8, rule, 4, null, 25 * MS, 0, 0.99, 16, 0, 1))
            .build(w, "random", DIGEST);
    IntervalTable three =
        new FmTableBuilder(new FmTableBuilder.Options(8, rule, 4, null, 25 * MS, 0, 0.99, 16, 0, 3))
            .build(w, "random", DIGEST);
    for (int q = 1; q <= 16; q++) {
      assertEquals(one.rows().get(q - 1), three.rows().get(q - 1), "load " + q);
    }
  }

  private static IntervalTable table(IntervalTable.Rule rule, int loads) {
    FmTableBuilder.Options o =
        new FmTableBuilder.Options(8, rule, 4, null, 25 * MS, 0, 0.99, loads, 0, 2);
    return new FmTableBuilder(o).build(random(300, 4), "random", DIGEST);
  }

  private static Workload random(int size, int degrees) {
    SplittableRandom random = new SplittableRandom(size);
    Workload.Builder b = Workload.builder();
    for (int i = 0; i < size; i++) {
      double seq = (5 + random.nextInt(190)) * MS * (random.nextInt(20) == 0 ? 1 : 0.3);
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
