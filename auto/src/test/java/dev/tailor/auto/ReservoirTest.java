package dev.tailor.auto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReservoirTest {

  @Test
  void holdsTheMostRecentOldestFirstAndNeverGrows() {
    Reservoir r = new Reservoir(100);
    for (int i = 0; i < 250; i++) {
      assertTrue(r.add(i * 10L, i * 10L + 5, 4, 3, i % 3));
    }
    assertEquals(100, r.size());
    assertEquals(250, r.appended());
    assertEquals(100L * Reservoir.BYTES_PER_SAMPLE, r.bytes());
    Samples s = r.snapshot();
    assertEquals(100, s.size());
    assertEquals(1500, s.arrivalNanos()[0], "the oldest held is the 150th");
    assertEquals(2490, s.arrivalNanos()[99]);
    assertEquals(150 % 3, s.probeDegree()[0]);
    Samples last = r.last(3);
    assertArrayEquals(new long[] {2470, 2480, 2490}, last.arrivalNanos());
  }

  @Test
  void dropsAndCountsWhatCannotBeARequest() {
    Reservoir r = new Reservoir(10);
    assertFalse(r.add(0, 10, -1, 5, 0), "negative run");
    assertFalse(r.add(0, 10, 5, -5, 0), "negative work");
    assertFalse(r.add(100, 10, 5, 5, 0), "completed before it arrived");
    assertFalse(r.add(0, 10, 20, 5, 0), "ran longer than its latency");
    assertFalse(r.add(Long.MAX_VALUE, Long.MIN_VALUE, 5, 5, 0), "overflowed");
    assertFalse(r.add(0, 10, 5, 5, -2), "bad probe degree");
    assertEquals(6, r.dropped());
    assertFalse(r.add(0, 10, 0, 0, 0), "cancelled before it did anything: skipped, not dropped");
    assertEquals(6, r.dropped());
    assertEquals(0, r.size());
    assertTrue(r.add(0, 10, 5, 5, 0));
  }

  @Test
  void keepsOnlyTheRecentAfterAShift() {
    Reservoir r = new Reservoir(50);
    for (int i = 0; i < 50; i++) {
      r.add(i, i + 2, 1, 1, 0);
    }
    r.keepLast(5);
    assertEquals(5, r.size());
    assertArrayEquals(new long[] {45, 46, 47, 48, 49}, r.snapshot().arrivalNanos());
    r.add(100, 102, 1, 1, 0);
    assertEquals(6, r.size());
    assertEquals(100, r.snapshot().arrivalNanos()[5]);
  }

  @Test
  void rejectsAnEmptyCapacity() {
    assertThrows(IllegalArgumentException.class, () -> new Reservoir(0));
  }

  @Test
  void rateIsArrivalsOverTheirSpan() {
    Reservoir r = new Reservoir(10);
    for (int i = 0; i < 11; i++) {
      r.add(i * 100_000_000L, i * 100_000_000L + 10, 5, 5, 0);
    }
    assertEquals(10.0, r.snapshot().rateRps(), 1e-9); // 10 samples held, 9 gaps of 0.1 s
  }
}
