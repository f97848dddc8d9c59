package dev.tailor.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CalibrationTest {

  private static final long MS = 1_000_000;

  @TempDir Path dir;

  private static DemandProfile profile(String index, int cores, String takenAt) {
    return profile(index, cores, takenAt, "j");
  }

  /** One request of 10 ms in one unit, profiled on {@code cores} with Java {@code jvm}. */
  static DemandProfile profile(String index, int cores, String takenAt, String jvm) {
    DemandProfile.Request r =
        new DemandProfile.Request(
            "0",
            null,
            "q",
            10 * MS,
            new long[] {10 * MS},
            new double[] {1.0},
            new double[] {1.0},
            new DemandProfile.Features("test", 1, new long[0], 0));
    return DemandProfile.of(
        new DemandProfile.Environment(index, "test", 1, "t", cores, jvm, "Linux amd64", takenAt),
        new DemandProfile.Settings(1, 1, 1, 2),
        true,
        List.of(r));
  }

  static long[] constant(long nanos) {
    long[] p = new long[Calibration.PERCENTILES];
    Arrays.fill(p, nanos);
    return p;
  }

  static long[] ramp(long from, long step) {
    long[] p = new long[Calibration.PERCENTILES];
    for (int i = 0; i < p.length; i++) {
      p[i] = from + i * step;
    }
    return p;
  }

  private static Calibration calibration(
      DemandProfile profile, double scale, long wake, long client) {
    return Calibration.of(
        profile,
        "test",
        scale,
        constant(wake),
        constant(client / 2),
        constant(client - client / 2));
  }

  @Test
  void roundTripsThroughItsFile() throws IOException {
    Calibration c =
        Calibration.of(
            profile("idx", 2, "2026-01-01T00:00:00Z"),
            "a replay",
            1.25,
            ramp(1000, 10),
            ramp(500, 3),
            ramp(0, 1));
    Path file = dir.resolve("c.json");
    c.write(file);
    assertEquals(c, Calibration.read(file));
  }

  @Test
  void aFileOfAnotherFormatVersionIsRefusedNamingTheFileAndField() throws IOException {
    Path file = dir.resolve("c.json");
    calibration(profile("idx", 2, "2026-01-01T00:00:00Z"), 1, 0, 0).write(file);
    Files.writeString(
        file, Files.readString(file).replaceFirst("\"version\"\\s*:\\s*3", "\"version\": 4"));
    IOException e = assertThrows(IOException.class, () -> Calibration.read(file));
    assertEquals(file + ": version: this Tailor reads versions 1 to 3, got 4", e.getMessage());
  }

  @Test
  void aDistributionOfTheWrongLengthIsRefusedNamingTheField() throws IOException {
    Path file = dir.resolve("c.json");
    calibration(profile("idx", 2, "2026-01-01T00:00:00Z"), 1, 0, 0).write(file);
    Files.writeString(
        file,
        Files.readString(file)
            .replaceFirst("\"dispatchNanos\"\\s*:\\s*\\[\\s*0\\s*,", "\"dispatchNanos\": ["));
    IOException e = assertThrows(IOException.class, () -> Calibration.read(file));
    assertTrue(e.getMessage().contains("dispatchNanos"), e.getMessage());
  }

  @Test
  void aProfileOfAnotherMachineOrWorkloadIsRefused() {
    Path file = dir.resolve("c.json");
    Calibration c = calibration(profile("idx", 2, "2026-01-01T00:00:00Z"), 1, 0, 0);
    IOException cores =
        assertThrows(
            IOException.class, () -> c.check(file, profile("idx", 16, "2026-01-01T00:00:00Z")));
    assertTrue(cores.getMessage().contains("machine.cores"), cores.getMessage());
    IOException other =
        assertThrows(
            IOException.class, () -> c.check(file, profile("other", 2, "2026-01-01T00:00:00Z")));
    assertTrue(other.getMessage().contains("workload"), other.getMessage());
  }

  @Test
  void aCalibrationOlderThanTheProfileIsWarnedAbout() throws IOException {
    Path file = dir.resolve("c.json");
    Calibration c = calibration(profile("idx", 2, "2026-01-01T00:00:00Z"), 1, 0, 0);
    assertNull(c.check(file, profile("idx", 2, "2020-01-01T00:00:00Z")));
    String warning = c.check(file, profile("idx", 2, "2999-01-01T00:00:00Z"));
    assertNotNull(warning);
    assertTrue(warning.contains("older than the profile"), warning);
  }

  @Test
  void drawsFollowThePercentiles() {
    long[] p = ramp(0, 100); // uniform on 0..10,000 ns
    SplittableRandom random = new SplittableRandom(7);
    long below = 0;
    for (int i = 0; i < 10_000; i++) {
      long x = Calibration.draw(p, random);
      assertTrue(x >= 0 && x <= 10_000, "draw " + x);
      if (x < 5_000) {
        below++;
      }
    }
    assertTrue(below > 4_500 && below < 5_500, "half the draws below the median, got " + below);
  }

  @Test
  void aLoneRequestTakesItsScaledWorkPlusWakeUpPlusClientCosts() {
    // One request at a time (10 ms each, 1 per second): latency is its own time, no queueing.
    DemandProfile profile = profile("idx", 2, "2026-01-01T00:00:00Z");
    long[] arrivals = {0, 1_000 * MS, 2_000 * MS};
    int[] order = {0, 0, 0};
    Simulator.Labels labels = new Simulator.Labels(1, "given", 1, "test");
    for (Simulator.WorkModel model : Simulator.WorkModel.values()) {
      Simulator.Config base = new Simulator.Config(2, 5 * MS, 80 * MS, 0, 1_000, List.of(), model);
      try (Policy seq = PolicyRegistry.of("seq")) {
        PointResult none = new Simulator(profile, seq, base).run(arrivals, order, labels);
        PointResult charged =
            new Simulator(profile, seq, base.withCalibration(calibration(profile, 1.5, MS, 2 * MS)))
                .run(arrivals, order, labels);
        assertEquals(10.0, none.latency().get("p50") / MS, 0.01, model.name());
        // 10 ms x 1.5 + 1 ms wake-up + 2 ms completion and send lag.
        assertEquals(18.0, charged.latency().get("p50") / MS, 0.02, model.name());
      }
    }
  }
}
