package dev.tailor.bench.soak;

import dev.tailor.core.model.Schedule;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TargetTable;
import dev.tailor.core.table.ThresholdTable;
import java.util.ArrayList;
import java.util.List;

/**
 * Small valid tables of each kind for the fault soak ({@link FaultSoak}), in two variants (even and
 * odd), so that a swap for the other variant changes the table.
 */
final class SoakTables {
  private static final long US = 1_000L;
  private static final String DIGEST = "sha256:" + "0".repeat(64);
  private static final String BUILT = "2026-11-23T00:00:00Z";

  private SoakTables() {}

  /** Few-to-Many, degrees up to 3, loads 1..4: from all at once to waiting for an exit. */
  static IntervalTable fm(int variant) {
    long step = variant % 2 == 0 ? 50 * US : 100 * US;
    IntervalTable.Inputs in =
        new IntervalTable.Inputs(
            "soak.json",
            DIGEST,
            4,
            0,
            4,
            IntervalTable.Rule.paper(4),
            3,
            new int[] {1, 2, 3},
            step,
            4 * step,
            0.99,
            4,
            null);
    return new IntervalTable(
        in,
        BUILT,
        0,
        List.of(
            new IntervalTable.Row(1, Schedule.of(0, 0, 0), 0, 0, 3),
            new IntervalTable.Row(2, Schedule.of(0, step, 0), 0, 0, 2),
            new IntervalTable.Row(3, Schedule.of(step / 2, step, step), 0, 0, 1.5),
            new IntervalTable.Row(4, Schedule.awaitingExit(4 * step, 0, 0), 0, 0, 1)));
  }

  /** TPC, degrees up to 4, targets that tighten as long threads grow. */
  static TargetTable tpc(int variant) {
    long scale = variant % 2 == 0 ? 1 : 2;
    TargetTable.Inputs in =
        new TargetTable.Inputs(
            "soak.json",
            DIGEST,
            4,
            null,
            null,
            "known",
            4,
            4,
            new double[] {100, 200},
            new double[] {1, 1},
            0.99,
            100 * US,
            1,
            "fluid",
            TargetTable.LoadMetric.LONG_THREADS);
    TargetTable.Groups groups =
        new TargetTable.Groups(
            1_000 * US,
            10_000 * US,
            SpeedupCurve.of(1, 1.2, 1.3, 1.3),
            SpeedupCurve.of(1, 1.6, 2.0, 2.2),
            SpeedupCurve.of(1, 1.9, 2.7, 3.4));
    return new TargetTable(
        in,
        groups,
        List.of(
            new TargetTable.Row(0, scale * 2_000 * US),
            new TargetTable.Row(2, scale * 5_000 * US),
            new TargetTable.Row(TargetTable.INFINITE, scale * 10_000 * US)),
        BUILT,
        0,
        new TargetTable.Search(0, 1, 0, 0));
  }

  /** Tail-control, thresholds for 1..3 active requests. */
  static ThresholdTable tc(int variant) {
    long scale = variant % 2 == 0 ? 1 : 3;
    ThresholdTable.Inputs in =
        new ThresholdTable.Inputs(
            "soak.json", DIGEST, 4, 3, "exact", 50 * US, 500 * US, 1_000, 4, 0.5, 3);
    List<ThresholdTable.Row> rows = new ArrayList<>();
    long[] thresholds = {200 * US, 100 * US, 20 * US};
    for (int q = 1; q <= 3; q++) {
      rows.add(new ThresholdTable.Row(q, scale * thresholds[q - 1], 1.0));
    }
    return new ThresholdTable(in, rows, BUILT, 0);
  }
}
