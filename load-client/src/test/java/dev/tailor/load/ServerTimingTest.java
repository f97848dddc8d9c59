package dev.tailor.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.server.ServerTimings;
import org.junit.jupiter.api.Test;

class ServerTimingTest {

  @Test
  void readsWhatTheSearchServerWrites() {
    // Queued 12,345 ns, dispatch 678 ns, run 1,234,567 ns.
    RequestRecord record =
        new RequestRecord(
            1,
            null,
            1_000_000,
            1_012_345,
            1_013_023,
            2_247_590,
            1_234_567,
            1,
            1,
            1.0,
            RequestRecord.Outcome.COMPLETED);
    String header = ServerTimings.headerOf(record);
    assertEquals("queued;dur=0.012345, dispatch;dur=0.000678, run;dur=1.234567", header);
    assertEquals(new ServerTiming(12_345, 678, 1_234_567), ServerTiming.parse(header));
  }

  @Test
  void otherMetricsAndDescriptionsAreIgnored() {
    assertEquals(
        new ServerTiming(1_000_000, 0, 2_500_000),
        ServerTiming.parse(
            "cache;desc=\"Cache Read\";dur=23.2, queued;dur=1, dispatch;dur=0, run;desc=x;dur=2.5"));
  }

  @Test
  void aHeaderWithoutEveryPartOrMalformedGivesNone() {
    assertNull(ServerTiming.parse(null));
    assertNull(ServerTiming.parse("queued;dur=1, run;dur=2"));
    assertNull(ServerTiming.parse("queued;dur=1, dispatch;dur=abc, run;dur=2"));
    assertNull(ServerTiming.parse("queued;dur=-1, dispatch;dur=0, run;dur=2"));
    assertNull(ServerTiming.parse(""));
  }
}
