package dev.tailor.cli;

import java.util.logging.Filter;
import java.util.logging.LogRecord;

/**
 * Keeps Lucene's warning that the Vector API module is not readable off the terminal: the {@code
 * ./tailor} script leaves the module out on purpose for the commands that do not time searches
 * (docs/commands.md, {@code TAILOR_VECTOR}), and Lucene would say so the first time such a command
 * opens an index. Lucene's other warnings about the Vector API (an unsupported JVM, a disabled
 * compiler) still show. {@code logging.properties} installs it on the console handler.
 */
public final class VectorNoticeFilter implements Filter {

  /** How Lucene's warning begins ({@code VectorizationProvider}, Lucene 10). */
  static final String NOT_READABLE = "Java vector incubator module is not readable";

  /** Public, with no arguments, for {@link java.util.logging.LogManager} to create it. */
  public VectorNoticeFilter() {}

  @Override
  public boolean isLoggable(LogRecord record) {
    String message = record.getMessage();
    return message == null || !message.startsWith(NOT_READABLE);
  }
}
