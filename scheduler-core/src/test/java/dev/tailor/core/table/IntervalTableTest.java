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

  /** A two-row table under the throughput rule. */
  static IntervalTable throughputTable() {
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
    return new IntervalTable(
        in,
        "2026-11-23T06:00:00Z",
        0.1,
        List.of(
            new IntervalTable.Row(1, Schedule.ofMillis(0, 0), 2e6, 1e6, 2, 120.5),
            new IntervalTable.Row(2, Schedule.ofMillis(0, 3), 3e6, 2e6, 1.5, 250)));
  }

  @Test
  void throughputRowsRecordTheirArrivalRateAndNeverWait(@TempDir Path dir) throws IOException {
    IntervalTable t = throughputTable();
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
        "rows[1].intervalsNanos[0]: the throughput rule's rows never wait, got v0 = 5");
    assertProblem(
        dir,
        good.replace("\"queueFactor\" : 1.3", "\"queueFactor\" : 0.5"),
        "inputs.rule: the throughput rule needs");
    assertThrows(IllegalArgumentException.class, () -> IntervalTable.Rule.throughput(0, 1.2));
    assertThrows(IllegalArgumentException.class, () -> IntervalTable.Rule.paper(0));
  }

  @Test
  void everyFieldIsCheckedAgainstItsOwnBounds(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.json");
    sample(50).write(file);
    TableEdits t = new TableEdits(file, IntervalTable::read);
    // A huge wait would hold every admission at that load.
    t.refused(
        "/rows/1/intervalsNanos/0",
        "1000000000000000000",
        "rows[1].intervalsNanos[0]: must be <= inputs.horizonNanos (150000000), got"
            + " 1000000000000000000");
    t.refused(
        "/rows/1/intervalsNanos/1",
        "150000001",
        "rows[1].intervalsNanos[1]: must be <= inputs.horizonNanos (150000000), got 150000001");
    t.refused(
        "/rows/1/intervalsNanos",
        "[0, 100000000, 60000000]",
        "rows[1].intervalsNanos: the running intervals v1.. sum to 160000000, more than"
            + " inputs.horizonNanos (150000000)");
    t.refused(
        "/rows/1/intervalsNanos/2",
        "99999999999999999999",
        "rows[1].intervalsNanos[2]: expected a whole number >= 0, got 99999999999999999999");
    t.refused(
        "/rows/1/intervalsNanos/2",
        "1.5",
        "rows[1].intervalsNanos[2]: expected a whole number >= 0, got 1.5");
    t.refused(
        "/rows/1/intervalsNanos",
        "[0, 50000000]",
        "rows[1].intervalsNanos: expected 3 intervals (inputs.maxDegree), got 2");
    t.refused(
        "/rows/1/intervalsNanos", "[]", "rows[1].intervalsNanos: expected at least v0, got none");
    t.refused(
        "/rows/2/intervalsNanos/0",
        "100000000",
        "rows[2].intervalsNanos[0]: a row that waits for an exit keeps v0 = inputs.horizonNanos"
            + " (150000000), got 100000000");
    t.refused("/rows/1/load", "5", "rows[1].load: expected 2 (rows go by load from 1), got 5");
    t.refused("/rows/1/load", "0", "rows[1].load: must be >= 1, got 0");
    t.refused("/rows/1/awaitExit", "\"no\"", "rows[1].awaitExit: expected true or false");
    t.refused("/rows/0/tailNanos", "-1", "rows[0].tailNanos: must be >= 0, got -1.0");
    t.refused(
        "/rows/0/meanNanos",
        "\"fast\"",
        "rows[0].meanNanos: expected a finite number, got \"fast\"");
    t.refused(
        "/rows/0/parallelism",
        "3.5",
        "rows[0].parallelism: must be between 0 and inputs.maxDegree (3), got 3.5");
    t.refused("/rows/0", "7", "rows[0]: expected an object");
    t.refused("/rows", "[]", "rows: expected one row per load 1..3 (inputs.loads), got 0");
    t.refused(
        "/inputs/horizonNanos",
        "3600000000001",
        "inputs.horizonNanos: must be <= an hour in nanoseconds (3600000000000), got"
            + " 3600000000001");
    t.refused("/inputs/horizonNanos", "-1", "inputs.horizonNanos: must be >= 0, got -1");
    t.refused("/inputs/stepNanos", "0", "inputs.stepNanos: must be >= 1, got 0");
    t.refused("/inputs/loads", "0", "inputs.loads: must be >= 1, got 0");
    t.refused("/inputs/loads", "4", "rows: expected one row per load 1..4 (inputs.loads), got 3");
    t.refused("/inputs/requests", "0", "inputs.requests: must be >= 1, got 0");
    t.refused("/inputs/bins", "-1", "inputs.bins: must be >= 0, got -1");
    t.refused("/inputs/cores", "0", "inputs.cores: must be >= 1, got 0");
    t.refused("/inputs/cores", "4294967297", "inputs.cores: must be <= 2147483647, got 4294967297");
    t.refused("/inputs/maxDegree", "0", "inputs.maxDegree: must be >= 1, got 0");
    t.refused("/inputs/phi", "0", "inputs.phi: must be in (0, 1], got 0.0");
    t.refused("/inputs/phi", "1.5", "inputs.phi: must be in (0, 1], got 1.5");
    t.refused("/inputs/profile", "\"\"", "inputs.profile: expected a non-empty string, got \"\"");
    t.refused("/inputs/tuning", "5", "inputs.tuning: expected a string");
    t.refused(
        "/inputs/profileDigest",
        "\"sha256:AB\"",
        "inputs.profileDigest: expected sha256: and 64 lower-case hex digits, got \"sha256:AB\"");
    t.refused("/buildSeconds", "-1", "buildSeconds: must be >= 0, got -1.0");
    t.refused(
        "/builtAt",
        "\"yesterday\"",
        "builtAt: expected an ISO-8601 instant such as 2026-11-22T06:00:00Z, got \"yesterday\"");
    t.refused("/kind", "\"tc-threshold\"", "kind: expected \"fm-interval\", got \"tc-threshold\"");
  }

  @Test
  void theDegreesAreWholeAscendingAndEndWithTheMaximum(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.json");
    sample(50).write(file);
    TableEdits t = new TableEdits(file, IntervalTable::read);
    // 2^32 + 2 would read as 2 if narrowed to an int.
    t.refused(
        "/inputs/degrees/1",
        "4294967298",
        "inputs.degrees[1]: must be <= 2147483647, got 4294967298");
    t.refused(
        "/inputs/degrees",
        "[2, 1, 3]",
        "inputs.degrees[1]: expected degrees ascending between 1 and inputs.maxDegree (3), got 1"
            + " after 2");
    t.refused(
        "/inputs/degrees",
        "[1, 2, 4]",
        "inputs.degrees[2]: expected degrees ascending between 1 and inputs.maxDegree (3), got 4"
            + " after 2");
    t.refused(
        "/inputs/degrees",
        "[1, 2]",
        "inputs.degrees: must end with inputs.maxDegree (3), got [1, 2]");
    t.refused("/inputs/degrees", "[]", "inputs.degrees: expected at least one degree, got none");
    t.refused("/inputs/degrees/0", "0", "inputs.degrees[0]: must be >= 1, got 0");
    // Degree 2 left out of the search: its interval must be 0, as the search held it.
    Path without2 = t.with("/inputs/degrees", "[1, 3]");
    new TableEdits(without2, IntervalTable::read)
        .refused(
            "/rows/1/intervalsNanos",
            "[0, 0, 50000000]",
            "rows[1].intervalsNanos[2]: degree 2 is not in inputs.degrees [1, 3], so its interval"
                + " must be 0, got 50000000");
  }

  @Test
  void aTableBuiltInMemoryIsCheckedByTheSameRules() {
    IntervalTable good = sample(50);
    List<IntervalTable.Row> rows = new java.util.ArrayList<>(good.rows());
    rows.set(1, new IntervalTable.Row(2, Schedule.of(Long.MAX_VALUE, 0, 0), 0, 0, 1));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new IntervalTable(good.inputs(), good.builtAt(), 0, rows));
    assertEquals(
        "rows[1].intervalsNanos[0]: must be <= inputs.horizonNanos (150000000), got "
            + Long.MAX_VALUE,
        e.getMessage());
  }

  @Test
  void theThroughputRulesRowsNeverWaitAndRecordARate(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.json");
    throughputTable().write(file);
    TableEdits t = new TableEdits(file, IntervalTable::read);
    t.refused(
        "/rows/0/arrivalRate", "0", "rows[0].arrivalRate: must be a finite number > 0, got 0.0");
    t.refused("/rows/0/arrivalRate", "-2", "rows[0].arrivalRate: must be >= 0, got -2.0");
    t.refused(
        "/rows/0/awaitExit",
        "true",
        "rows[0].awaitExit: the throughput rule's rows never wait, got true");
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
