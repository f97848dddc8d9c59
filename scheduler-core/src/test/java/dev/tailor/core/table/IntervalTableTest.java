package dev.tailor.core.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.model.Schedule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IntervalTableTest {

  static final String DIGEST = "sha256:" + "ab".repeat(32);

  /** A three-row table: full parallelism alone, a 50 ms ramp at 2, an exit wait from 3. */
  static IntervalTable sample(long rampMillis) {
    IntervalTable.Inputs in =
        new IntervalTable.Inputs(
            "p.json",
            DIGEST,
            2,
            0,
            6,
            IntervalTable.Rule.paper(6),
            3,
            new int[] {1, 2, 3},
            50_000_000,
            150_000_000,
            0.99,
            3,
            null);
    return new IntervalTable(
        in,
        "2026-11-22T06:00:00Z",
        0.5,
        List.of(
            new IntervalTable.Row(1, Schedule.ofMillis(0, 0, 0), 75e6, 50e6, 3),
            new IntervalTable.Row(2, Schedule.ofMillis(0, rampMillis, 0), 100e6, 75e6, 5.0 / 3),
            new IntervalTable.Row(
                3, Schedule.awaitingExit(150_000_000, 150_000_000, 0), 300e6, 250e6, 0.5)));
  }

  @Test
  void roundTripsThroughJson(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.json");
    sample(50).write(file);
    IntervalTable back = IntervalTable.read(file);
    assertEquals(3, back.rows().size());
    assertEquals(Schedule.ofMillis(0, 50, 0), back.schedule(2));
    assertTrue(back.schedule(3).awaitsExit());
    assertEquals(5.0 / 3, back.rows().get(1).parallelism());
    assertArrayEquals(new int[] {1, 2, 3}, back.inputs().degrees());
    assertEquals(DIGEST, back.inputs().profileDigest());
    try (var files = Files.list(dir)) {
      assertEquals(1, files.count(), "no temporary file left behind");
    }
  }

  @Test
  void loadsOutsideTheRowsReadTheNearestRow() {
    IntervalTable t = sample(50);
    assertEquals(t.schedule(1), t.schedule(0));
    assertEquals(t.schedule(3), t.schedule(40));
  }

  @Test
  void aBadFileNamesTheFieldAndWhatWasExpected(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.json");
    sample(50).write(file);
    String good = Files.readString(file);
    assertProblem(dir, good.replace("fm-interval", "tpc-target"), "kind: expected");
    assertProblem(dir, good.replace("\"version\" : 2", "\"version\" : 3"), "version: this Tailor");
    assertProblem(
        dir,
        good.replace("\"mode\" : \"paper\"", "\"mode\" : \"fast\""),
        "inputs.rule.mode: expected");
    assertProblem(
        dir,
        good.replace("\"targetParallelism\" : 6.0", "\"targetParallelism\" : -1"),
        "inputs.rule: the paper's rule needs a target parallelism > 0");
    assertProblem(dir, good.replace(DIGEST, "md5:1"), "inputs.profileDigest: expected sha256");
    assertProblem(dir, good.replace("\"load\" : 2", "\"load\" : 5"), "rows[1].load: expected 2");
    assertProblem(
        dir,
        good.replace(
            "\"intervalsNanos\" : [ 0, 50000000, 0 ]", "\"intervalsNanos\" : [ 0, -5, 0 ]"),
        "rows[1].intervalsNanos[1]: must be >= 0, got -5");
    assertProblem(
        dir,
        good.replace("\"intervalsNanos\" : [ 0, 50000000, 0 ]", "\"intervalsNanos\" : [ 0, 5 ]"),
        "rows[1].intervalsNanos: expected 3 intervals");
    assertProblem(dir, good.replace("\"phi\" : 0.99", "\"phi\" : 1.5"), "inputs.phi: must be in");
    assertProblem(dir, good.replace("\"loads\" : 3", "\"loads\" : 4"), "rows: expected one row");
    assertProblem(dir, "{ not json", ": line 1, column 3: Unexpected character");
  }

  @Test
  void aVersionOneTableReadsAsThePapersRule(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.json");
    sample(50).write(file);
    String v2 = Files.readString(file);
    String v1 =
        v2.replace("\"version\" : 2", "\"version\" : 1")
            .replaceAll("\"rule\" : \\{[^}]*\\}", "\"targetParallelism\" : 6.5");
    Files.writeString(file, v1);
    IntervalTable back = IntervalTable.read(file);
    assertEquals(IntervalTable.Rule.paper(6.5), back.inputs().rule());
    assertEquals(3, back.rows().size());
  }

  @Test
  void throughputRowsRecordTheirArrivalRateAndNeverWait(@TempDir Path dir) throws IOException {
    IntervalTable.Inputs in =
        new IntervalTable.Inputs(
            "p.json",
            DIGEST,
            2,
            0,
            6,
            IntervalTable.Rule.throughput(1, 1.3),
            2,
            new int[] {1, 2},
            1_000_000,
            10_000_000,
            0.99,
            2,
            "tables tune: chosen on half A");
    IntervalTable t =
        new IntervalTable(
            in,
            "2026-11-23T06:00:00Z",
            0.1,
            List.of(
                new IntervalTable.Row(1, Schedule.ofMillis(0, 0), 2e6, 1e6, 2, 120.5),
                new IntervalTable.Row(2, Schedule.ofMillis(0, 3), 3e6, 2e6, 1.5, 250)));
    Path file = dir.resolve("t.json");
    t.write(file);
    IntervalTable back = IntervalTable.read(file);
    assertEquals(IntervalTable.Rule.throughput(1, 1.3), back.inputs().rule());
    assertEquals("tables tune: chosen on half A", back.inputs().tuning());
    assertEquals(120.5, back.rows().get(0).arrivalRate());
    String good = Files.readString(file);
    assertProblem(
        dir,
        good.replace("\"intervalsNanos\" : [ 0, 3000000 ]", "\"intervalsNanos\" : [ 5, 3000000 ]"),
        "rows[1].intervalsNanos: the throughput rule's rows never wait");
    assertProblem(
        dir,
        good.replace("\"queueFactor\" : 1.3", "\"queueFactor\" : 0.5"),
        "inputs.rule: the throughput rule needs");
    assertThrows(IllegalArgumentException.class, () -> IntervalTable.Rule.throughput(0, 1.2));
    assertThrows(IllegalArgumentException.class, () -> IntervalTable.Rule.paper(0));
  }

  private static void assertProblem(Path dir, String content, String expected) throws IOException {
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, content);
    IOException e = assertThrows(IOException.class, () -> IntervalTable.read(bad));
    assertTrue(e.getMessage().startsWith(bad.toString()), e.getMessage());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    assertFalse(e.getMessage().contains("[Source:"), e.getMessage());
  }
}
