package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** How a point of a sweep of worker counts names its count in its environment, and reads it. */
class PointWorkersTest {

  private static final String BASE = "measured on this machine (2 cores)";

  @Test
  void theCountIsNamedAfterTheEnvironmentAndReadBack() {
    assertEquals(BASE + ", 1 worker", PointResult.withWorkers(BASE, 1));
    assertEquals(BASE + ", 16 workers", PointResult.withWorkers(BASE, 16));
    assertEquals(BASE, PointResult.withWorkers(BASE, 0), "the target's own: nothing named");
    for (int w : new int[] {1, 2, 16}) {
      assertEquals(w, PointResult.workersNamedIn(PointResult.withWorkers(BASE, w)));
    }
    assertThrows(IllegalArgumentException.class, () -> PointResult.withWorkers(BASE, -1));
  }

  @Test
  void anEnvironmentThatNamesNoCountReadsAsZero() {
    assertEquals(0, PointResult.workersNamedIn(BASE));
    assertEquals(0, PointResult.workersNamedIn("simulated, 2 cores"));
    assertEquals(0, PointResult.workersNamedIn(BASE + ", 1 workers"), "only the label it writes");
    assertEquals(0, PointResult.workersNamedIn(BASE + ", many workers"));
    assertEquals(0, PointResult.workersNamedIn(BASE + ", 0 workers"));
    assertEquals(0, PointResult.workersNamedIn(""));
  }
}
