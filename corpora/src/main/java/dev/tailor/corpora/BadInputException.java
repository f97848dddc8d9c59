package dev.tailor.corpora;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Input that cannot be used as it is: a malformed line, a missing field, a truncated compressed
 * file, or a file that yields nothing. The message names the file, the line when there is one, and
 * what was expected.
 */
public final class BadInputException extends IOException {

  private final Path file;
  private final long line;

  /** A problem with a line of a file (lines count from 1). */
  public BadInputException(Path file, long line, String problem) {
    super(file + ":" + line + ": " + problem);
    this.file = file;
    this.line = line;
  }

  /** A problem with a file as a whole. */
  public BadInputException(Path file, String problem) {
    this(file, problem, null);
  }

  /** A problem with a file as a whole, caused by a lower-level failure. */
  public BadInputException(Path file, String problem, Throwable cause) {
    super(file + ": " + problem, cause);
    this.file = file;
    this.line = 0;
  }

  /** The file at fault. */
  public Path file() {
    return file;
  }

  /** The line at fault, counted from 1, or 0 when the problem is with the whole file. */
  public long line() {
    return line;
  }
}
