package dev.tailor.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdmissionLimitsTest {

  @Test
  void theDefaultsRefuseExactlyWhenTheSchedulersQueueIsFull() {
    AdmissionLimits l = AdmissionLimits.of(4, null, null, null, null);
    assertEquals(new AdmissionLimits(4, 16, 20, 28, 28), l);
    assertEquals(
        new AdmissionLimits(2, 8, 10, 18, 18), AdmissionLimits.of(2, null, null, null, null));
    assertEquals(new AdmissionLimits(4, 3, 7, 15, 15), AdmissionLimits.of(4, 3, null, null, null));
  }

  @Test
  void limitsThatDoNotFitTogetherAreRefusedByName() {
    IllegalArgumentException threads =
        assertThrows(
            IllegalArgumentException.class, () -> AdmissionLimits.of(4, null, 10, 10, null));
    assertTrue(threads.getMessage().startsWith("--http-threads (10)"), threads.getMessage());
    IllegalArgumentException queue =
        assertThrows(
            IllegalArgumentException.class, () -> AdmissionLimits.of(4, 0, null, null, null));
    assertTrue(queue.getMessage().contains("must be >= 1"), queue.getMessage());
  }

  @Test
  void theServerOptionsCarryTheLimitsAndTheDefaultBounds() {
    SearchServer.Options o =
        AdmissionLimits.of(4, null, null, null, null)
            .serverOptions("0.0.0.0", 9000, Duration.ofSeconds(3), 8, List.of("a"), 5000);
    SearchServer.Options d = SearchServer.Options.defaults();
    assertEquals("0.0.0.0", o.bind());
    assertEquals(9000, o.port());
    assertEquals(28, o.threads());
    assertEquals(20, o.maxInFlight());
    assertEquals(28, o.acceptQueue());
    assertEquals(Duration.ofSeconds(3), o.clientTimeout());
    assertEquals(d.maxBodyBytes(), o.maxBodyBytes());
    assertEquals(d.maxHits(), o.maxHits());
    assertEquals(8, o.maxLabels());
    assertEquals(List.of("a"), o.labels());
    assertEquals(5000, o.totalHitsThreshold());
  }
}
