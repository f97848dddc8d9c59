package dev.tailor.corpora.linedocs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tailor.corpora.CorpusDoc;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A line-docs file is replaced whole, keeps its permissions, and leaves no temporary file. */
class LineDocWriterTest {

  @TempDir Path tmp;

  @Test
  void theOldFileServesUntilCommitAndIsThenReplacedWhole() throws IOException {
    Path file = write(tmp.resolve("docs.txt"), "old");
    String old = Files.readString(file);
    try (LineDocWriter w = new LineDocWriter(file)) {
      w.write(new CorpusDoc("new", "", "body", null));
      assertEquals(old, Files.readString(file), "untouched before commit");
      w.commit();
    }
    assertEquals(List.of(new CorpusDoc("new", "", "body", null)), read(file));
    assertEquals(List.of(file), list(tmp), "no temporary file left behind");
  }

  @Test
  void closingWithoutCommitLeavesTheOldFile() throws IOException {
    Path file = write(tmp.resolve("docs.txt.gz"), "old");
    try (LineDocWriter w = new LineDocWriter(file)) {
      w.write(new CorpusDoc("new", "", "body", null));
    }
    assertEquals(List.of(new CorpusDoc("old", "", "body", null)), read(file));
    assertEquals(List.of(file), list(tmp));
  }

  @Test
  void aNewFileGetsThePermissionsFilesWriteGivesAndAReplacedOneKeepsItsOwn() throws IOException {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    Path plain = Files.writeString(tmp.resolve("plain.txt"), "");
    Path file = write(tmp.resolve("docs.txt"), "first");
    assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(file));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    write(file, "second");
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
  }

  @Test
  void aSecondCommitIsRefused() throws IOException {
    Path file = tmp.resolve("docs.txt");
    try (LineDocWriter w = new LineDocWriter(file)) {
      w.commit();
      IllegalStateException e = assertThrows(IllegalStateException.class, w::commit);
      assertEquals(file + " is committed already", e.getMessage());
    }
    assertEquals(List.of(), read(file));
  }

  private static Path write(Path file, String title) throws IOException {
    try (LineDocWriter w = new LineDocWriter(file)) {
      w.write(new CorpusDoc(title, "", "body", null));
      w.commit();
    }
    return file;
  }

  private static List<CorpusDoc> read(Path file) throws IOException {
    try (LineDocReader r = new LineDocReader(file, true, s -> {})) {
      return Stream.generate(() -> next(r)).takeWhile(d -> d != null).toList();
    }
  }

  private static CorpusDoc next(LineDocReader r) {
    try {
      return r.next();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.sorted().toList();
    }
  }
}
