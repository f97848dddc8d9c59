package dev.tailor.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.load.fidelity.MeasuredReport;
import dev.tailor.measure.Estimate;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PlanValidationTest {

  private static final long MS = 1_000_000;

  /** Runs of {@code policy} at {@code rps} on 2 cores, one per P99 given (98 requests at 1 ms). */
  private static List<PointResult> runs(String policy, double rps, double... p99s) {
    return runs("measured on this machine (2 cores)", policy, rps, p99s);
  }

  /** Runs as {@link #runs(String, double, double...)} gives them, in {@code environment}. */
  private static List<PointResult> runs(
      String environment, String policy, double rps, double... p99s) {
    List<PointResult> out = new ArrayList<>();
    for (int i = 0; i < p99s.length; i++) {
      Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
      h.recordValueWithCount(MS, 98);
      h.recordValueWithCount((long) (p99s[i] * MS), 2);
      out.add(
          new PointResultBuilder(policy, h)
              .labels(rps, "poisson", 42, environment, "test")
              .repetition(i + 1)
              .outcome(1_000 * MS, 100, 100, 0, false)
              .build());
    }
    return out;
  }

  private static CapacityPlan.Prediction predicted(String policy, double rps, double p99) {
    return new CapacityPlan.Prediction(
        policy, rps, false, new Estimate(1, 1, 1), new Estimate(p99, p99 - 1, p99 + 1));
  }

  @Test
  void eachLoadSaysWhetherThePredictedBestIsTheMeasuredBestOrWithinItsInterval() {
    List<PointResult> points = new ArrayList<>();
    points.addAll(runs("seq", 50, 10, 10, 10, 10, 10)); // best at 50, as predicted
    points.addAll(runs("steal-first", 50, 20, 20, 20, 20, 20));
    points.addAll(runs("seq", 100, 10, 12, 14, 16, 18)); // best at 100, but not predicted
    points.addAll(runs("steal-first", 100, 11, 13, 15, 17, 19)); // inside seq's interval
    points.addAll(runs("seq", 150, 10, 10, 10, 10, 10)); // best at 150, not predicted
    points.addAll(runs("steal-first", 150, 30, 30, 30, 30, 30)); // far outside
    points.addAll(runs("lucene", 150, 5, 5, 5, 5, 5)); // not in the plan: left out
    points.addAll(runs("seq", 200, 10, 10, 10, 10, 10)); // alone at 200: nothing to choose
    MeasuredReport report = new MeasuredReport(Path.of("replay"), points, null);
    CapacityPlan.AtCores two =
        new CapacityPlan.AtCores(
            2,
            List.of(
                predicted("seq", 50, 9),
                predicted("steal-first", 50, 12),
                predicted("seq", 100, 14),
                predicted("steal-first", 100, 13),
                predicted("seq", 150, 20),
                predicted("steal-first", 150, 15),
                predicted("seq", 200, 12)),
            "seq",
            50,
            null);
    CapacityPlan.Result plan =
        new CapacityPlan.Result(
            CapacityPlan.FORMAT,
            1,
            "w",
            null,
            25,
            List.of(50.0),
            null,
            2,
            5,
            1_000,
            new CapacityPlan.Bound(1, 1, 2),
            List.of(two),
            null,
            null);
    assertEquals(2, PlanValidation.cores(report));
    List<PlanValidation.Row> rows = PlanValidation.of(plan, report);
    assertEquals(
        List.of("same", "within its interval", "no", "n/a"),
        rows.stream().map(PlanValidation.Row::agreement).toList());
    assertEquals("seq", rows.get(2).measuredBest());
    assertEquals("steal-first", rows.get(2).predictedBest());
    String md = PlanValidation.markdown(plan, report, rows);
    assertTrue(
        md.contains(
            "At 2 of 3 load(s) with two policies or more the predicted best is the measured best"),
        md);
    assertTrue(!md.contains("lucene"), md);
    assertTrue(md.contains("| 200 | 1 | seq"), md);
    assertTrue(md.contains("n/a: one policy, nothing to choose"), md);
  }

  @Test
  void aReportOfOneWorkerCountOfASweepOfThemRanOnThatCount() {
    String oneWorker = PointResult.withWorkers("measured on this machine (2 cores)", 1);
    List<PointResult> points = runs(oneWorker, "seq", 50, 10, 10);
    assertEquals(1, PlanValidation.cores(new MeasuredReport(Path.of("workers-1"), points, null)));
  }
}
