package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PooledLatencyTest {

  private static final long MS = 1_000_000;

  /** A run of {@code n} requests all of latency {@code nanos}. */
  private static Histogram constant(long nanos, int n) {
    Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
    h.recordValueWithCount(nanos, n);
    return h;
  }

  private static Histogram random(SplittableRandom r, int n, double scaleMs) {
    Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
    for (int i = 0; i < n; i++) {
      // A long-tailed latency: most short, a few 10-100x longer.
      double ms = scaleMs * (r.nextDouble() < 0.05 ? 10 + 90 * r.nextDouble() : r.nextDouble());
      h.recordValue((long) (ms * MS) + 1);
    }
    return h;
  }

  @Test
  void pooledPercentilesAreTheMergedHistograms() {
    SplittableRandom r = new SplittableRandom(1);
    List<Histogram> runs = List.of(random(r, 900, 1), random(r, 1100, 1.3), random(r, 700, 0.8));
    Histogram merged = runs.get(0).copy();
    merged.add(runs.get(1));
    merged.add(runs.get(2));
    PooledLatency pooled = PooledLatency.of(runs);
    assertEquals(2700, pooled.requests());
    assertEquals(3, pooled.runs());
    for (double p : new double[] {1, 25, 50, 90, 99, 99.9, 100}) {
      assertEquals(merged.getValueAtPercentile(p), pooled.at(p).value(), "P" + p);
      // The bootstrap's own rule gives the same value with every run drawn once.
      assertEquals(
          merged.getValueAtPercentile(p), pooled.valueAt(new long[] {1, 1, 1}, p), "P" + p);
    }
  }

  @Test
  void identicalRunsGiveAnIntervalOfOneValue() {
    List<Histogram> runs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Histogram h = constant(2 * MS, 990);
      h.recordValueWithCount(30 * MS, 10);
      runs.add(h);
    }
    Estimate p99 = PooledLatency.of(runs).at(99);
    Estimate p50 = PooledLatency.of(runs).at(50);
    assertEquals(p99.value(), p99.low());
    assertEquals(p99.value(), p99.high());
    assertEquals(2 * MS, p50.value(), 0.001 * 2 * MS);
    assertEquals(p50.value(), p50.low());
    assertEquals(p50.value(), p50.high());
  }

  @Test
  void twoRunsResampledGiveTheKnownInterval() {
    // Run A answers every request in 10 ms, run B in 20 ms. Drawing two runs with replacement
    // gives AA (1/4), AB or BA (1/2), BB (1/4): P99 is 10 ms for AA only, 20 ms otherwise, so the
    // 95% interval runs from 10 to 20 ms; the merged P99 is 20 ms.
    List<Histogram> runs = List.of(constant(10 * MS, 1000), constant(20 * MS, 1000));
    PooledLatency pooled = PooledLatency.of(runs);
    Estimate p99 = pooled.at(99);
    Histogram ten = constant(10 * MS, 1);
    Histogram twenty = constant(20 * MS, 1);
    assertEquals(twenty.getValueAtPercentile(50), p99.value());
    assertEquals(ten.getValueAtPercentile(50), p99.low());
    assertEquals(twenty.getValueAtPercentile(50), p99.high());
    // P50: 10 ms unless both draws are B; the merged median is A's.
    Estimate p50 = pooled.at(50);
    assertEquals(ten.getValueAtPercentile(50), p50.value());
    assertEquals(ten.getValueAtPercentile(50), p50.low());
    assertEquals(twenty.getValueAtPercentile(50), p50.high());
  }

  @Test
  void pairedRatioCancelsTheRoundsNoise() {
    // Round r is slow for both points alike (r x 10 ms); B is always twice A. Paired, every
    // replicate's ratio is 0.5 exactly; unpaired, the rounds' spread widens the interval.
    List<Histogram> a = new ArrayList<>();
    List<Histogram> b = new ArrayList<>();
    for (int r = 1; r <= 5; r++) {
      a.add(constant(r * 10 * MS, 500));
      b.add(constant(r * 20 * MS, 500));
    }
    PooledLatency pa = PooledLatency.of(a);
    PooledLatency pb = PooledLatency.of(b);
    assertTrue(pa.pairedWith(pb));
    Estimate paired = pa.ratioTo(pb, 99);
    assertEquals(0.5, paired.value(), 0.002);
    assertEquals(0.5, paired.low(), 0.002);
    assertEquals(0.5, paired.high(), 0.002);
    assertEquals(Estimate.Verdict.BETTER, paired.verdict());
    assertEquals(Estimate.Verdict.WORSE, pb.ratioTo(pa, 99).verdict());

    PooledLatency shifted = PooledLatency.of(b, new int[] {2, 3, 4, 5, 6});
    assertFalse(pa.pairedWith(shifted));
    Estimate unpaired = pa.ratioTo(shifted, 99);
    assertEquals(0.5, unpaired.value(), 0.002);
    assertTrue(unpaired.high() - unpaired.low() > 0.3, "unpaired: " + unpaired);
  }

  @Test
  void roundsPairWhateverTheOrderTheRunsCameIn() {
    List<Histogram> a = List.of(constant(10 * MS, 200), constant(30 * MS, 200));
    List<Histogram> b = List.of(constant(60 * MS, 200), constant(20 * MS, 200));
    // b's runs listed in the other order, rounds saying which is which.
    Estimate ratio = PooledLatency.of(a).ratioTo(PooledLatency.of(b, new int[] {2, 1}), 50);
    assertEquals(0.5, ratio.low(), 0.002);
    assertEquals(0.5, ratio.high(), 0.002);
  }

  @Test
  void fewRequestsGetNoPercentileAboveP90() {
    PooledLatency few = PooledLatency.of(List.of(constant(MS, 50), constant(MS, 49)));
    assertEquals(99, few.requests());
    assertFalse(few.at(99).known());
    assertFalse(few.at(99.9).known());
    assertTrue(few.at(90).known());
    assertTrue(few.at(50).known());
    assertFalse(few.available(99));
    PooledLatency enough = PooledLatency.of(List.of(constant(MS, 50), constant(MS, 50)));
    assertTrue(enough.at(99).known());
    assertFalse(few.ratioTo(enough, 99).known());
  }

  @Test
  void oneRunHasAFigureButNoInterval() {
    PooledLatency one = PooledLatency.of(List.of(constant(5 * MS, 1000)));
    Estimate p99 = one.at(99);
    assertTrue(p99.known());
    assertFalse(p99.hasInterval());
    assertEquals(Estimate.Verdict.NONE, one.ratioTo(one, 99).verdict());
  }

  @Test
  void emptyRunsAreLeftOutOfTheirReplicates() {
    Histogram empty = new Histogram(1, 3_600_000_000_000L, 3);
    PooledLatency pooled = PooledLatency.of(List.of(constant(MS, 500), empty, constant(MS, 500)));
    Estimate p50 = pooled.at(50);
    assertEquals(p50.value(), p50.low());
    assertEquals(p50.value(), p50.high());
  }

  @Test
  void theSameRunsGiveTheSameIntervalEveryTime() {
    SplittableRandom r = new SplittableRandom(7);
    List<Histogram> runs = List.of(random(r, 800, 1), random(r, 800, 2), random(r, 800, 1.5));
    assertEquals(PooledLatency.of(runs).at(99), PooledLatency.of(runs).at(99));
  }

  @Test
  void badInputIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> PooledLatency.of(List.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> PooledLatency.of(List.of(constant(MS, 1)), new int[] {1, 2}));
    PooledLatency one = PooledLatency.of(List.of(constant(MS, 1)));
    assertThrows(IllegalArgumentException.class, () -> one.at(0));
    assertThrows(IllegalArgumentException.class, () -> one.at(101));
  }
}
