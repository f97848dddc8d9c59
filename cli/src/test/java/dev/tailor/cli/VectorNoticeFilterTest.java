package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/** The console keeps Lucene's other warnings and drops only the one about the missing module. */
class VectorNoticeFilterTest {

  private final VectorNoticeFilter filter = new VectorNoticeFilter();

  @Test
  void luceneSayingTheModuleIsNotReadableIsDropped() {
    assertFalse(
        filter.isLoggable(
            new LogRecord(
                Level.WARNING,
                "Java vector incubator module is not readable. For optimal vector performance,"
                    + " pass '--add-modules jdk.incubator.vector' to enable Vector API.")));
  }

  @Test
  void otherWarningsAndEmptyMessagesShow() {
    assertTrue(
        filter.isLoggable(
            new LogRecord(
                Level.WARNING,
                "C2 compiler is disabled; Java vector incubator API can't be enabled")));
    assertTrue(filter.isLoggable(new LogRecord(Level.WARNING, null)));
  }
}
