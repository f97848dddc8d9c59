package dev.tailor.core.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThresholdTableTest {

  static final long MS = 1_000_000L;

  static ThresholdTable table() {
    ThresholdTable.Inputs in =
        new ThresholdTable.Inputs(
            "p.json",
            "sha256:" + "a".repeat(64),
            1000,
            40,
            "log",
            10 * MS,
            20 * MS,
            1000,
            16,
            10.0,
            3);
    return new ThresholdTable(
        in,
        List.of(
            new ThresholdTable.Row(1, 200 * MS, 1.0),
            new ThresholdTable.Row(2, 80 * MS, 1.4),
            new ThresholdTable.Row(3, 30 * MS, 2.5)),
        "2026-11-23T00:00:00Z",
        0.02);
  }

  @Test
  void roundTripsAndReadsTheFirstAndLastRowOutsideItsLoads(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.json");
    table().write(file);
    ThresholdTable back = ThresholdTable.read(file);
    assertEquals(table().inputs().toString(), back.inputs().toString());
    assertEquals(table().rows(), back.rows());
    assertEquals(200 * MS, back.thresholdNanos(0));
    assertEquals(80 * MS, back.thresholdNanos(2));
    assertEquals(30 * MS, back.thresholdNanos(1000));
  }

  @Test
  void rowsMustCoverEveryLoadInOrder() {
    ThresholdTable t = table();
    assertThrows(
        IllegalArgumentException.class,
        () -> new ThresholdTable(t.inputs(), List.of(t.rows().get(0), t.rows().get(2)), "x", 0));
  }

  @Test
  void badFilesNameTheFieldAndWhatWasExpected(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.json");
    table().write(file);
    String good = Files.readString(file);
    assertProblem(file, good.replace("\"tc-threshold\"", "\"tpc-target\""), "kind");
    assertProblem(file, good.replace("\"rps\" : 1000.0", "\"rps\" : 0"), "inputs.rps");
    assertProblem(file, good.replace("\"qMax\" : 3", "\"qMax\" : 4"), "rows");
    assertProblem(
        file,
        good.replace("\"thresholdNanos\" : 80000000", "\"thresholdNanos\" : -1"),
        "rows[1].thresholdNanos");
    assertProblem(file, good.replace("sha256:a", "sha256:z"), "inputs.sourceDigest");
  }

  @Test
  void everyFieldIsCheckedAgainstItsOwnBounds(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.json");
    table().write(file);
    TableEdits t = new TableEdits(file, ThresholdTable::read);
    t.refused("/inputs/source", "\"\"", "inputs.source: expected a non-empty string, got \"\"");
    t.refused(
        "/inputs/sourceDigest",
        "\"md5:1\"",
        "inputs.sourceDigest: expected sha256: and 64 lower-case hex digits, got \"md5:1\"");
    t.refused("/inputs/requests", "0", "inputs.requests: must be >= 1, got 0");
    t.refused("/inputs/bins", "0", "inputs.bins: must be >= 1, got 0");
    t.refused("/inputs/binning", "\" \"", "inputs.binning: expected a non-empty string, got \" \"");
    t.refused("/inputs/meanWorkNanos", "0", "inputs.meanWorkNanos: must be >= 1, got 0");
    t.refused("/inputs/targetNanos", "-5", "inputs.targetNanos: must be >= 1, got -5");
    t.refused("/inputs/rps", "0", "inputs.rps: must be a finite number > 0, got 0.0");
    // Written as text: the edit would write an infinite double back as the string "Infinity".
    Path huge = dir.resolve("huge.json");
    Files.writeString(huge, Files.readString(file).replace("\"rps\" : 1000.0", "\"rps\" : 1e999"));
    assertEquals(
        huge + ": inputs.rps: expected a finite number, got Infinity",
        assertThrows(IOException.class, () -> ThresholdTable.read(huge)).getMessage());
    t.refused("/inputs/cores", "0", "inputs.cores: must be >= 1, got 0");
    t.refused(
        "/inputs/utilization",
        "16",
        "inputs.utilization: must be below inputs.cores (16): the calculation's model excludes an"
            + " overloaded system, got 16.0");
    t.refused(
        "/inputs/utilization", "-1", "inputs.utilization: must be a finite number >= 0, got -1.0");
    t.refused("/inputs/qMax", "0", "inputs.qMax: must be >= 1, got 0");
    t.refused("/inputs/qMax", "4", "rows: expected one row per load 1..4 (inputs.qMax), got 3");
    t.refused(
        "/rows/1/activeRequests",
        "3",
        "rows[1].activeRequests: expected 2 (rows go by load from 1), got 3");
    t.refused("/rows/1/thresholdNanos", "-1", "rows[1].thresholdNanos: must be >= 0, got -1");
    t.refused(
        "/rows/1/thresholdNanos",
        "1e30",
        "rows[1].thresholdNanos: expected a whole number >= 0, got 1.0E30");
    t.refused("/rows/1/expectedMisses", "-0.5", "rows[1].expectedMisses: must be >= 0, got -0.5");
    t.refused(
        "/rows/1/expectedMisses",
        "\"lots\"",
        "rows[1].expectedMisses: expected a finite number, got \"lots\"");
    t.refused("/buildSeconds", "-1", "buildSeconds: must be >= 0, got -1.0");
    t.refused(
        "/builtAt",
        "\"now\"",
        "builtAt: expected an ISO-8601 instant such as 2026-11-22T06:00:00Z, got \"now\"");
    t.refused("/version", "2", "version: this Tailor reads versions 1 to 1, got 2");
  }

  @Test
  void infiniteExpectedMissesAreWrittenAndReadBack(@TempDir Path dir) throws IOException {
    ThresholdTable t = table();
    ThresholdTable overrun =
        new ThresholdTable(
            t.inputs(),
            List.of(
                t.rows().get(0),
                t.rows().get(1),
                new ThresholdTable.Row(3, 30 * MS, Double.POSITIVE_INFINITY)),
            t.builtAt(),
            t.buildSeconds());
    Path file = dir.resolve("t.json");
    overrun.write(file);
    assertEquals(overrun.rows(), ThresholdTable.read(file).rows());
    assertThrows(IllegalArgumentException.class, () -> new ThresholdTable.Row(1, 0, Double.NaN));
  }

  private static void assertProblem(Path file, String json, String field) throws IOException {
    Files.writeString(file, json);
    IOException e = assertThrows(IOException.class, () -> ThresholdTable.read(file));
    assertTrue(e.getMessage().contains(field), e.getMessage());
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }
}
