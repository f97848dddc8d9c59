package dev.tailor.profiler;

import dev.tailor.lucene.TailorSearcher;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.lucene.search.Query;

/**
 * Measures a list of queries at every measured degree the way that lets per-query times repeat:
 *
 * <ol>
 *   <li>Untimed warm-up rounds over all the queries until the JIT compiler has settled: at least
 *       the warm-up time, and until a round's time stops changing by more than {@value #SETTLED} of
 *       the previous one's and the compiler worked for at most {@value #COMPILING} of it.
 *   <li>Timed rounds over all the queries, each in a new (seeded) order, so that a drift of the
 *       machine, a burst of another process or a late compilation falls on every query alike
 *       instead of on the few measured at that moment.
 *   <li>A sample of a query shorter than the minimum sample time runs it several times in a row and
 *       counts their mean, so that a timer interrupt or a context switch weighs little.
 *   <li>A sample that a garbage collection ran into is thrown away and taken again.
 *   <li>Queries whose samples still spread more than the re-measure threshold get further rounds.
 * </ol>
 *
 * Not thread-safe; one instance measures one list of queries once.
 */
final class InterleavedRounds {

  /** A warm-up round within this share of the previous one's time has settled. */
  static final double SETTLED = 0.03;

  /**
   * A warm-up round during which the JIT compiled for more than this share of the round's time has
   * not settled: the profiles this replaced drifted by a third from the first timed round to the
   * last while the compiler was still at work.
   */
  static final double COMPILING = 0.02;

  /**
   * Warm-up stops after this many times the warm-up time even if round times still move (a round of
   * a small sample is short, so a cap in rounds would cut the warm-up below its minimum).
   */
  static final int MAX_WARMUP_FACTOR = 6;

  /** A sample repeats a short query at most this many times. */
  static final int MAX_BATCH = 64;

  /** A sample a collection ran into is taken again at most this many times. */
  static final int GC_RETRIES = 3;

  /** Hears each search run, and how many more are expected. */
  interface Tick {
    void sampled();

    /** About {@code searches} more searches are expected, warm-up included. */
    void remaining(long searches);
  }

  private final TailorSearcher[] searchers; // searchers[d - 1] runs at degree d
  private final UnitTimes unitTimes;
  private final MachineMonitor monitor;
  private final List<Query> queries;
  private final QuerySamples[] samples;
  private final Random random;
  private final int totalHitsThreshold;

  private int warmupRounds;
  private final List<Long> timedRoundNanos = new ArrayList<>();
  private int remeasured;
  private long gcDiscarded;
  private MachineMonitor.Snapshot timedFrom;
  private MachineMonitor.Snapshot timedTo;

  InterleavedRounds(
      TailorSearcher[] searchers,
      UnitTimes unitTimes,
      MachineMonitor monitor,
      List<Query> queries,
      int expectedSamples,
      long seed,
      int totalHitsThreshold) {
    this.totalHitsThreshold = totalHitsThreshold;
    this.searchers = searchers;
    this.unitTimes = unitTimes;
    this.monitor = monitor;
    this.queries = queries;
    this.samples = new QuerySamples[queries.size()];
    for (int i = 0; i < samples.length; i++) {
      samples[i] = new QuerySamples(searchers.length, expectedSamples);
    }
    this.random = new Random(seed);
  }

  /**
   * Warms up for at least {@code warmupNanos} and until settled, then runs {@code rounds} timed
   * rounds, then up to {@code rounds} more over the queries whose degree-1 spread exceeds {@code
   * remeasureSpread}.
   */
  void run(long warmupNanos, int rounds, long minSampleNanos, double remeasureSpread, Tick tick)
      throws IOException {
    List<Integer> all = IntStream.range(0, queries.size()).boxed().toList();
    warmUp(warmupNanos, minSampleNanos, rounds, all, tick);
    timedFrom = monitor.snapshot();
    long perRound = (long) queries.size() * searchers.length;
    for (int r = 0; r < rounds; r++) {
      tick.remaining((rounds - r) * perRound);
      long start = System.nanoTime();
      timedRound(all, tick);
      timedRoundNanos.add(System.nanoTime() - start);
    }
    List<Integer> unstable = new ArrayList<>();
    for (int i = 0; i < samples.length; i++) {
      if (samples[i].spread(1) > remeasureSpread) {
        unstable.add(i);
      }
    }
    remeasured = unstable.size();
    for (int r = 0; r < rounds && !unstable.isEmpty(); r++) {
      tick.remaining((long) unstable.size() * searchers.length);
      timedRound(unstable, tick);
      unstable.removeIf(i -> samples[i].spread(1) <= remeasureSpread);
    }
    timedTo = monitor.snapshot();
  }

