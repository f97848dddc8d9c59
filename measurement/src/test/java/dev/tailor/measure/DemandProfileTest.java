package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.model.SpeedupCurve;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemandProfileTest {

  static DemandProfile sample() {
    return DemandProfile.of(
        new DemandProfile.Environment("idx", "synthetic", 1000, "trace.txt", 2, "25", "linux", "t"),
        new DemandProfile.Settings(
            DemandProfile.Settings.INTERLEAVED_ROUNDS, 5_000_000_000L, 3, 1_000_000, 8, 2, 4),
        true,
        new DemandProfile.Conditions(
            9_000_000_000L, 4, new long[] {800_000_000, 790_000_000}, 1, 2, 35, 0.02, null),
        List.of(
            new DemandProfile.Request(
                "1",
                "HighTerm",
                "foo",
                2_000_000,
                new long[] {900_000, 1_000_000},
                new double[] {1.0, 1.8},
                new double[] {1.9, 2.0},
                new DemandProfile.Features("TermQuery", 1, new long[] {500}, 500),
                new DemandProfile.Spread(3, new double[] {0.04, 0.12}))));
  }

  @Test
  void aScaledProfileMultipliesEveryTimeAndKeepsTheSpeedups() {
    DemandProfile scaled = sample().scaled(2);
    DemandProfile.Request r = scaled.requests().get(0);
    assertEquals(4_000_000, r.sequentialNanos());
    assertArrayEquals(new long[] {1_800_000, 2_000_000}, r.unitNanos());
    assertEquals(sample().requests().get(0).speedupCurve(), r.speedupCurve());
    assertEquals(sample().environment(), scaled.environment());
    assertEquals(
        2 * sample().requests().get(0).unitWork().serialNanos(), r.unitWork().serialNanos());
    assertThrows(IllegalArgumentException.class, () -> sample().scaled(0));
  }

  @Test
  void roundTripsThroughJson(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("p.json");
    sample().write(file);
    DemandProfile back = DemandProfile.read(file);
    DemandProfile.Request r = back.requests().get(0);
    assertEquals(sample().environment(), back.environment());
    assertEquals(sample().settings(), back.settings());
    assertEquals(2_000_000, r.sequentialNanos());
    assertArrayEquals(new long[] {900_000, 1_000_000}, r.unitNanos());
    assertEquals(SpeedupCurve.of(1, 1.8, 1.9, 2.0), r.speedupCurve());
    assertEquals(3, r.spread().samples());
    assertEquals(0.04, r.spread().sequential());
    assertArrayEquals(new double[] {0.04, 0.12}, r.spread().byDegree());
    assertEquals(4, back.conditions().warmupRounds());
    assertArrayEquals(new long[] {800_000_000, 790_000_000}, back.conditions().timedRoundNanos());
    assertEquals(0.02, back.conditions().otherCpuShare());
    assertEquals(null, back.conditions().stealShare());
    try (var files = Files.list(dir)) {
      assertEquals(1, files.count(), "no temporary file left behind");
    }
  }

  @Test
  void aBadFileNamesTheFieldAndWhatWasExpected(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("p.json");
    sample().write(file);
    String good = Files.readString(file);
    assertProblem(dir, good.replace("tailor-demand-profile", "other"), "format: expected");
    assertProblem(dir, good.replace("\"version\" : 2", "\"version\" : 9"), "version: this Tailor");
    assertProblem(
        dir,
        good.replace("\"version\" : 2", "\"version\" : 1"),
        "version: a version 1 profile, taken before the profiler measured in interleaved rounds");
    assertProblem(
        dir,
        good.replace("\"byDegree\" : [ 0.04, 0.12 ]", "\"byDegree\" : [ 0.04 ]"),
        "requests[0].spread.byDegree: expected 2 values, got 1");
    assertProblem(
        dir,
        good.replace("\"otherCpuShare\" : 0.02", "\"otherCpuShare\" : 2.5"),
        "conditions.otherCpuShare: must be a share between 0 and 1");
    assertProblem(
        dir,
        good.replace("\"sequentialNanos\" : 2000000", "\"sequentialNanos\" : 0"),
        "requests[0].sequentialNanos: must be >= 1");
    assertProblem(
        dir,
        good.replace("\"measuredSpeedup\" : [ 1.0, 1.8 ]", "\"measuredSpeedup\" : [ 1.0 ]"),
        "requests[0].measuredSpeedup: expected 2 values, got 1");
    assertProblem(
        dir, good.replace("\"complete\" : true", "\"complete\" : \"yes\""), "complete: expected");
    assertProblem(dir, "{ not json", ": line 1, column 3: Unexpected character");
  }

  @Test
  void fieldsOutsideWhatTheirUsersCanTakeAreRefused(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("p.json");
    sample().write(file);
    String good = Files.readString(file);
    assertProblem(
        dir,
        good.replace(
            "\"unitNanos\" : [ 900000, 1000000 ]", "\"unitNanos\" : [ 1, 9223372036854775807 ]"),
        "requests[0].unitNanos: the unit times add up past 9223372036854775807 ns");
    assertProblem(
        dir,
        good.replace("\"trace\" : \"trace.txt\"", "\"trace\" : \"a\\u0000b\""),
        "environment.trace: not a path");
    String empty = good.substring(0, good.indexOf("\"requests\"")) + "\"requests\" : [ ] }";
    assertProblem(dir, empty, "requests: a complete profile needs at least one request");
    Files.writeString(file, empty.replace("\"complete\" : true", "\"complete\" : false"));
    assertTrue(DemandProfile.read(file).requests().isEmpty(), "a profile being taken may be empty");
  }

  private static void assertProblem(Path dir, String content, String expected) throws IOException {
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, content);
    IOException e = assertThrows(IOException.class, () -> DemandProfile.read(bad));
    assertTrue(e.getMessage().startsWith(bad.toString()), e.getMessage());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    assertFalse(e.getMessage().contains("[Source:"), e.getMessage());
  }
}
