package dev.tailor.core.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.model.Schedule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableSourceTest {

  @Test
  void swapsToAValidFileAndKeepsTheLastGoodTableOnABadOne(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.json");
    IntervalTableTest.sample(50).write(file);
    try (TableSource<IntervalTable> source =
        TableSource.watch(file, IntervalTable::read, Duration.ofHours(1))) {
      assertEquals(Schedule.ofMillis(0, 50, 0), source.current().schedule(2));
      assertEquals(0, source.swaps(), "the first table is read, not swapped in");

      IntervalTableTest.sample(100).write(file);
      assertTrue(source.reload());
      assertEquals(Schedule.ofMillis(0, 100, 0), source.current().schedule(2));
      assertEquals(1, source.swaps());
      IntervalTable good = source.current();

      Files.writeString(file, Files.readString(file).replace("fm-interval", "other"));
      assertFalse(source.reload());
      assertSame(good, source.current());
      assertEquals(1, source.swaps(), "a rejected file swaps nothing");

      Files.delete(file);
      assertFalse(source.reload());
      assertSame(good, source.current());
    }
  }

  @Test
  void aTableThatBreaksARuleIsRefusedWithItsReasonAndTheOldOneKept(@TempDir Path dir)
      throws IOException {
    Path file = dir.resolve("t.json");
    IntervalTableTest.sample(50).write(file);
    try (TableSource<IntervalTable> source =
        TableSource.watch(file, IntervalTable::read, Duration.ofHours(1))) {
      IntervalTable good = source.current();
      // Well-formed JSON whose load-2 row would delay every admission at that load for 31 years;
      // the file's size changes, so the poller sees it.
      Path huge =
          new TableEdits(file, IntervalTable::read)
              .with("/rows/1/intervalsNanos/0", "1000000000000000000");
      Files.move(huge, file, StandardCopyOption.REPLACE_EXISTING);
      source.reloadIfChanged(); // the poller's own step, run here instead of on its thread
      assertSame(good, source.current());
      assertEquals(1, source.rejected());
      assertEquals(
          file
              + ": rows[1].intervalsNanos[0]: must be <= inputs.horizonNanos (150000000), got"
              + " 1000000000000000000",
          source.lastProblem());
      IntervalTableTest.sample(100).write(file);
      assertTrue(source.reload());
      assertEquals(Schedule.ofMillis(0, 100, 0), source.current().schedule(2));
    }
  }

  @Test
  void aThresholdTableForAnOverloadedSystemIsRefusedOnReload(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("tc.json");
    ThresholdTableTest.table().write(file);
    try (TableSource<ThresholdTable> source =
        TableSource.watch(file, ThresholdTable::read, Duration.ofHours(1))) {
      ThresholdTable good = source.current();
      Path over = new TableEdits(file, ThresholdTable::read).with("/inputs/utilization", "20");
      Files.move(over, file, StandardCopyOption.REPLACE_EXISTING);
      assertFalse(source.reload());
      assertSame(good, source.current());
      assertTrue(
          source.lastProblem().startsWith(file + ": inputs.utilization: must be below"),
          source.lastProblem());
    }
  }

  @Test
  void watchingABadFileFailsWithTheReason(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.json");
    Files.writeString(file, "[]");
    IOException e =
        assertThrows(IOException.class, () -> TableSource.watch(file, IntervalTable::read));
    assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
  }

  @Test
  void aFixedSourceNeverChanges() {
    IntervalTable t = IntervalTableTest.sample(50);
    TableSource<IntervalTable> fixed = TableSource.fixed(t);
    assertFalse(fixed.reload());
    assertSame(t, fixed.current());
  }
}
