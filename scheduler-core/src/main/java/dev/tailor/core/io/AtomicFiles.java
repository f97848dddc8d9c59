package dev.tailor.core.io;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Writing beside a target and moving into place, so that a reader never sees a half-written file
 * where a complete one is expected.
 */
public final class AtomicFiles {

  private static final SecureRandom RANDOM = new SecureRandom();

  private AtomicFiles() {}

  /**
   * A fresh, empty, hidden file in the target's directory, named after it. Unlike {@link
   * Files#createTempFile}, which makes files only their owner may read, it gets the permissions any
   * new file gets, so the target has them too once moved.
   */
  public static Path sibling(Path target, String purpose) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    while (true) {
      Path tmp = dir.resolve(hiddenName(target, purpose));
      try {
        return Files.createFile(tmp);
      } catch (FileAlreadyExistsException e) {
        // Another writer drew the same name; draw again.
      }
    }
  }

  /** Like {@link #sibling}, a fresh empty directory beside the target. */
  public static Path siblingDirectory(Path target, String purpose) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    while (true) {
      Path tmp = dir.resolve(hiddenName(target, purpose));
      try {
        return Files.createDirectory(tmp);
      } catch (FileAlreadyExistsException e) {
        // Another writer drew the same name; draw again.
      }
    }
  }

  private static String hiddenName(Path target, String purpose) {
    return "."
        + target.getFileName()
        + "."
        + purpose
        + "-"
        + Long.toUnsignedString(RANDOM.nextLong(), 36)
        + ".tmp";
  }

  /** Moves a finished file or directory into place, atomically when the file system can. */
  public static void moveIntoPlace(Path tmp, Path target) throws IOException {
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * Replaces the directory {@code target} (if any) with the finished directory {@code tmp}: the old
   * one is moved aside, the new one moved in, then the old one deleted. Readers see the old tree or
   * the new one, never a mix.
   */
  public static void replaceDirectory(Path tmp, Path target) throws IOException {
    Path old = null;
    if (Files.exists(target)) {
      old = siblingDirectory(target, "old");
      Files.delete(old);
      Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
    }
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target);
    }
    if (old != null) {
      deleteTree(old);
    }
  }

  /** Deletes a file or a directory with everything below it; nothing if it does not exist. */
  public static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
