package dev.tailor.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.CpuTicks;
import org.junit.jupiter.api.Test;

class MachineMonitorTest {

  @Test
  void sharesOfOtherProcessesAndSteal() {
    // 400 ticks pass on the machine: 250 busy of which this process used 100 and steal 50.
    MachineMonitor.Snapshot from =
        new MachineMonitor.Snapshot(new CpuTicks(1_000, 4_000, 10, 500), 7);
    MachineMonitor.Snapshot to =
        new MachineMonitor.Snapshot(new CpuTicks(1_250, 4_400, 60, 600), 19);
    assertEquals(100.0 / 400, MachineMonitor.otherShare(from, to), 1e-12);
    assertEquals(50.0 / 400, MachineMonitor.stealShare(from, to), 1e-12);
    assertEquals(12, MachineMonitor.compilationMillis(from, to));
    MachineMonitor.Snapshot unknown = new MachineMonitor.Snapshot(CpuTicks.UNKNOWN, -1);
    assertNull(MachineMonitor.otherShare(unknown, unknown));
    assertNull(MachineMonitor.stealShare(unknown, unknown));
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
