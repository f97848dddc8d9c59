package dev.tailor.profiler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MachineMonitorTest {

  @Test
  void readsTheCpuLineOfProcStat() {
    assertArrayEquals(
        new long[] {10, 1, 5, 100, 2, 0, 1, 3, 0, 0},
        MachineMonitor.cpuLine("cpu  10 1 5 100 2 0 1 3 0 0"));
    assertThrows(IllegalArgumentException.class, () -> MachineMonitor.cpuLine("cpu0 1 2 3"));
  }

  @Test
  void readsOwnTicksPastACommandNameWithSpacesAndParentheses() {
    String stat = "4242 (java (x) y) S 1 2 3 4 5 6 7 8 9 10 700 300 0 0 20 0 40 0";
    assertEquals(1000, MachineMonitor.ownTicks(stat));
  }

  @Test
  void sharesOfOtherProcessesAndSteal() {
    // 400 ticks pass on the machine: 250 busy of which this process used 100 and steal 50.
    MachineMonitor.Snapshot from = new MachineMonitor.Snapshot(1_000, 4_000, 10, 500, 7);
    MachineMonitor.Snapshot to = new MachineMonitor.Snapshot(1_250, 4_400, 60, 600, 19);
    assertEquals(100.0 / 400, MachineMonitor.otherShare(from, to), 1e-12);
    assertEquals(50.0 / 400, MachineMonitor.stealShare(from, to), 1e-12);
    assertEquals(12, MachineMonitor.compilationMillis(from, to));
    MachineMonitor.Snapshot unknown = new MachineMonitor.Snapshot(-1, -1, -1, -1, -1);
    assertNull(MachineMonitor.otherShare(unknown, unknown));
    assertEquals(-1, MachineMonitor.compilationMillis(unknown, unknown));
  }

  @Test
  void countsCollectionsOfThisJvm() {
    MachineMonitor monitor = new MachineMonitor();
    long before = monitor.collections();
    System.gc(); // a full collection on the default collector, unless explicit GC is disabled
    assertTrue(monitor.collections() > before, "the collection is counted");
  }
}
