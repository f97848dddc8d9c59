package dev.tailor.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

  private static final long GUARD = 60;

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
  void aSiblingGetsThePermissionsFilesWriteGives() throws IOException {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    Path plain = Files.writeString(tmp.resolve("plain.txt"), "");
    Path sibling = AtomicFiles.sibling(tmp.resolve("docs.txt"), "writing");
    assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(sibling));
    assertTrue(
        sibling.getFileName().toString().startsWith(".docs.txt.writing-"), sibling.toString());
  }

  @Test
  void aPurposeMustBeALowercaseWord() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> AtomicFiles.sibling(tmp.resolve("t.json"), "raw-samples"));
    assertEquals("purpose raw-samples: expected a lowercase word", e.getMessage());
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

  @Test
  void concurrentWritersEachLeaveAWholeFileAndReadersNeverSeePartOfOne() throws Exception {
    Path file = tmp.resolve("table.json");
    int writers = 4;
    int writes = 50;
    int size = 200_000; // several buffers, so that a torn file would show
    AtomicFiles.writeString(file, "x".repeat(size));
    CountDownLatch start = new CountDownLatch(1);
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        String content = String.valueOf((char) ('a' + w)).repeat(size);
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < writes; i++) {
                    AtomicFiles.writeString(file, content);
                  }
                  return null;
                }));
      }
      Future<?> reader =
          pool.submit(
              () -> {
                start.await();
                do {
                  assertWhole(Files.readString(file), size);
                } while (writing.get());
                return null;
              });
      start.countDown();
      for (Future<?> f : done) {
        f.get(GUARD, TimeUnit.SECONDS);
      }
      writing.set(false);
      reader.get(GUARD, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
    String last = Files.readString(file);
    assertWhole(last, size);
    assertTrue(last.charAt(0) >= 'a' && last.charAt(0) < 'a' + writers, "one writer's content");
    assertEquals(List.of(file), list(tmp), "no temporary file left behind");
  }

  private static void assertWhole(String content, int size) {
    assertEquals(size, content.length(), "a whole file");
    char c = content.charAt(0);
    for (int i = 0; i < size; i++) {
      if (content.charAt(i) != c) {
        throw new AssertionError("two writers' content mixed at byte " + i);
      }
    }
  }

  @Test
  void aWriteDeletesTheTemporaryFilesOfKilledWritersOfTheSameTargetOnly() throws IOException {
    Path file = Files.writeString(tmp.resolve("t.json"), "old");
    long dead = Long.MAX_VALUE; // no process has this id
    long live = ProcessHandle.current().parent().orElseThrow().pid();
    long self = ProcessHandle.current().pid();
    Path stale = Files.writeString(tmp.resolve(".t.json.writing-" + dead + "-k1.tmp"), "{\"half");
    Path staleSamples = Files.writeString(tmp.resolve(".t.json.samples-" + dead + "-k2.tmp"), "");
    List<Path> kept =
        List.of(
            Files.writeString(tmp.resolve(".t.json.writing-" + live + "-k3.tmp"), "live"),
            Files.writeString(tmp.resolve(".t.json.writing-" + self + "-k4.tmp"), "this one"),
            Files.writeString(tmp.resolve(".t.writing-" + dead + "-k5.tmp"), "another target"),
            Files.writeString(tmp.resolve(".t.json.writing-k6.tmp"), "not a name it writes"),
            Files.writeString(tmp.resolve("t.json.writing-" + dead + "-k7.tmp"), "not hidden"),
            Files.createDirectory(tmp.resolve(".t.json.building-" + dead + "-k8.tmp")));
    Path newer = Files.writeString(tmp.resolve(".t.json.writing-" + dead + "-k9.tmp"), "");
    Files.setLastModifiedTime(newer, FileTime.from(Instant.now().plus(Duration.ofHours(1))));

    AtomicFiles.writeString(file, "new");

    assertEquals("new", Files.readString(file));
    assertFalse(Files.exists(stale));
    assertFalse(Files.exists(staleSamples));
    for (Path p : kept) {
      assertTrue(Files.exists(p), p + " kept");
    }
    assertTrue(Files.exists(newer), "a file changed after the write began is kept");
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.sorted().toList();
    }
  }
}
