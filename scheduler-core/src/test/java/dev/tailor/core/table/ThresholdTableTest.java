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

  private static void assertProblem(Path file, String json, String field) throws IOException {
    Files.writeString(file, json);
    IOException e = assertThrows(IOException.class, () -> ThresholdTable.read(file));
    assertTrue(e.getMessage().contains(field), e.getMessage());
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }
}
