package dev.tailor.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.table.ThresholdTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TailControlPolicyTest {

  static final long MS = 1_000_000L;

  private final FakeRequest request = new FakeRequest();
  private final FakeSystem system = new FakeSystem();

  /** Thresholds 100 ms at 1 active request, 40 ms at 2, 10 ms from 3 on. */
  static ThresholdTable table(long... thresholdsMs) {
    ThresholdTable.Inputs in =
        new ThresholdTable.Inputs(
            "p.json",
            "sha256:" + "0".repeat(64),
            10,
            3,
            "exact",
            5 * MS,
            20 * MS,
            100,
            8,
            0.5,
            thresholdsMs.length);
    ThresholdTable.Row[] rows = new ThresholdTable.Row[thresholdsMs.length];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = new ThresholdTable.Row(i + 1, thresholdsMs[i] * MS, 1.5);
    }
    return new ThresholdTable(in, List.of(rows), "2026-11-23T00:00:00Z", 0.01);
  }

  private static Path write(Path dir, ThresholdTable t) throws IOException {
    Path file = dir.resolve("tc.json");
    t.write(file);
    return file;
  }

  @Test
  void stealFirstAndAdmitFirstGiveEveryWorkerAndDifferOnlyInWhatAFreeWorkerDoesFirst() {
    Policy steal = PolicyRegistry.of("steal-first");
    Policy admit = PolicyRegistry.of("admit-first");
    assertEquals(8, steal.admit(request, system).degree());
    assertEquals(8, admit.degree(request, system));
    assertEquals(WorkerPreference.HELP_FIRST, steal.workerPreference(system));
    assertEquals(WorkerPreference.ADMIT_FIRST, admit.workerPreference(system));
    assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of("steal-first:2"));
  }

  @Test
  void aRequestWhoseWorkPassesTheThresholdForTheLoadIsSerializedAndStaysSo(@TempDir Path dir)
      throws IOException {
    try (Policy tc = PolicyRegistry.of("tc:" + write(dir, table(100, 40, 10)))) {
      assertEquals(WorkerPreference.HELP_FIRST, tc.workerPreference(system));
      assertFalse(tc.clairvoyant());
      system.active = 1;
      assertEquals(8, tc.admit(request, system).degree());
      request.degree = 8;
      request.work = 50 * MS;
      assertEquals(8, tc.degree(request, system)); // 50 <= 100 at one active request
      system.active = 1;
      system.queued = 1; // two in the system: threshold 40 ms
      assertEquals(0, tc.degree(request, system));
      request.degree = 0;
      system.queued = 0; // the load falls: the mark stays
      assertEquals(0, tc.degree(request, system));
      request.degree = 8;
      request.work = 40 * MS;
      system.active = 2;
      assertEquals(8, tc.degree(request, system), "at the threshold is not above it");
      system.active = 50; // above qMax: the last row
      assertEquals(0, tc.degree(request, system));
    }
  }

  @Test
  void theOracleSerializesALargeRequestFromItsStartByItsKnownWork(@TempDir Path dir)
      throws IOException {
    try (Policy oracle = PolicyRegistry.of("tc-oracle:" + write(dir, table(100, 40, 10)))) {
      assertTrue(oracle.clairvoyant());
      system.active = 2;
      request.predicted = 60 * MS;
      request.work = 0;
      assertEquals(0, oracle.admit(request, system).degree());
      request.predicted = 30 * MS;
      assertEquals(8, oracle.admit(request, system).degree());
      request.degree = 8;
      system.active = 3; // the load rose: 30 > 10
      assertEquals(0, oracle.degree(request, system));
      request.predicted = RequestView.UNKNOWN; // nothing known: never large
      assertEquals(8, oracle.admit(request, system).degree());
    }
  }

  @Test
  void aNewTableIsSwappedInAndABadOneKeepsTheOldServing(@TempDir Path dir) throws IOException {
    Path file = write(dir, table(100, 40, 10));
    try (TailControlPolicy tc = TailControlPolicy.watching(TailControlPolicy.Variant.TC, file)) {
      request.degree = 8;
      request.work = 50 * MS;
      system.active = 1;
      assertEquals(8, tc.degree(request, system));
      table(20).write(file);
      assertTrue(tc.table().reload());
      assertEquals(0, tc.degree(request, system));
      Files.writeString(
          file, "{\"format\": \"tailor-table\", \"version\": 1, \"kind\": \"tc-threshold\"}");
      assertFalse(tc.table().reload());
      assertEquals(1, tc.table().rejected());
      assertEquals(20 * MS, tc.table().current().thresholdNanos(1));
    }
  }

  @Test
  void aMissingOrInvalidTableIsRefusedNamingTheFileAndField(@TempDir Path dir) throws IOException {
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class,
            () -> PolicyRegistry.of("tc:" + dir.resolve("none.json")));
    assertTrue(missing.getMessage().contains("none.json"), missing.getMessage());
    Path file = write(dir, table(100, 40, 10));
    Files.writeString(
        file, Files.readString(file).replace("\"activeRequests\" : 2", "\"activeRequests\" : 5"));
    IllegalArgumentException bad =
        assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of("tc:" + file));
    assertTrue(bad.getMessage().contains("rows[1].activeRequests"), bad.getMessage());
    assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of("tc"));
  }
}
