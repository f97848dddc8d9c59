package dev.tailor.load.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.load.Sweep;
import dev.tailor.measure.Estimate;
import dev.tailor.measure.MachineNoise;
import dev.tailor.measure.PointResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The summary's pooled figures, ratios to plain Lucene, headroom to the oracle, and its CSV. */
class SummaryTest {

  /** A point of 200 requests that each took {@code ms}. */
  private static PointResult point(
      String policy, double rps, int repetition, double ms, boolean saturated) {
    return ConclusionTest.point(policy, rps, repetition, ms, 200, saturated);
  }

  /** Runs of a policy at a load, round r taking {@code ms[r-1]}. */
  private static void add(List<PointResult> out, String policy, double rps, double... ms) {
    for (int r = 0; r < ms.length; r++) {
      out.add(point(policy, rps, r + 1, ms[r], false));
    }
  }

  private static List<PointResult> sweep() {
    List<PointResult> points = new ArrayList<>();
    // Round 3 is slow for everyone at 100 rps.
    add(points, "lucene", 100, 10, 10, 20);
    add(points, "fixed:2@admit-first", 100, 8, 8, 16);
    points.add(point("wq-linear:2", 100, 1, 9, false));
    points.add(point("wq-linear:2", 100, 2, 50, true));
    points.add(point("wq-linear:2", 100, 3, 9, false));
    add(points, "fm-wc:/some/dir/t.json", 100, 5, 5, 10); // half of lucene's in every round
    add(points, "rampdown:3", 100, 11, 12, 13); // against a slow round: not distinguishable
    add(points, "oracle", 100, 4, 4, 8);
    // At 200 rps the oracle is no better than lucene: no headroom to share.
    for (String p :
        List.of(
            "lucene",
            "fixed:2@admit-first",
            "wq-linear:2",
            "fm-wc:/some/dir/t.json",
            "rampdown:3",
            "oracle")) {
      add(points, p, 200, 20, 20, 20);
    }
    return points;
  }

  @Test
  void aCellPoolsItsRunsAndComparesByRatioOfPooledPercentiles() {
    List<Cell> cells = Cell.of(sweep());
    Cell lucene = Cell.find(cells, "lucene", 100);
    assertEquals(3, lucene.repetitions());
    assertEquals(600, lucene.requests());
    // Pooled: 400 requests at 10 ms, 200 at 20 ms; P50 is 10 ms, P99 20 ms.
    assertEquals(10e6, lucene.latency(50).value(), 0.01e6);
    assertEquals(20e6, lucene.p99().value(), 0.02e6);
    Cell fm = Cell.find(cells, "fm-wc:/some/dir/t.json", 100);
    Estimate ratio = fm.ratioTo(lucene);
    assertEquals(0.5, ratio.low(), 0.002);
    assertEquals(0.5, ratio.high(), 0.002);
    assertEquals(Estimate.Verdict.BETTER, fm.against(lucene));
    assertEquals(Estimate.Verdict.WORSE, lucene.against(fm));
    Cell wq = Cell.find(cells, "wq-linear:2", 100);
    assertTrue(wq.saturated());
    assertEquals(Estimate.Verdict.NONE, wq.against(lucene));
    assertEquals("sat. (1/3)", SummaryMarkdown.cellText(wq, lucene));
  }

  @Test
  void theFirstTableGivesPooledP99sAndTheirRatioToPlainLucene() {
    String md = Report.summary(sweep(), ReportedWorkload.unprofiled(5));
    assertTrue(
        md.contains(
            "| load (rps) | lucene | fixed:2@admit-first | wq-linear:2 | fm-wc:t.json"
                + " | rampdown:3 | oracle |"),
        md);
    assertTrue(
        md.contains("| 100 | 20.0 [10.0-20.0] | 16.0 [8.00-16.0] · 0.80 [0.80-0.80] better"), md);
    assertTrue(md.contains("| sat. (1/3) | 10.0 [5.00-10.0] · 0.50 [0.50-0.50] better |"), md);
    assertTrue(md.contains("Each cell's second figure is its pooled P99 over lucene's"), md);
    assertTrue(md.contains("### Pooled P50 (ms)"), md);
    assertTrue(md.contains("### Pooled P99.9 (ms)"), md);
    assertTrue(md.contains("| 100 | 600 (3 runs) |"), md);
    assertTrue(md.contains("Each point ran 3 times."), md);
    assertTrue(md.contains("Degree cap: none (no cap)."), md);
  }

  @Test
  void theHeadroomShareIsTheFractionOfTheGapToTheOracleWon() {
    assertEquals(0.5, Summary.headroomShare(10, 4, 7), 1e-12);
    assertEquals(1.0, Summary.headroomShare(10, 4, 4), 1e-12);
    assertEquals(0.0, Summary.headroomShare(10, 4, 10), 1e-12);
    assertEquals(-0.5, Summary.headroomShare(10, 4, 13), 1e-12);
    assertTrue(Double.isNaN(Summary.headroomShare(10, 10, 7)), "no headroom");
    assertTrue(Double.isNaN(Summary.headroomShare(10, 12, 7)), "the oracle is worse");
    assertTrue(Double.isNaN(Summary.headroomShare(10, 9.95, 7)), "a tiny headroom");

    String md = Report.summary(sweep(), ReportedWorkload.unprofiled(5));
    assertTrue(md.contains("## Headroom to the oracle"), md);
    assertTrue(
        md.contains(
            "| load (rps) | lucene P99 (ms) | oracle P99 (ms) | fixed:2@admit-first | wq-linear:2"
                + " | fm-wc:t.json | rampdown:3 |"),
        md);
    // lucene 20, oracle 8: fixed:2 at 16 won a third of the gap, fm-wc at 10 five sixths.
    assertTrue(md.contains("| 33% | sat. (1/3) | 83% | 58% |"), md);
    assertTrue(md.contains("| 200 | 20.0 [20.0-20.0] | 20.0 [20.0-20.0] | n/a |"), md);
  }

