package dev.tailor.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.Pipe;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClientDeadlinesTest {

  @Test
  void aDeadlineThatPassesEndsABlockedChannelReadAndLeavesNoInterruptBehind() throws Exception {
    try (ClientDeadlines deadlines = new ClientDeadlines(Duration.ofMillis(50))) {
      Pipe pipe = Pipe.open(); // nothing is ever written: the read blocks until the deadline
      deadlines.arm();
      assertThrows(
          ClosedByInterruptException.class, () -> pipe.source().read(ByteBuffer.allocate(1)));
      assertTrue(deadlines.disarm(), "it passed");
      assertFalse(Thread.currentThread().isInterrupted(), "its interrupt is cleared");
      assertFalse(pipe.source().isOpen());
      assertEquals(1, deadlines.expired());
      pipe.sink().close();
    }
  }

  @Test
  void aDeadlineDisarmedInTimeNeverInterrupts() throws Exception {
    try (ClientDeadlines deadlines = new ClientDeadlines(Duration.ofMinutes(1))) {
      for (int i = 0; i < 1_000; i++) {
        deadlines.arm();
        assertFalse(deadlines.disarm());
      }
      assertFalse(deadlines.disarm(), "nothing armed");
      assertFalse(Thread.currentThread().isInterrupted());
      assertEquals(0, deadlines.expired());
    }
  }

  @Test
  void armingAgainReplacesTheDeadline() throws Exception {
    try (ClientDeadlines deadlines = new ClientDeadlines(Duration.ofMinutes(1))) {
      deadlines.arm();
      deadlines.arm();
      assertFalse(deadlines.disarm());
      assertFalse(deadlines.disarm(), "the first one went with the second arming");
    }
  }

  @Test
  void aClosedTimerArmsNothing() {
    ClientDeadlines deadlines = new ClientDeadlines(Duration.ofMillis(1));
    deadlines.close();
    deadlines.arm();
    assertFalse(deadlines.disarm());
    assertFalse(Thread.currentThread().isInterrupted());
  }
}
