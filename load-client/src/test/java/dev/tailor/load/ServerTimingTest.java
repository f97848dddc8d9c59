package dev.tailor.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ServerTimingTest {

  @Test
  void roundTripsThroughItsHeader() {
    ServerTiming t = new ServerTiming(12_345, 678, 1_234_567);
    assertEquals("queued;dur=0.012345, dispatch;dur=0.000678, run;dur=1.234567", t.header());
    assertEquals(t, ServerTiming.parse(t.header()));
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
