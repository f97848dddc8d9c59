package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WorkloadSpreadTest {

  @Test
  void heavyTail() {
    // 100 requests: 95 of 1 ms and 5 of 20 ms.
    double[] times = new double[100];
    for (int i = 0; i < times.length; i++) {
      times[i] = i < 95 ? 1e6 : 20e6;
    }
    WorkloadSpread s = WorkloadSpread.of(times);
    assertEquals(100, s.requests());
    assertEquals(1e6, s.medianNanos(), 1e-9);
    assertEquals(20e6, s.p99Nanos(), 1e-9);
    assertEquals(20.0, s.p99OverMedian(), 1e-9);
    assertEquals(1.95e6, s.meanNanos(), 1e-9);
    assertEquals(100.0 / 195, s.slowest5PercentShare(), 1e-12); // 5 x 20 of 195 ms
    assertTrue(s.describe().contains("P99/median 20.0"), s.describe());
    assertTrue(s.describe().contains("the slowest 5% hold 51% of the time"), s.describe());
  }

  @Test
  void smallWorkloadsCountAtLeastOneSlowRequest() {
    WorkloadSpread s = WorkloadSpread.of(new double[] {3, 1, 2, 4});
    assertEquals(1, WorkloadSpread.slowestCount(4));
    assertEquals(2.5, s.medianNanos(), 1e-9);
    assertEquals(4, s.p99Nanos(), 1e-9);
    assertEquals(0.4, s.slowest5PercentShare(), 1e-12);
  }

  @Test
  void rejectsAnEmptyWorkload() {
    assertThrows(IllegalArgumentException.class, () -> WorkloadSpread.of(new double[0]));
  }
}
