package dev.tailor.core.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.TpcPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TargetTableTest {

  static final long MS = 1_000_000L;

  @TempDir Path dir;

  static TargetTable table(long... targetsMs) {
    TargetTable.Inputs in =
        new TargetTable.Inputs(
            "p.json",
            "sha256:" + "a".repeat(64),
            3,
            "m.json",
            "sha256:" + "b".repeat(64),
            "cross-fit 5",
            8,
            3,
            new double[] {100, 200},
            new double[] {1, 2},
            0.99,
            MS,
            2,
            "units",
            TargetTable.LoadMetric.ALL_THREADS);
    TargetTable.Groups groups =
        new TargetTable.Groups(
            3 * MS,
            8 * MS,
            SpeedupCurve.of(1, 1.1, 1.2),
            SpeedupCurve.of(1, 1.5, 1.9),
            SpeedupCurve.of(1, 1.9, 2.6));
    return new TargetTable(
            in,
            groups,
            List.of(
                new TargetTable.Row(0, targetsMs[0] * MS),
                new TargetTable.Row(2, targetsMs[1] * MS),
                new TargetTable.Row(TargetTable.INFINITE, targetsMs[2] * MS)),
            "",
            0,
            new TargetTable.Search(0, 0, 0, 0))
        .built("2026-11-23T00:00:00Z", 1.5, new TargetTable.Search(4, 9, 30e6, 20e6));
  }

  @Test
  void roundTripsThroughItsFile() throws IOException {
    TargetTable t = table(5, 7, 11);
    Path file = dir.resolve("t.json");
    t.write(file);
    TargetTable back = TargetTable.read(file);
    assertArrayEquals(t.targetsNanos(), back.targetsNanos());
    assertEquals(t.rows(), back.rows());
    assertEquals(t.groups().longFromNanos(), back.groups().longFromNanos());
    assertEquals(t.groups().mediumCurve(), back.groups().mediumCurve());
    assertEquals("cross-fit 5", back.inputs().predictions());
    assertEquals(TargetTable.LoadMetric.ALL_THREADS, back.inputs().loadMetric());
    assertEquals(t.inputs().modelDigest(), back.inputs().modelDigest());
    assertArrayEquals(t.inputs().weights(), back.inputs().weights());
    assertEquals(t.search(), back.search());
    assertEquals(5 * MS, back.targetNanos(0));
    assertEquals(7 * MS, back.targetNanos(2));
    assertEquals(11 * MS, back.targetNanos(3));
  }

  @Test
  void badFilesNameTheFieldAndTheProblem() throws IOException {
    Path file = dir.resolve("t.json");
    table(5, 7, 11).write(file);
    String json = Files.readString(file);
    Files.writeString(file, json.replace("\"tpc-target\"", "\"fm-interval\""));
    IOException kind = assertThrows(IOException.class, () -> TargetTable.read(file));
    assertTrue(kind.getMessage().contains("kind"), kind.getMessage());
    Files.writeString(file, json.replace("\"upToLongThreads\" : 2", "\"upToLongThreads\" : 0"));
    IOException order = assertThrows(IOException.class, () -> TargetTable.read(file));
    assertTrue(order.getMessage().contains("rows[1].upToLongThreads"), order.getMessage());
  }

  @Test
  void everyFieldIsCheckedAgainstItsOwnBounds() throws IOException {
    Path file = dir.resolve("t.json");
    table(5, 7, 11).write(file);
    TableEdits t = new TableEdits(file, TargetTable::read);
    t.refused("/inputs/profile", "\"\"", "inputs.profile: expected a non-empty string, got \"\"");
    t.refused(
        "/inputs/modelDigest",
        "\"sha256:x\"",
        "inputs.modelDigest: expected sha256: and 64 lower-case hex digits, got \"sha256:x\"");
    t.refused("/inputs/model", "3", "inputs.model: expected a string");
    t.refused("/inputs/requests", "0", "inputs.requests: must be >= 1, got 0");
    t.refused("/inputs/cores", "0", "inputs.cores: must be >= 1, got 0");
    t.refused("/inputs/maxDegree", "0", "inputs.maxDegree: must be >= 1, got 0");
    t.refused("/inputs/ratesRps", "[]", "inputs.ratesRps: expected at least one rate, got none");
    t.refused(
        "/inputs/ratesRps/1", "-1", "inputs.ratesRps[1]: expected a finite number > 0, got -1");
    t.refused(
        "/inputs/weights",
        "[1]",
        "inputs.weights: expected one weight per rate in inputs.ratesRps (2), got 1");
    t.refused(
        "/inputs/weights",
        "[0, 0]",
        "inputs.weights: must not all be 0: the tail is weighted by them");
    t.refused(
        "/inputs/weights/0", "-1", "inputs.weights[0]: expected a finite number >= 0, got -1");
    t.refused("/inputs/quantile", "1", "inputs.quantile: must be in (0, 1), got 1.0");
    t.refused("/inputs/stepNanos", "0", "inputs.stepNanos: must be >= 1, got 0");
    t.refused("/inputs/seeds", "0", "inputs.seeds: must be >= 1, got 0");
    t.refused(
        "/inputs/workModel", "\"\"", "inputs.workModel: expected a non-empty string, got \"\"");
    t.refused(
        "/inputs/loadMetric",
        "\"some\"",
        "inputs.loadMetric: expected long-threads or all-threads, got \"some\"");
    t.refused("/groups/mediumFromNanos", "0", "groups.mediumFromNanos: must be >= 1, got 0");
    t.refused(
        "/groups/longFromNanos",
        "1000",
        "groups.longFromNanos: must be >= groups.mediumFromNanos (3000000), got 1000");
    t.refused(
        "/groups/shortSpeedup", "[2, 2, 2]", "groups.shortSpeedup[0]: s(1) must be 1, got 2.0");
    t.refused(
        "/groups/mediumSpeedup",
        "[1, 0.5, 2]",
        "groups.mediumSpeedup[1]: a speedup must be >= 1, got 0.5");
    t.refused(
        "/groups/longSpeedup",
        "[1, 1.5]",
        "groups.longSpeedup: expected speedups at degrees 1..3 (inputs.maxDegree), got 2");
    t.refused("/rows", "[]", "rows: expected at least one row, got none");
    t.refused(
        "/rows/1/upToLongThreads",
        "0",
        "rows[1].upToLongThreads: loads must ascend, got 0 after 0");
    t.refused("/rows/0/upToLongThreads", "-1", "rows[0].upToLongThreads: must be >= 0, got -1");
    t.refused(
        "/rows/2/upToLongThreads",
        "9",
        "rows[2].upToLongThreads: the last row must be null (every load), got 9");
    t.refused(
        "/rows/1/upToLongThreads",
        "2147483647",
        "rows[1].upToLongThreads: only the last row may be for every load, got 2147483647");
    t.refused("/rows/1/targetNanos", "0", "rows[1].targetNanos: must be >= 1, got 0");
    t.refused("/search/iterations", "-1", "search.iterations: must be >= 0, got -1");
    t.refused(
        "/search/finalTailNanos",
        "\"slow\"",
        "search.finalTailNanos: expected a finite number," + " got \"slow\"");
    t.refused("/buildSeconds", "-0.5", "buildSeconds: must be >= 0, got -0.5");
  }

  @Test
  void aCorruptTableKeepsTheOldOneServing() throws IOException {
    Path file = dir.resolve("t.json");
    table(5, 7, 11).write(file);
    try (TpcPolicy tpc = TpcPolicy.watching(TpcPolicy.Variant.TPC, file)) {
      TableSource<TargetTable> source = tpc.table();
      Files.writeString(file, "{ \"format\": \"tailor-table\", \"version\": 1, ");
      assertFalse(source.reload());
      assertEquals(5 * MS, source.current().targetNanos(0));
      table(6, 8, 12).write(file);
      assertTrue(source.reload());
      assertEquals(6 * MS, source.current().targetNanos(0));
    }
  }

  @Test
  void theRegistryOpensTheTableAndWatchesIt() throws IOException {
    Path file = dir.resolve("t.json");
    table(5, 7, 11).write(file);
    try (TpcPolicy tp = (TpcPolicy) PolicyRegistry.of("tp:" + file)) {
      assertEquals("tp:" + file, tp.spec());
      assertTrue(tp.table().isWatching());
    }
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class,
            () -> PolicyRegistry.of("tpc:" + dir.resolve("none.json")));
    assertTrue(missing.getMessage().contains("none.json"), missing.getMessage());
    try (TableSource<TargetTable> s =
        TableSource.watch(file, TargetTable::read, Duration.ofHours(1))) {
      assertEquals(3, s.current().inputs().maxDegree());
    }
  }
}
