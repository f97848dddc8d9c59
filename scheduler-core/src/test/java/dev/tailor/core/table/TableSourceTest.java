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

      IntervalTableTest.sample(100).write(file);
      assertTrue(source.reload());
      assertEquals(Schedule.ofMillis(0, 100, 0), source.current().schedule(2));
      IntervalTable good = source.current();

      Files.writeString(file, Files.readString(file).replace("fm-interval", "other"));
      assertFalse(source.reload());
      assertSame(good, source.current());

      Files.delete(file);
      assertFalse(source.reload());
      assertSame(good, source.current());
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
