package dev.tailor.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

  @TempDir Path tmp;

  @Test
  void aNewFileGetsThePermissionsFilesWriteGives() throws IOException {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    Path plain = Files.writeString(tmp.resolve("plain.json"), "{}");
    Path atomic = tmp.resolve("atomic.json");
    AtomicFiles.writeString(atomic, "{}");
    assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(atomic));
  }

  @Test
  void aReplacedFileKeepsItsPermissions() throws IOException {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    for (String mode : List.of("rw-r-----", "rw-r--r--")) {
      Path file = Files.writeString(tmp.resolve("table-" + mode + ".json"), "old");
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
      AtomicFiles.writeString(file, "new");
      assertEquals(mode, PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }
  }

  @Test
  void replacesAnExistingFileWhole() throws IOException {
    Path file = Files.writeString(tmp.resolve("profile.json"), "a much longer old content");
    AtomicFiles.writeString(file, "new");
    assertEquals("new", Files.readString(file));
    assertEquals(List.of(file), list(tmp));
  }

  @Test
  void aWriterThatFailsMidwayLeavesTheOldFileAndNoTemporaryFile() throws IOException {
    Path file = Files.writeString(tmp.resolve("table.json"), "old");
    IOException failure = new IOException("disk full");
    IOException thrown =
        assertThrows(
            IOException.class,
            () ->
                AtomicFiles.write(
                    file,
                    out -> {
                      out.write("half of the new".getBytes(StandardCharsets.UTF_8));
                      throw failure;
                    }));
    assertSame(failure, thrown);
    assertEquals("old", Files.readString(file));
    assertEquals(List.of(file), list(tmp));
  }

  @Test
  void aWriterThatFailsLeavesNothingWhereThereWasNoFile() throws IOException {
    Path file = tmp.resolve("sub").resolve("new.json");
    assertThrows(
        IOException.class,
        () ->
            AtomicFiles.write(
                file,
                out -> {
                  out.write('{');
                  throw new IOException("interrupted");
                }));
    assertEquals(List.of(), list(file.getParent()));
  }

  @Test
  void contentMayCloseItsStream() throws IOException {
    Path file = tmp.resolve("closed.txt");
    AtomicFiles.write(
        file,
        out -> {
          out.write('a');
          out.close();
          out.write('b'); // closing only flushed; the file is still being written
        });
    assertEquals("ab", Files.readString(file));
  }

  @Test
  void movesAFinishedDirectoryIntoPlace() throws IOException {
    Path target = tmp.resolve("dataset");
    Path building = AtomicFiles.siblingDirectory(target, "fetch");
    Files.writeString(building.resolve("data.txt"), "rows");
    AtomicFiles.moveIntoPlace(building, target);
    assertEquals("rows", Files.readString(target.resolve("data.txt")));
    assertEquals(List.of(target), list(tmp));
  }

  @Test
  void replacesADirectoryWhole() throws IOException {
    Path target = Files.createDirectory(tmp.resolve("index"));
    Files.writeString(target.resolve("old-segment"), "old");
    Path building = AtomicFiles.siblingDirectory(target, "building");
    Files.writeString(building.resolve("new-segment"), "new");
    AtomicFiles.replaceDirectory(building, target);
    assertEquals(List.of(target.resolve("new-segment")), list(target));
    assertEquals(List.of(target), list(tmp));
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.sorted().toList();
    }
  }
}
