package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PointResultJsonTest {

  @TempDir Path tmp;

  /** A reading with every figure distinct, steal unknown. */
  static final MachineNoise NOISE =
      new MachineNoise(
          2_000_000_000L,
          NoiseMeter.DEFAULT_PERIOD_NANOS,
          401,
          90_000,
          1_500_000,
          4_000_000,
          6_100_000,
          2,
          7_000_000,
          5_000_000,
          Double.NaN,
          0.031,
          0.006);

  private static PointResult point() {
    return point(Failures.NONE, null);
  }

  private static PointResult point(Failures failures) {
    return point(failures, null);
  }

  private static PointResult point(Failures failures, MachineNoise noise) {
    Histogram h = new Histogram(3);
    h.recordValue(1_000_000);
    h.recordValue(5_000_000);
    return new PointResult(
        PointResult.FORMAT,
        PointResult.VERSION,
        "fm-wc",
        50,
        "poisson(50/s)",
        42,
        1,
        "simulated, 4 cores",
        null,
        1_000_000_000L,
        2 + failures.total(),
        2,
        failures.total(),
        failures,
        false,
        2.0,
        -1,
        PointResult.percentiles(h),
        PointResult.percentiles(h),
        null,
        Map.of("100ms", 0.0),
        Map.of("long", new long[] {0, 1, 1}),
        PointResult.encode(h),
        LatencyBreakdown.of(h, h, h, h, h),
        noise,
        new Provenance("tailor test 0123456789ab", "host, 2 cores, CPU unknown, amd64, Java 25"),
        null,
        null);
  }

  @Test
  void roundTrips() throws IOException {
    Path file = tmp.resolve("point.json");
    PointResult p = point();
    p.write(file);
    PointResult back = PointResult.read(file);
    assertEquals(p.policy(), back.policy());
    assertEquals(p.latency(), back.latency());
    assertNull(back.sendLag());
    assertNull(back.corpus());
    assertArrayEquals(new long[] {0, 1, 1}, back.degreeDistribution().get("long"));
    assertEquals(2, back.decodeLatency().getTotalCount());
    assertEquals(p.breakdown(), back.breakdown());
    assertEquals(5_000_000, back.breakdown().part("run").p99Nanos(), 5_000);
  }

  @Test
  void aVersionTwoPointReadsWithoutABreakdown() throws IOException {
    Path file = tmp.resolve("point.json");
    point().write(file);
    String v2 =
        Files.readString(file)
            .replaceFirst("\"version\" : 6", "\"version\" : 2")
            .replaceFirst(",\\s*\"noise\" : null", "")
            .replaceFirst(",\\s*\"coRun\" : null", "")
            .replaceFirst(",\\s*\"probe\" : null", "")
            .replaceFirst(",\\s*\"provenance\" : \\{[^}]*}", "")
            .replaceFirst("(?s),\\s*\"breakdown\" : \\{.*}\\s*}\\s*}\\s*}\\s*$", "\n}");
    Files.writeString(file, v2);
    PointResult back = PointResult.read(file);
    assertEquals(2, back.version());
    assertNull(back.breakdown());
  }

  @Test
  void aBreakdownPartWithTooFewPercentilesIsNamed() throws IOException {
    Path file = tmp.resolve("point.json");
    point().write(file);
    Files.writeString(
        file,
        Files.readString(file)
            .replaceFirst("\"percentilesNanos\" : \\[ [0-9]+,", "\"percentilesNanos\" : ["));
    IOException e = assertThrows(IOException.class, () -> PointResult.read(file));
    assertTrue(e.getMessage().contains("breakdown.parts.sendLag.percentilesNanos"), e.getMessage());
  }

  @Test
  void theRepetitionRoundTripsAndAPointWithoutOneIsTheFirst() throws IOException {
    Path file = tmp.resolve("point.json");
    PointResult third = point().withRepetition(3);
    assertEquals("fm-wc", third.policy());
    third.write(file);
    assertEquals(3, PointResult.read(file).repetition());
    assertEquals(3, PointResult.read(file).withPolicy("oracle").repetition());

    // A point written before repetitions existed has no such field: it was the only run.
    Files.writeString(file, Files.readString(file).replaceFirst("\\s*\"repetition\" : 3,", ""));
    assertFalse(Files.readString(file).contains("repetition"));
    assertEquals(1, PointResult.read(file).repetition());

    assertThrows(IllegalArgumentException.class, () -> point().withRepetition(0));
  }

  @Test
  void aBadFieldIsNamedWithItsPath() throws IOException {
    Path file = tmp.resolve("point.json");
    point().write(file);
    Files.writeString(
        file, Files.readString(file).replaceFirst("\"p50\" : [0-9.]+", "\"p50\" : \"fast\""));
    IOException e = assertThrows(IOException.class, () -> PointResult.read(file));
    assertEquals(file + ": latency.p50: expected a number, got \"fast\"", e.getMessage());
  }

  @Test
  void aNegativeCountIsNamed() throws IOException {
    Path file = tmp.resolve("point.json");
    point().write(file);
    Files.writeString(file, Files.readString(file).replace("0, 1, 1", "0, -1, 1"));
    IOException e = assertThrows(IOException.class, () -> PointResult.read(file));
    assertEquals(file + ": degreeDistribution.long[1]: must be >= 0, got -1", e.getMessage());
    assertFalse(e.getMessage().contains("[Source:"));
  }

  @Test
  void theFailuresByKindRoundTrip() throws IOException {
    Path file = tmp.resolve("point.json");
    Failures failures = new Failures(3, 1, 2, 4);
    point(failures).write(file);
    PointResult back = PointResult.read(file);
    assertEquals(PointResult.VERSION, back.version());
    assertEquals(10, back.failed());
    assertEquals(failures, back.failures());
    assertTrue(Files.readString(file).contains("\"unanswered\" : 4"), "kinds are named");
    assertFalse(Files.readString(file).contains("latencyMayHoldFailures"));
    assertFalse(Files.readString(file).contains("total"), "only the counts are written");
  }

  @Test
  void aVersionOnePointReadsWithItsFailuresUnsplit() throws IOException {
    Path file = tmp.resolve("point.json");
    point(new Failures(0, 0, 5, 0)).write(file);
    String v1 =
        Files.readString(file)
            .replaceFirst("\"version\" : 6", "\"version\" : 1")
            .replaceFirst("\"failures\" : \\{[^}]*},", "");
    Files.writeString(file, v1);
    PointResult back = PointResult.read(file);
    assertEquals(1, back.version());
    assertEquals(5, back.failed());
    assertNull(back.failures());
    assertTrue(back.latencyMayHoldFailures());
    assertFalse(point(new Failures(0, 0, 5, 0)).latencyMayHoldFailures());
    back.write(file); // rewritten, it stays what it is
    assertEquals(1, PointResult.read(file).version());
  }

  @Test
  void failuresThatDoNotAddUpAreNamed() throws IOException {
    Path file = tmp.resolve("point.json");
    point(new Failures(1, 0, 0, 0)).write(file);
    Files.writeString(file, Files.readString(file).replace("\"rejected\" : 1", "\"rejected\" : 2"));
    IOException e = assertThrows(IOException.class, () -> PointResult.read(file));
    assertEquals(
        file + ": failures: expected counts adding up to failed = 1, got 2 (2 rejected)",
        e.getMessage());
  }

  @Test
  void aVersionThisTailorDoesNotKnowIsRefused() throws IOException {
    Path file = tmp.resolve("point.json");
    point().write(file);
    Files.writeString(
        file, Files.readString(file).replaceFirst("\"version\" : 6", "\"version\" : 7"));
    IOException e = assertThrows(IOException.class, () -> PointResult.read(file));
    assertEquals(file + ": version: this Tailor reads versions 1 to 6, got 7", e.getMessage());
  }

  @Test
  void theSpeedProbeRoundTripsAndABadRatioIsNamed() throws IOException {
    Path file = tmp.resolve("point.json");
    SpeedProbe probe = new SpeedProbe(10, 1.31, 1.62);
    point().withProbe(probe).write(file);
    PointResult back = PointResult.read(file);
    assertEquals(probe, back.probe());
    assertEquals(
        probe, back.withPolicy("oracle").withRepetition(2).probe(), "relabelling keeps it");
    Files.writeString(file, Files.readString(file).replaceFirst("1\\.62", "-1"));
    IOException e = assertThrows(IOException.class, () -> PointResult.read(file));
    assertTrue(e.getMessage().contains("probe"), e.getMessage());
  }

  @Test
  void theMachinesNoiseRoundTrips() throws IOException {
    Path file = tmp.resolve("point.json");
    PointResult p = point(Failures.NONE, NOISE);
    p.write(file);
    assertTrue(Files.readString(file).contains("\"stealFraction\" : \"NaN\""), "unknown is NaN");
    PointResult back = PointResult.read(file);
    assertEquals(PointResult.VERSION, back.version());
    assertEquals(NOISE, back.noise());
    assertTrue(Double.isNaN(back.noise().stealFraction()));
    assertEquals(
        NOISE, back.withPolicy("oracle").withRepetition(2).noise(), "relabelling keeps it");
    point().write(file);
    assertNull(PointResult.read(file).noise(), "a point measured without a meter");
  }

  @Test
  void aVersionThreePointReadsWithoutNoise() throws IOException {
    Path file = tmp.resolve("point.json");
    point(Failures.NONE, NOISE).write(file);
    String v3 =
        Files.readString(file)
            .replaceFirst("\"version\" : 6", "\"version\" : 3")
            .replaceFirst("(?s),\\s*\"noise\" : \\{[^}]*}", "");
    assertFalse(v3.contains("noise"), v3);
    Files.writeString(file, v3);
    PointResult back = PointResult.read(file);
    assertEquals(3, back.version());
    assertNull(back.noise());
    assertEquals(point().breakdown(), back.breakdown());
  }

  @Test
  void aBadNoiseFieldIsNamed() throws IOException {
    Path file = tmp.resolve("point.json");
    point(Failures.NONE, NOISE).write(file);
    String good = Files.readString(file);

    Files.writeString(file, good.replace("\"stallP99Nanos\" : 1500000", "\"stallP99Nanos\" : 5"));
    IOException order = assertThrows(IOException.class, () -> PointResult.read(file));
    assertEquals(file + ": noise.stallP99Nanos: must be >= 90000, got 5", order.getMessage());

    Files.writeString(
        file, good.replace("\"otherCpuFraction\" : 0.031", "\"otherCpuFraction\" : 1.5"));
    IOException share = assertThrows(IOException.class, () -> PointResult.read(file));
    assertEquals(
        file + ": noise.otherCpuFraction: expected a fraction in 0..1 or \"NaN\", got 1.5",
        share.getMessage());

    Files.writeString(file, good.replaceFirst("\\s*\"gcPauses\" : 2,", ""));
    IOException missing = assertThrows(IOException.class, () -> PointResult.read(file));
    assertEquals(
        file + ": noise.gcPauses: expected a whole number >= 0, got nothing", missing.getMessage());

    Files.writeString(
        file, good.replace("\"gcPauseMaxNanos\" : 5000000", "\"gcPauseMaxNanos\" : 9000000"));
    IOException longest = assertThrows(IOException.class, () -> PointResult.read(file));
    assertTrue(longest.getMessage().startsWith(file + ": noise: "), longest.getMessage());
  }
}
