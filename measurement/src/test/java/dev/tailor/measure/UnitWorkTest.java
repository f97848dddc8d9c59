package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class UnitWorkTest {

  @Test
  void listSchedulingGivesEachUnitToTheFirstFreeThreadInOrder() {
    // t0: 4, t1: 3, then 2 -> t1 (5), then 1 -> t0 (5).
    assertEquals(5.0, UnitWork.listSchedule(new long[] {4, 3, 2, 1}, 0, 2));
    assertEquals(10.0, UnitWork.listSchedule(new long[] {4, 3, 2, 1}, 0, 1));
    assertEquals(4.0, UnitWork.listSchedule(new long[] {4, 3, 2, 1}, 0, 8));
    assertEquals(7.0, UnitWork.listSchedule(new long[] {4, 3, 2, 1}, 1, 2));
  }

  @Test
  void theSerialPartIsWhatTheUnitsLeaveOfTheSequentialTime() {
    UnitWork w = UnitWork.of(1_000, new long[] {200, 200, 200, 200}, new double[] {1_000});
    assertEquals(200, w.serialNanos());
    assertEquals(4, w.units());
    assertEquals(0.0, w.overheadPerUnitNanos(), "one measured degree: nothing to calibrate on");
    assertEquals(1_000.0, w.nanosOn(1));
    assertEquals(600.0, w.nanosOn(2));
  }

  @Test
  void theOverheadExplainsTheMeasuredParallelTimeAndAppliesOnlyWithCompany() {
    // serial 200 + two rounds of 200 = 600 expected at degree 2; measured 800: 100 per unit round.
    UnitWork w = UnitWork.of(1_000, new long[] {200, 200, 200, 200}, new double[] {1_000, 800});
    assertEquals(100.0, w.overheadPerUnitNanos());
    assertEquals(800.0, w.nanosOn(2), "the calibration degree reproduces the measurement");
    assertEquals(200 + 300.0, w.nanosOn(4));
    assertEquals(1_000.0, w.nanosOn(1));
    // Faster than the units allow is noise, not a negative overhead.
    assertEquals(
        0.0,
        UnitWork.of(1_000, new long[] {200, 200, 200, 200}, new double[] {1_000, 500})
            .overheadPerUnitNanos());
  }

  @Test
  void aRequestWithoutUnitsHasNoUnitModel() {
    assertThrows(
        IllegalArgumentException.class, () -> UnitWork.of(10, new long[0], new double[] {10}));
  }

  @Test
  void unitTimesThatAddUpPastALongAreRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> UnitWork.of(10, new long[] {Long.MAX_VALUE, 1}, new double[] {10}));
  }
}
