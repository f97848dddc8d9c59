package dev.tailor.core.metrics;

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
            .outcome(2_000 * MS, 110, 100, 10, false)
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
    assertEquals(100, p.decodeLatency().getTotalCount());
  }

  @Test
  void anEmptyWindowIsRefused() {
    PointResultBuilder b = new PointResultBuilder("seq", new Histogram(3));
    assertThrows(IllegalArgumentException.class, () -> b.outcome(0, 0, 0, 0, false));
  }
}
