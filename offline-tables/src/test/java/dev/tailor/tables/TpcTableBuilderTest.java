package dev.tailor.tables;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.policy.TpcPolicy;
import dev.tailor.core.table.TargetTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.model.ParametricProfile;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TpcTableBuilderTest {

  static final long MS = 1_000_000L;

  private final DemandProfile profile = ParametricProfile.generate(300, 4, 3);

  private static TpcTableBuilder.Options options(TpcPolicy.Variant variant, int threads) {
    return TpcTableBuilder.Options.builder()
        .cores(8)
        .maxDegree(4)
        .ratesRps(List.of(60.0, 120.0))
        .loads(3)
        .requests(600)
        .seed(11)
        .model(Simulator.WorkModel.FLUID)
        .quantumNanos(5 * MS)
        .maxIterations(200)
        .stepDoublings(6)
        .threads(threads)
        .variant(variant)
        .loadMetric(TargetTable.LoadMetric.LONG_THREADS)
        .build();
  }

  private static final TpcTableBuilder.Sources SOURCES =
      new TpcTableBuilder.Sources("p.json", "sha256:" + "c".repeat(64), null, null);

  /** A tail over a 2-entry grid of steps, computed once per table, as a brute force would. */
  private static double bowl(long[] t) {
    double a = t[0] / 1e6 - 7;
    double b = t[1] / 1e6 - 4;
    return a * a + b * b + (t[0] > 9 * MS ? 50 : 0);
  }

  @Test
  void theSearchStopsWhereABruteForceOverTheGridSaysNoSingleStepHelps() {
    long[] initial = {MS, MS};
    TargetSearch.Result r =
        TargetSearch.run(initial, MS, MS, 1000, TpcTableBuilderTest::bowl, null);
    // Brute force: every table on the grid reachable by steps, its tail, and the greedy path.
    Map<String, Double> all = new HashMap<>();
    for (long a = 1; a <= 15; a++) {
      for (long b = 1; b <= 15; b++) {
        long[] t = {a * MS, b * MS};
        all.put(Arrays.toString(t), bowl(t));
      }
    }
    double best = all.values().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    assertArrayEquals(new long[] {7 * MS, 4 * MS}, r.targetsNanos());
    assertEquals(best, r.finalTail(), 1e-9); // on this bowl the greedy reaches the optimum
    assertEquals(9, r.iterations()); // 6 steps of the first entry, 3 of the second
    assertEquals(1 + 2 * 10, r.measurements()); // the initial table, then 2 per round
    assertEquals(bowl(initial), r.initialTail(), 1e-9);
  }

  @Test
  void theSearchTakesTheFirstOfEqualStepsAndStopsAtALocalMinimum() {
    AtomicInteger calls = new AtomicInteger();
    TargetSearch.Measure flat =
        t -> {
          calls.incrementAndGet();
          return 1.0;
        };
    TargetSearch.Result r = TargetSearch.run(new long[] {5, 5, 5}, 1, 1, 100, flat, null);
    assertArrayEquals(new long[] {5, 5, 5}, r.targetsNanos()); // no step strictly helps
    assertEquals(4, calls.get());
  }

  @Test
  void aLargerStepCrossesAPlateauThatStopsThePapersSearch() {
    // Flat until the first entry reaches 6 ms, then a valley at 8 ms.
    TargetSearch.Measure plateau = t -> t[0] < 6 * MS ? 10 : Math.abs(t[0] / 1e6 - 8);
    TargetSearch.Result paper = TargetSearch.run(new long[] {MS}, MS, MS, 100, plateau, null);
    assertArrayEquals(new long[] {MS}, paper.targetsNanos());
    TargetSearch.Result crossing =
        TargetSearch.run(new long[] {MS}, MS, 8 * MS, 100, plateau, null);
    assertArrayEquals(new long[] {9 * MS}, crossing.targetsNanos()); // 1 + 8: the valley's side
  }

  @Test
  void parallelMeasurementsGiveTheSameTable() {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      TargetSearch.Result serial =
          TargetSearch.run(new long[] {MS, MS}, MS, 8 * MS, 100, TpcTableBuilderTest::bowl, null);
      TargetSearch.Result parallel =
          TargetSearch.run(new long[] {MS, MS}, MS, 8 * MS, 100, TpcTableBuilderTest::bowl, pool);
      assertArrayEquals(serial.targetsNanos(), parallel.targetsNanos());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void groupsAreScaledToTheWorkloadUnlessGiven() {
    TargetTable.Groups g = TpcGroups.of(profile, 4, 0, 0);
    long[] times =
        profile.requests().stream()
            .mapToLong(DemandProfile.Request::sequentialNanos)
            .sorted()
            .toArray();
    assertEquals(times[(int) (0.96 * times.length)], g.longFromNanos());
    assertEquals(g.longFromNanos() * 30 / 80, g.mediumFromNanos());
    assertTrue(g.longCurve().at(4) >= g.shortCurve().at(4)); // long requests scale better
    TargetTable.Groups given = TpcGroups.of(profile, 4, 30 * MS, 80 * MS);
    assertEquals(80 * MS, given.longFromNanos());
  }

  @Test
  void buildsATableForThePerfectPredictorThatIsNoWorseThanItsStart() {
    TpcTableBuilder builder = new TpcTableBuilder(options(TpcPolicy.Variant.TPC_ORACLE, 2));
    TargetTable t = builder.build(profile, SOURCES);
    assertEquals(4, t.rows().size()); // LongT 0, 1, 2 and infinity
    assertEquals("known", t.inputs().predictions());
    assertTrue(t.search().finalTailNanos() <= t.search().initialTailNanos());
    assertEquals(t.search().finalTailNanos(), builder.weightedTail(t, profile), 1e-6);
    long lowest = Arrays.stream(t.targetsNanos()).min().orElseThrow();
    for (long target : t.targetsNanos()) {
      assertEquals(0, (target - lowest) % t.inputs().stepNanos()); // whole steps from the start
    }
  }

  @Test
  void aTableForTheProgressAwarePolicyIsSearchedByThatPolicy() {
    TpcTableBuilder forProgress =
        new TpcTableBuilder(options(TpcPolicy.Variant.TPC_ORACLE, 2)).forProgress();
    TargetTable t = forProgress.build(profile, SOURCES);
    assertTrue(t.search().finalTailNanos() <= t.search().initialTailNanos());
    assertEquals(
        t.search().finalTailNanos(),
        forProgress.weightedTail(t, profile),
        1e-6,
        "the search's tail is the progress-aware policy's on the table");
  }

  @Test
  void tpcNeedsThePredictionsOnTheProfile() {
    TpcTableBuilder builder = new TpcTableBuilder(options(TpcPolicy.Variant.TPC, 1));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> builder.build(profile, SOURCES));
    assertTrue(e.getMessage().contains("predictor predict"), e.getMessage());
  }

  @Test
  void optionsDefaultToTheCommandsAndNameTheBadOne() {
    TpcTableBuilder.Options o = TpcTableBuilder.Options.builder().ratesRps(List.of(10.0)).build();
    assertEquals(16, o.cores());
    assertEquals(6, o.maxDegree());
    assertEquals("p99", o.quantile());
    assertEquals(9, o.loads());
    assertEquals(4000, o.requests());
    assertEquals(TpcPolicy.Variant.TPC, o.variant());
    assertEquals(TargetTable.LoadMetric.LONG_THREADS, o.loadMetric());
    assertEquals(null, o.weights());
    TpcTableBuilder.Options changed =
        o.toBuilder().loadMetric(TargetTable.LoadMetric.ALL_THREADS).build();
    assertEquals(TargetTable.LoadMetric.ALL_THREADS, changed.loadMetric());
    assertEquals(o.ratesRps(), changed.ratesRps());

    Map<String, TpcTableBuilder.Options.Builder> bad =
        Map.of(
            "ratesRps: need at least one arrival rate",
            TpcTableBuilder.Options.builder(),
            "maxDegree: need 1 to cores (4), got 6",
            o.toBuilder().cores(4),
            "weights: need one weight >= 0 per rate (1)",
            o.toBuilder().weights(List.of(1.0, 2.0)),
            "quantile: need p99 or p99.9, got p95",
            o.toBuilder().quantile("p95"),
            "requests: need at least 10, got 5",
            o.toBuilder().requests(5),
            "stepDoublings: need 0 to 20, got 21",
            o.toBuilder().stepDoublings(21),
            "variant: tp reads tpc's table",
            o.toBuilder().variant(TpcPolicy.Variant.TP));
    bad.forEach(
        (message, builder) -> {
          IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
          assertTrue(e.getMessage().startsWith(message), e.getMessage());
        });
  }
}
