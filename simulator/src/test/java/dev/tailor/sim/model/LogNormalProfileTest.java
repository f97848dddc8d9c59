package dev.tailor.sim.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tailor.measure.DemandProfile;
import org.junit.jupiter.api.Test;

class LogNormalProfileTest {

  static final long MS = 1_000_000L;

  @Test
  void hasTheMeanAndDeviationAskedForAndTheAmdahlSpeedup() {
    LogNormalProfile.Shape shape = new LogNormalProfile.Shape(10 * MS, 13 * MS, 0.1);
    DemandProfile p = LogNormalProfile.generate(shape, 200_000, 16, 3);
    double sum = 0;
    double squares = 0;
    for (DemandProfile.Request r : p.requests()) {
      sum += r.sequentialNanos();
      squares += (double) r.sequentialNanos() * r.sequentialNanos();
    }
    int n = p.requests().size();
    double mean = sum / n;
    double sd = Math.sqrt(squares / n - mean * mean);
    assertEquals(10 * MS, mean, 0.02 * 10 * MS);
    assertEquals(13 * MS, sd, 0.05 * 13 * MS);
    DemandProfile.Request first = p.requests().get(0);
    assertEquals(1 / (0.1 + 0.9 / 16), first.speedupCurve().at(16), 1e-9);
    assertEquals(1.0, first.speedupCurve().at(1), 1e-12);
    // The unit model: a serial tenth, then units of about 250 us with no hand-off overhead.
    dev.tailor.measure.UnitWork units = first.unitWork();
    assertEquals(Math.round(0.1 * first.sequentialNanos()), units.serialNanos(), 1);
    assertEquals(0, units.overheadPerUnitNanos(), 0);
    assertEquals("log-normal mean 10ms sd 13ms, 10% serial", shape.describe());
    assertEquals(
        "log-normal mean 1ms sd 1.3ms, 0.3% serial",
        new LogNormalProfile.Shape(MS, 1_300_000, 0.003).describe(),
        "fractions of a millisecond as written, not as binary doubles");
    assertEquals(
        p.requests().get(7).sequentialNanos(),
        LogNormalProfile.generate(shape, 10, 16, 3).requests().get(7).sequentialNanos(),
        "deterministic for a seed");
  }

  @Test
  void parsesMeanDeviationAndSerialFraction() {
    assertEquals(
        new LogNormalProfile.Shape(10 * MS, 13 * MS, LogNormalProfile.NEAR_LINEAR),
        LogNormalProfile.Shape.parse("10ms,13ms"));
    assertEquals(
        new LogNormalProfile.Shape(10 * MS, 17 * MS, 0.1),
        LogNormalProfile.Shape.parse("10ms, 17ms, 0.1"));
    assertThrows(IllegalArgumentException.class, () -> LogNormalProfile.Shape.parse("10ms"));
    assertThrows(IllegalArgumentException.class, () -> LogNormalProfile.Shape.parse("10ms,x"));
    assertThrows(
        IllegalArgumentException.class, () -> LogNormalProfile.Shape.parse("10ms,13ms,half"));
  }

  @Test
  void refusesAShapeWithoutMeaning() {
    assertThrows(IllegalArgumentException.class, () -> new LogNormalProfile.Shape(0, MS, 0));
    assertThrows(IllegalArgumentException.class, () -> new LogNormalProfile.Shape(MS, MS, 1.5));
  }
}
