package dev.tailor.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Raw samples replace their file whole on close, or not at all. */
class RawSampleWriterTest {

  @TempDir Path tmp;

  @Test
  void theOldFileServesUntilCloseAndIsThenReplacedWhole() throws IOException {
    Path file = Files.writeString(tmp.resolve("samples.jsonl"), "old\n");
    try (RawSampleWriter raw = RawSampleWriter.open(file)) {
      raw.write("q1", samples(2, 100), 2);
      assertEquals("old\n", Files.readString(file), "untouched before close");
    }
    assertEquals(
        List.of(
            "{\"id\":\"q1\",\"degree\":1,\"batch\":1,\"samples\":[100]}",
            "{\"id\":\"q1\",\"degree\":2,\"batch\":1,\"samples\":[100]}"),
        Files.readAllLines(file));
    assertEquals(List.of(file), list(tmp), "no temporary file left behind");
  }

  @Test
  void aFailedWriteLeavesTheOldFileAndNoTemporaryFile() throws IOException {
    Path file = Files.writeString(tmp.resolve("samples.jsonl"), "old\n");
    RawSampleWriter raw = RawSampleWriter.open(file);
    // Degree 3 was never measured: the third line fails after two were written.
    assertThrows(IndexOutOfBoundsException.class, () -> raw.write("q1", samples(2, 100), 3));
    raw.close();
    raw.close();
    assertEquals("old\n", Files.readString(file));
    assertEquals(List.of(file), list(tmp));
  }

  @Test
  void aNewFileGetsThePermissionsFilesWriteGivesAndAReplacedOneKeepsItsOwn() throws IOException {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    Path plain = Files.writeString(tmp.resolve("plain.txt"), "");
    Path file = tmp.resolve("samples.jsonl");
    RawSampleWriter.open(file).close();
    assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(file));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    RawSampleWriter.open(file).close();
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
  }

  @Test
  void aWriterOnNoFileWritesNothing() throws IOException {
    try (RawSampleWriter raw = RawSampleWriter.open(null)) {
      raw.write("q1", samples(1, 100), 1);
    }
    assertEquals(List.of(), list(tmp));
  }

  private static QuerySamples samples(int degrees, long nanos) {
    QuerySamples s = new QuerySamples(degrees, 1);
    for (int d = 1; d <= degrees; d++) {
      s.add(d, nanos, d == 1 ? new long[] {nanos} : null);
    }
    return s;
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.sorted().toList();
    }
  }
}
