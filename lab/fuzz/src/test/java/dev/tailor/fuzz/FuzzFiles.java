package dev.tailor.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * What every fuzz target shares: the file the fuzzer's bytes are written to (the readers take a
 * path, as Tailor's commands do), and the one contract every reader is held to.
 *
 * <p>The contract: a reader either returns, or throws an {@link IOException} whose message begins
 * with the file's path, so that the user is told which file is wrong (and, by each reader's own
 * documentation, the field or line and what was expected). Anything else that escapes the reader (a
 * {@code NullPointerException}, an {@code ArrayIndexOutOfBoundsException}, a {@code
 * NumberFormatException} or {@code IllegalArgumentException} of a constructor, an {@code
 * OutOfMemoryError} from a size the file declares, a hang) is a finding; Jazzer reports it and
 * saves the input. Fuzz targets run one at a time on one thread, so each target reuses one file.
 */
final class FuzzFiles {

  private static final Map<String, Path> FILES = new HashMap<>();

  private FuzzFiles() {}

  /**
   * Writes {@code data} to the target's file and returns its path; the file's name ends with {@code
   * suffix} (a reader may care, such as a trace's).
   */
  static Path write(String target, String suffix, byte[] data) {
    try {
      Path file = FILES.get(target + suffix);
      if (file == null) {
        Path dir = Files.createTempDirectory(scratch(), "tailor-fuzz-" + target);
        dir.toFile().deleteOnExit();
        file = dir.resolve(target + suffix);
        file.toFile().deleteOnExit();
        FILES.put(target + suffix, file);
      }
      Files.write(file, data);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the fuzz input", e);
    }
  }

  /**
   * Where the inputs are written: the system property {@code tailor.fuzz.dir} if set, else {@code
   * /dev/shm} where it is a writable directory (memory, so a write costs microseconds rather than
   * the milliseconds a disk-backed temporary directory can take, which would bound the fuzzer's
   * rate), else the system's temporary directory.
   */
  private static Path scratch() {
    String dir = System.getProperty("tailor.fuzz.dir");
    if (dir != null) {
      return Path.of(dir);
    }
    Path shm = Path.of("/dev/shm");
    return Files.isDirectory(shm) && Files.isWritable(shm)
        ? shm
        : Path.of(System.getProperty("java.io.tmpdir"));
  }

  /**
   * A reader of a file, as the readers under test are: a path in, a value or an IOException out.
   */
  @FunctionalInterface
  interface Reader<T> {
    T read(Path file) throws IOException;
  }

  /**
   * Reads {@code file} and returns the value, or null if the reader rejected it with a clear error:
   * an {@link IOException} whose message begins with the file's path and says something after it.
   *
   * @throws AssertionError if the reader threw an IOException that does not name the file
   */
  static <T> T readOrReject(Path file, Reader<T> reader) {
    try {
      return reader.read(file);
    } catch (IOException e) {
      assertNamesFile(file, e);
      return null;
    }
  }

  /** Asserts that the message of {@code e} begins with the file's path and says what is wrong. */
  static void assertNamesFile(Path file, IOException e) {
    String message = e.getMessage();
    String prefix = file.toString();
    if (message == null
        || !message.startsWith(prefix)
        || message.length() <= prefix.length() + 2
        || (message.charAt(prefix.length()) != ':')) {
      throw new AssertionError(
          "the error does not name the file as 'FILE: what': " + e.getClass().getName(), e);
    }
  }
}