  /** Untimed rounds; the last one's degree-1 times choose each query's batch. */
  private void warmUp(
      long warmupNanos, long minSampleNanos, int rounds, List<Integer> all, Tick tick)
      throws IOException {
    long start = System.nanoTime();
    long perRound = (long) queries.size() * searchers.length;
    long previous = -1;
    long[] lastTimes = new long[queries.size()];
    while (true) {
      long roundStart = System.nanoTime();
      long compiledBefore = monitor.compilationMillis();
      for (int i : shuffled(all)) {
        for (int d = 1; d <= searchers.length; d++) {
          long t = SearchTimings.time(searchers[d - 1], queries.get(i), 1, totalHitsThreshold);
          if (d == 1) {
            lastTimes[i] = t;
          }
          tick.sampled();
        }
      }
      warmupRounds++;
      long round = System.nanoTime() - roundStart;
      boolean longEnough = System.nanoTime() - start >= warmupNanos;
      boolean settled =
          warmupNanos == 0 || (previous > 0 && Math.abs(round - previous) <= SETTLED * previous);
      boolean tooLong = System.nanoTime() - start >= MAX_WARMUP_FACTOR * warmupNanos;
      if ((longEnough && settled) || tooLong) {
        break;
      }
      previous = round;
      long left = warmupNanos - (System.nanoTime() - start);
      long warmupLeft = left > 0 ? Math.max(1, (left + round - 1) / Math.max(1, round)) : 1;
      tick.remaining((warmupLeft + rounds) * perRound);
    }
    for (int i = 0; i < samples.length; i++) {
      long t = Math.max(1, lastTimes[i]);
      samples[i].batch((int) Math.clamp((minSampleNanos + t - 1) / t, 1, MAX_BATCH));
    }
  }

  private void timedRound(List<Integer> which, Tick tick) throws IOException {
    for (int i : shuffled(which)) {
      for (int d = 1; d <= searchers.length; d++) {
        sample(i, d);
        tick.sampled();
      }
    }
  }

  /** One sample of query {@code i} at degree {@code d}, taken again if a collection ran into it. */
  private void sample(int i, int d) throws IOException {
    QuerySamples s = samples[i];
    for (int attempt = 0; ; attempt++) {
      long collections = monitor.collections();
      if (d == 1) {
        unitTimes.reset();
      }
      long nanos =
          SearchTimings.time(searchers[d - 1], queries.get(i), s.batch(), totalHitsThreshold);
      if (monitor.collections() != collections && attempt < GC_RETRIES) {
        gcDiscarded++;
        continue;
      }
      s.add(d, nanos, d == 1 ? unitTimes.snapshot(s.batch()) : null);
      return;
    }
  }

  /** The indexes in a new order, from this run's seeded random. */
  private List<Integer> shuffled(List<Integer> indexes) {
    List<Integer> order = new ArrayList<>(indexes);
    Collections.shuffle(order, random);
    return order;
  }

  QuerySamples samples(int i) {
    return samples[i];
  }

  int warmupRounds() {
    return warmupRounds;
  }

  long[] timedRoundNanos() {
    return timedRoundNanos.stream().mapToLong(Long::longValue).toArray();
  }

  int remeasured() {
    return remeasured;
  }

  long gcDiscarded() {
    return gcDiscarded;
  }

  MachineMonitor.Snapshot timedFrom() {
    return timedFrom;
  }

  MachineMonitor.Snapshot timedTo() {
    return timedTo;
  }
}
