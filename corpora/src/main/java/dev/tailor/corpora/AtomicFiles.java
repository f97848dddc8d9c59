package dev.tailor.corpora;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writing beside a target and moving into place, so that a reader never sees a half-written file
 * where a complete one is expected.
 */
public final class AtomicFiles {

  private AtomicFiles() {}

  /** A fresh temporary path in the target's directory, named after it. */
  public static Path sibling(Path target, String purpose) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    return Files.createTempFile(dir, "." + target.getFileName() + "." + purpose + "-", ".tmp");
  }

  /** Moves a finished file or directory into place, atomically when the file system can. */
  public static void moveIntoPlace(Path tmp, Path target) throws IOException {
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
