package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class NoiseMeterTest {

  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long US = TimeUnit.MICROSECONDS.toNanos(1);

  /** {@code value} within the histograms' two significant digits of {@code expected}. */
  private static void near(long expected, long value) {
    assertEquals(expected, value, expected / 50.0, "within 2% of " + expected);
  }

  @Test
  void recordsOversleepsWithTheCorrectionForCoordinatedOmission() {
    try (NoiseMeter meter = NoiseMeter.unstarted(MS);
        NoiseMeter.Window window = meter.window()) {
      for (int i = 0; i < 95; i++) {
        meter.recordSleep(MS + 100 * US); // 0.1 ms late
      }
      meter.recordSleep(MS - 20 * US); // woke early: counts as on time
      meter.recordSleep(MS + 5 * MS); // a 5 ms stall: also 4, 3, 2 and 1 ms for the missed samples
      MachineNoise n = window.read();
      assertEquals(95 + 1 + 5, n.stallSamples());
      near(100 * US, n.stallP50Nanos());
      near(5 * MS, n.stallMaxNanos());
      near(4 * MS, n.stallP99Nanos()); // the 100th of 101 samples
      assertEquals(MS, n.periodNanos());
      assertEquals(0, n.gcPauses());
      assertTrue(Double.isNaN(n.meterCpuFraction()), "a meter without a thread has no cost");
      // Kept whole and uncorrected: one count per sleep, the 5 ms stall once.
      assertEquals(97, n.oversleeps().getTotalCount());
      assertEquals(1, n.oversleeps().getCountBetweenValues(4 * MS, 6 * MS));
      assertEquals(0, n.gcPauseDurations().getTotalCount());
    }
  }

  @Test
  void aWindowCountsOnlyTheSamplesBetweenItsBeginningAndItsClose() {
    try (NoiseMeter meter = NoiseMeter.unstarted(MS)) {
      meter.recordSleep(MS + 3 * MS); // before any window: nobody's
      NoiseMeter.Window first = meter.window();
      meter.recordSleep(MS + 200 * US);
      NoiseMeter.Window second = meter.window();
      meter.recordSleep(MS + 300 * US);
      assertEquals(2, first.read().stallSamples());
      assertEquals(1, second.read().stallSamples());
      near(300 * US, second.read().stallMaxNanos());
      first.close();
      MachineNoise closed = first.read();
      meter.recordSleep(MS + 400 * US);
      assertSame(closed, first.read(), "a closed window keeps its reading");
      assertEquals(2, second.read().stallSamples());
      second.close();
    }
  }

  @Test
  void aWindowFromLaterBeginsWhenTheMeterReachesItOrWhenRead() {
    try (NoiseMeter meter = NoiseMeter.unstarted(MS)) {
      NoiseMeter.Window later = meter.windowFrom(System.nanoTime() + TimeUnit.HOURS.toNanos(1));
      meter.recordSleep(MS + 3 * MS); // not yet begun: not counted
      MachineNoise n = later.read(); // begins it
      assertEquals(0, n.stallSamples());
      meter.recordSleep(MS + 100 * US);
      assertEquals(1, later.read().stallSamples());
    }
  }

  @Test
  void theThreadBeginsAWindowFromAGivenTimeAndSamples() throws InterruptedException {
    try (NoiseMeter meter = NoiseMeter.start(MS)) {
      NoiseMeter.Window window = meter.windowFrom(System.nanoTime());
      Thread thread = meterThread();
      assertTrue(thread.isDaemon());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (window.read().stallSamples() < 5 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      MachineNoise n = window.read();
      assertTrue(n.stallSamples() >= 5, n.toString());
      assertTrue(n.windowNanos() > 0);
      assertTrue(Double.isNaN(n.meterCpuFraction()) || n.meterCpuFraction() >= 0, n.describe());
      meter.close();
      thread.join(TimeUnit.SECONDS.toMillis(5));
      assertFalse(thread.isAlive(), "closing stops the thread");
      assertEquals(window.read(), window.read(), "closing the meter closed its windows");
      assertThrows(IllegalStateException.class, meter::window);
    }
  }

  private static Thread meterThread() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals(NoiseMeter.THREAD_NAME))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no thread named " + NoiseMeter.THREAD_NAME));
  }

  @Test
  void recordingASampleAllocatesNothing() {
    if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads)
        || !threads.isThreadAllocatedMemorySupported()
        || !threads.isThreadAllocatedMemoryEnabled()) {
      return; // this JVM cannot tell
    }
    try (NoiseMeter meter = NoiseMeter.unstarted(MS)) {
      // The warm-up covers the measured samples' range, so that no one-off growth of the
      // histogram's counts falls inside the measurement: what is asserted is per sample.
      for (int i = 0; i < 20_000; i++) {
        meter.recordSleep(MS + i % 3_000 * US);
      }
      int samples = 100_000;
      long before = threads.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < samples; i++) {
        meter.recordSleep(MS + i % 3_000 * US);
      }
      long bytes = threads.getCurrentThreadAllocatedBytes() - before;
      assertTrue(bytes < samples / 100, bytes + " bytes for " + samples + " samples");
    }
  }

  @Test
  void stopTheWorldPausesCountAndConcurrentCyclesDoNot() {
    assertTrue(NoiseMeter.isPause("G1 Young Generation", "end of minor GC"));
    assertTrue(NoiseMeter.isPause("G1 Old Generation", "end of major GC"));
    assertTrue(NoiseMeter.isPause("G1 Concurrent GC", "end of concurrent GC pause"));
    assertTrue(NoiseMeter.isPause("ZGC Major Pauses", "end of GC pause"));
    assertTrue(NoiseMeter.isPause("PS Scavenge", "end of minor GC"));
    assertTrue(NoiseMeter.isPause("Shenandoah Pauses", "end of GC pause"));
    assertFalse(NoiseMeter.isPause("ZGC Cycles", "end of GC cycle"));
    assertFalse(NoiseMeter.isPause("ZGC Minor Cycles", "end of GC cycle"));
    assertFalse(NoiseMeter.isPause("Shenandoah Cycles", "end of GC cycle"));

    try (NoiseMeter meter = NoiseMeter.unstarted(MS)) {
      meter.recordGc("G1 Young Generation", "end of minor GC", 3); // before the window
      NoiseMeter.Window window = meter.window();
      meter.recordGc("G1 Young Generation", "end of minor GC", 4);
      meter.recordGc("ZGC Major Cycles", "end of GC cycle", 200);
      meter.recordGc("G1 Concurrent GC", "end of concurrent GC pause", 1);
      meter.recordGc("ZGC Major Pauses", "end of GC pause", 0);
      MachineNoise n = window.read();
      assertEquals(3, n.gcPauses());
      assertEquals(5 * MS, n.gcPauseTotalNanos());
      assertEquals(4 * MS, n.gcPauseMaxNanos());
      assertEquals(3, n.gcPauseDurations().getTotalCount());
      assertEquals(1, n.gcPauseDurations().getCountBetweenValues(3 * MS, 5 * MS));
    }
  }

  @Test
  void theCollectorsNotificationsReachAWindow() throws InterruptedException {
    try (NoiseMeter meter = NoiseMeter.unstarted(MS);
        NoiseMeter.Window window = meter.window()) {
      System
          .gc(); // a full, stop-the-world collection, unless explicit GC is disabled or concurrent
      // The notification comes from the JVM's own thread, after the collection.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      while (window.read().gcPauses() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      MachineNoise n = window.read();
      assertTrue(n.gcPauses() >= 0);
      assertTrue(n.gcPauseMaxNanos() <= n.gcPauseTotalNanos(), n.describe());
      assertEquals(n.gcPauses() == 0, n.gcPauseTotalNanos() == 0 && n.gcPauseMaxNanos() == 0);
    }
  }

  @Test
  void stealAndOtherCpuAreKnownExactlyWhereProcIs() throws InterruptedException {
    try (NoiseMeter meter = NoiseMeter.unstarted(MS);
        NoiseMeter.Window window = meter.window()) {
      Thread.sleep(50); // a few of the kernel's ticks
      MachineNoise n = window.read();
      if (!CpuTicks.read().known()) {
        assertTrue(Double.isNaN(n.stealFraction()) && Double.isNaN(n.otherCpuFraction()));
      } else if (!Double.isNaN(n.stealFraction())) { // NaN too if no tick passed
        assertTrue(n.stealFraction() >= 0 && n.stealFraction() <= 1);
        assertTrue(n.otherCpuFraction() >= 0 && n.otherCpuFraction() <= 1);
      }
    }
  }

  @Test
  void measuringAStretchReadsItAndStopsItsMeter() throws InterruptedException {
    MachineNoise n = NoiseMeter.measure(Duration.ofMillis(50));
    assertEquals(NoiseMeter.DEFAULT_PERIOD_NANOS, n.periodNanos());
    assertTrue(n.windowNanos() >= TimeUnit.MILLISECONDS.toNanos(50), n.toString());
    assertTrue(
        Thread.getAllStackTraces().keySet().stream()
            .noneMatch(t -> t.getName().equals(NoiseMeter.THREAD_NAME) && t.isAlive()),
        "its thread is gone");
  }

  @Test
  void aPeriodMustBePositive() {
    assertThrows(IllegalArgumentException.class, () -> NoiseMeter.start(0));
  }
}
