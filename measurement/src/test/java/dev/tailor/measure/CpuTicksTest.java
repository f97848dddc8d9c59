package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class CpuTicksTest {

  private static final String SELF = "4242 (java) S 1 2 3 4 5 6 7 8 9 10 700 300 0 0 20 0 40 0";

  @Test
  void readsTheCpuLineOfProcStat() {
    assertArrayEquals(
        new long[] {10, 1, 5, 100, 2, 0, 1, 3, 0, 0},
        CpuTicks.cpuLine("cpu  10 1 5 100 2 0 1 3 0 0"));
  }

  @Test
  void readsOwnTicksPastACommandNameWithSpacesAndParentheses() {
    String stat = "4242 (java (x) y) S 1 2 3 4 5 6 7 8 9 10 700 300 0 0 20 0 40 0";
    assertEquals(1000, CpuTicks.ownTicks(stat));
  }

  @Test
  void parsesBothFilesIntoBusyTotalStealAndOwn() {
    // user nice system idle iowait irq softirq steal guest guest_nice; cpu0 and the rest ignored.
    String stat = "cpu  100 10 50 800 20 5 5 10 40 0\ncpu0 1 2 3 4 5 6 7 8 9 10\nintr 1\n";
    CpuTicks t = CpuTicks.parse(stat, SELF);
    assertEquals(1000, t.totalTicks(), "the first eight fields; guest is within user");
    assertEquals(180, t.busyTicks(), "all but idle and iowait");
    assertEquals(10, t.stealTicks());
    assertEquals(1000, t.ownTicks());
    assertTrue(t.known());
  }

  @Test
  void stealAndOtherSharesOfAllTheMachinesTime() {
    // 400 ticks pass on the machine: 250 busy, of which this process used 100 and steal 50.
    CpuTicks from = new CpuTicks(1_000, 4_000, 10, 500);
    CpuTicks to = new CpuTicks(1_250, 4_400, 60, 600);
    assertEquals(50.0 / 400, to.stealShareSince(from), 1e-12);
    assertEquals(100.0 / 400, to.otherShareSince(from), 1e-12);
    // From crafted text: 200 ticks pass, 70 busy: 10 this process, 20 stolen, 40 others.
    String a = "cpu  100 0 0 900 0 0 0 0\n";
    String b = "cpu  140 0 10 1030 0 0 0 20\n";
    CpuTicks x = CpuTicks.parse(a, SELF);
    CpuTicks y = CpuTicks.parse(b, SELF.replace(" 700 300 ", " 710 300 "));
    assertEquals(20.0 / 200, y.stealShareSince(x), 1e-12);
    assertEquals((70.0 - 10 - 20) / 200, y.otherShareSince(x), 1e-12);
  }

  @Test
  void anUnknownReadingOrNoTimePassingIsNaN() {
    CpuTicks t = new CpuTicks(1, 2, 0, 1);
    assertTrue(Double.isNaN(t.stealShareSince(CpuTicks.UNKNOWN)));
    assertTrue(Double.isNaN(CpuTicks.UNKNOWN.otherShareSince(t)));
    assertTrue(Double.isNaN(t.otherShareSince(t)), "no tick passed");
    assertFalse(CpuTicks.UNKNOWN.known());
  }

  @Test
  void aBadLineNamesTheFileAndTheField() {
    IllegalArgumentException notCpu =
        assertThrows(IllegalArgumentException.class, () -> CpuTicks.cpuLine("cpu0 1 2 3"));
    assertEquals(
        "/proc/stat: expected the cpu line first, got \"cpu0 1 2 3\"", notCpu.getMessage());
    IllegalArgumentException steal =
        assertThrows(
            IllegalArgumentException.class, () -> CpuTicks.parse("cpu  1 2 3 4 5 6 7 x\n", SELF));
    assertEquals(
        "/proc/stat: cpu line: steal: expected a whole number of ticks, got \"x\"",
        steal.getMessage());
    IllegalArgumentException shortLine =
        assertThrows(IllegalArgumentException.class, () -> CpuTicks.cpuLine("cpu  1 2 3"));
    assertTrue(shortLine.getMessage().startsWith("/proc/stat: cpu line:"), shortLine.getMessage());
    IllegalArgumentException utime =
        assertThrows(
            IllegalArgumentException.class, () -> CpuTicks.ownTicks(SELF.replace(" 700 ", " -7 ")));
    assertEquals(
        "/proc/self/stat: field 14 (utime): expected a whole number of ticks, got \"-7\"",
        utime.getMessage());
    IllegalArgumentException cut =
        assertThrows(IllegalArgumentException.class, () -> CpuTicks.ownTicks("4242 (java) S 1"));
    assertTrue(cut.getMessage().startsWith("/proc/self/stat: "), cut.getMessage());
  }

  @Test
  void readingThisMachineIsKnownExactlyWhereProcIs() {
    CpuTicks now = CpuTicks.read();
    assertEquals(Files.isReadable(CpuTicks.PROC_STAT), now.known());
    if (now.known()) {
      assertTrue(now.busyTicks() <= now.totalTicks());
      assertTrue(now.ownTicks() >= 0);
    }
  }
}