  @Test
  void oneRunGivesFiguresButNoIntervalsAndNoVerdict() {
    List<PointResult> points =
        List.of(
            point("seq", 10, 1, 10, false),
            point("fixed:2", 10, 1, 8, false),
            point("fm-wc", 10, 1, 4, false));
    String md =
        Report.summary(
            points, ReportedWorkload.unprofiled(5), new Report.Conditions(4, Sweep.ORDER));
    assertFalse(md.contains("Headroom"), md);
    assertTrue(md.contains("| 10 | 10.0 | 8.00 · 0.80 | 4.00 · 0.40 |"), md);
    assertTrue(md.contains("Each point ran once (every round runs every load in turn"), md);
    assertTrue(md.contains("Degree cap: at most 4 threads per request, for every policy."), md);
    assertTrue(md.contains("with one run per point there are no intervals"), md);
  }

  @Test
  void repeatedPointsHaveTheirOwnFilesAndTheCellsTheirCsv(@TempDir Path dir) throws Exception {
    List<PointResult> points = sweep();
    Report.write(
        dir,
        points,
        Double.NaN,
        ReportedWorkload.unprofiled(5),
        null,
        new Report.Conditions(0, Sweep.ORDER));
    try (var files = Files.list(dir.resolve("points"))) {
      assertEquals(2 * points.size(), files.count(), "a JSON and a .hgrm per point");
    }
    assertTrue(Files.exists(dir.resolve("points/lucene@100rps.json")));
    assertTrue(Files.exists(dir.resolve("points/lucene@100rps-r3.json")));
    assertEquals(3, PointResult.read(dir.resolve("points/lucene@100rps-r3.json")).repetition());
    List<String> cells = Files.readAllLines(dir.resolve(Report.CELLS));
    List<String> header = List.of(cells.get(0).split(","));
    assertEquals(
        List.of("policy", "offered_rps", "repetitions", "saturated_runs", "requests", "p50_ms"),
        header.subList(0, 6));
    String fmWc =
        cells.stream().filter(l -> l.startsWith("fm-wc:/some/dir/t.json,100,")).findFirst().get();
    String[] row = fmWc.split(",", -1);
    assertEquals("better", row[header.indexOf("vs_reference")], fmWc);
    assertEquals("lucene", row[header.indexOf("reference")], fmWc);
    assertEquals(0.5, Double.parseDouble(row[header.indexOf("ratio_to_reference")]), 0.002);
    assertEquals(10, Double.parseDouble(row[header.indexOf("p99_ms")]), 0.02);
    assertEquals(5 / 6.0, Double.parseDouble(row[header.indexOf("headroom_share")]), 0.01);
    assertTrue(fmWc.endsWith(",,,,0,0,0.00000"), "no target, no misses, no failures: " + fmWc);
    assertEquals(1 + 2 * 6, cells.size());
  }

  @Test
  void aPointWithStallsPastTheBoundIsMarkedAndEveryPointsNoiseShown() {
    long ms = 1_000_000;
    MachineNoise quiet =
        new MachineNoise(
            1_000 * ms,
            5 * ms,
            200,
            80_000,
            250_000,
            400_000,
            3 * ms,
            1,
            2 * ms,
            2 * ms,
            0.001,
            0.03,
            0.005);
    MachineNoise noisy =
        new MachineNoise(
            1_000 * ms, 5 * ms, 200, 80_000, 9 * ms, 12 * ms, 15 * ms, 0, 0, 0, 0.2, 0.5, 0.005);
    List<PointResult> points = new ArrayList<>();
    for (int r = 1; r <= 2; r++) {
      PointResult lucene = point("lucene", 50, r, 10, false);
      PointResult wq = point("wq-linear", 50, r, 8, false);
      points.add(withNoise(lucene, quiet));
      points.add(withNoise(wq, r == 2 ? noisy : quiet));
    }
    String md = Report.summary(points, ReportedWorkload.unprofiled(5));
    assertTrue(md.contains("### The machine's noise while each point ran"), md);
    assertTrue(md.contains("better (noisy) |"), md);
    assertTrue(
        md.contains(
            "| 50 | stalls 0.250 ms, GC 1 (2.00 ms), steal 0.1%, other 3.0%, lag - ms | stalls 9.00"
                + " ms, GC 0 (0.000 ms), steal 20.0%, other 50.0%, lag - ms |"),
        md);
  }

  private static PointResult withNoise(PointResult p, MachineNoise noise) {
    return new PointResult(
        p.format(),
        p.version(),
        p.policy(),
        p.offeredRps(),
        p.arrivals(),
        p.seed(),
        p.repetition(),
        p.environment(),
        p.corpus(),
        p.durationNanos(),
        p.sent(),
        p.completed(),
        p.failed(),
        p.failures(),
        p.saturated(),
        p.achievedRps(),
        p.cpuNanos(),
        p.latency(),
        p.queueing(),
        p.sendLag(),
        p.missRatio(),
        p.degreeDistribution(),
        p.latencyHistogram(),
        p.breakdown(),
        noise,
        p.provenance(),
        null,
        null);
  }
}
