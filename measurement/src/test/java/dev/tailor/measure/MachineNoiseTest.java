package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tailor.core.json.JsonFile;
import org.junit.jupiter.api.Test;

class MachineNoiseTest {

  private static MachineNoise noise(long p99, double steal) {
    return new MachineNoise(
        5_000_000_000L,
        5_000_000,
        1_000,
        100_000,
        p99,
        3_100_000,
        3_100_000,
        2,
        4_000_000,
        3_000_000,
        steal,
        0.031,
        0.006);
  }

  @Test
  void describesItselfInOneLine() {
    assertEquals(
        "stalls P99 0.21 ms (max 3.1 ms), GC 2 pauses 4.0 ms (max 3.0 ms), steal 0.0%, other CPU"
            + " 3.1%, meter 0.6% of a core",
        noise(210_000, 0.0).describe());
    assertTrue(noise(210_000, Double.NaN).describe().contains("steal n/a"));
  }

  @Test
  void stallsExceedABoundOnTheirP99() {
    assertFalse(noise(210_000, 0).stallsExceed(MachineNoise.DEFAULT_STALL_BOUND_NANOS));
    assertFalse(noise(3_000_000, 0).stallsExceed(3_000_000), "at the bound is within it");
    assertTrue(noise(3_000_000, 0).stallsExceed(2_999_999));
    assertEquals(5_000_000, MachineNoise.DEFAULT_STALL_BOUND_NANOS);
  }

  @Test
  void roundTripsAsJsonWithUnknownSharesAsNaN() throws Exception {
    ObjectMapper json = JsonFile.mapper();
    MachineNoise n = noise(210_000, Double.NaN);
    String text = json.writeValueAsString(n);
    assertTrue(text.contains("\"stealFraction\" : \"NaN\""), text);
    assertFalse(text.contains("describe"), text);
    assertEquals(n, json.readValue(text, MachineNoise.class));
  }

  @Test
  void anInconsistentReadingIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> noise(50_000, 0), "P99 below P50");
    assertThrows(IllegalArgumentException.class, () -> noise(210_000, 1.5), "steal above 1");
    assertThrows(
        IllegalArgumentException.class,
        () -> new MachineNoise(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        "no period");
    assertThrows(
        IllegalArgumentException.class,
        () -> new MachineNoise(1, 1, 0, 0, 0, 0, 0, 1, 1, 2, 0, 0, 0),
        "a longest pause above the total");
  }
}
