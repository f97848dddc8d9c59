package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PointResultBuilderTest {

  private static final long MS = 1_000_000L;

  @Test
  void derivesPercentilesMissRatiosAndTheAchievedRateFromTheHistogram() {
    Histogram latency = new Histogram(1, 3_600_000_000_000L, 3);
    for (int i = 1; i <= 100; i++) {
      latency.recordValue(i * MS); // 1 ms .. 100 ms
    }
    PointResult p =
        new PointResultBuilder("fixed:2", latency)
            .labels(40, "poisson(40.0/s)", 3, "simulated, 4 cores", "test")
            .outcome(2_000 * MS, 100, 100, 0, false)
            .missTargets(List.of(50 * MS, 90 * MS))
            .build();
    assertEquals(PointResult.FORMAT, p.format());
    assertEquals("fixed:2", p.policy());
    assertEquals(50.0, p.achievedRps(), 1e-9);
    assertEquals(Map.of("50ms", 0.5, "90ms", 0.1).keySet(), p.missRatio().keySet());
    assertEquals(0.5, p.missRatio().get("50ms"), 1e-9);
    assertEquals(0.1, p.missRatio().get("90ms"), 1e-9);
    assertEquals(100.0, p.latency().get("count"));
    assertEquals(-1, p.cpuNanos());
    assertNull(p.queueing());
    assertNull(p.sendLag());
    assertNull(p.noise(), "nothing measured the machine");
    assertEquals(100, p.decodeLatency().getTotalCount());
  }

  @Test
  void theMachinesNoiseIsCarried() {
    PointResult p =
        new PointResultBuilder("seq", new Histogram(3))
            .outcome(MS, 0, 0, 0, false)
            .noise(PointResultJsonTest.NOISE)
            .build();
    assertEquals(PointResultJsonTest.NOISE, p.noise());
  }

  @Test
  void anEmptyWindowIsRefused() {
    PointResultBuilder b = new PointResultBuilder("seq", new Histogram(3));
    assertThrows(IllegalArgumentException.class, () -> b.outcome(0, 0, 0, 0, false));
  }

  @Test
  void failedRequestsAreMissesAndStayOutOfTheLatencies() {
    Histogram latency = new Histogram(1, 3_600_000_000_000L, 3);
    for (int i = 1; i <= 90; i++) {
      latency.recordValue(i * MS); // the 90 answered: 1 ms .. 90 ms
    }
    Failures failures = new Failures(4, 1, 2, 3);
    PointResult p =
        new PointResultBuilder("fixed:2", latency)
            .outcome(1_000 * MS, 100, 90, failures, false)
            .missTargets(List.of(50 * MS, 1_000 * MS))
            .build();
    assertEquals(10, p.failed());
    assertEquals(failures, p.failures());
    assertEquals(90.0, p.achievedRps(), 1e-9);
    assertEquals(90.0, p.latency().get("count"));
    // 40 answered slower than 50 ms and 10 failed, of 100.
    assertEquals(0.5, p.missRatio().get("50ms"), 1e-9);
    // Every answer came within a second; the failures did not.
    assertEquals(0.1, p.missRatio().get("1s"), 1e-9);
  }

  @Test
  void failuresOfUnknownKindAreNotSplit() {
    PointResult unknown =
        new PointResultBuilder("seq", new Histogram(3)).outcome(1, 3, 0, 3, false).build();
    assertEquals(3, unknown.failed());
    assertNull(unknown.failures());
    PointResult none =
        new PointResultBuilder("seq", new Histogram(3)).outcome(1, 0, 0, 0, false).build();
    assertEquals(Failures.NONE, none.failures());
  }
}
