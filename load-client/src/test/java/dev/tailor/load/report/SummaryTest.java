package dev.tailor.load.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.load.Sweep;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The summary's medians, ranges, verdicts beyond noise, headroom to the oracle and adaptive. */
class SummaryTest {

  private static final long MS = 1_000_000L;

  /** A point whose every request took {@code ms}, so its P99 is {@code ms} (within 0.1%). */
  private static PointResult point(
      String policy, double rps, int repetition, double ms, boolean saturated) {
    Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
    h.recordValueWithCount((long) (ms * MS), 100);
    return new PointResultBuilder(policy, h)
        .labels(rps, "poisson(" + rps + "/s)", 42, "measured on this machine (2 cores)", "test")
        .repetition(repetition)
        .outcome(1_000 * MS, 100, 100, 0, saturated)
        .build();
  }

  /** Three repetitions of a policy at a load, with these P99s. */
  private static void add(List<PointResult> out, String policy, double rps, double... ms) {
    for (int r = 0; r < ms.length; r++) {
      out.add(point(policy, rps, r + 1, ms[r], false));
    }
  }

  private static List<PointResult> sweep() {
    List<PointResult> points = new ArrayList<>();
    // At 100 rps the best baseline is fixed:2 (median 9 [8-10]); seq has median 11.
    add(points, "seq", 100, 10, 12, 11);
    add(points, "fixed:2@admit-first", 100, 9, 8, 10);
    add(points, "adaptive:1,2", 100, 12, 12, 12);
    points.add(point("wq-linear:2", 100, 1, 9, false));
    points.add(point("wq-linear:2", 100, 2, 50, true));
    points.add(point("wq-linear:2", 100, 3, 9, false));
    add(points, "fm-wc:/some/dir/t.json", 100, 5, 6, 7); // wholly below 8: better
    add(points, "fm:/some/dir/t.json", 100, 8.5, 9.5, 20); // overlaps: within noise
    add(points, "rampdown:3", 100, 11, 12, 13); // wholly above 10: worse
    add(points, "oracle", 100, 3, 3, 3);
    // At 200 rps the oracle is no better than the best baseline: no headroom to share.
    for (String p :
        List.of(
            "seq",
            "fixed:2@admit-first",
            "adaptive:1,2",
            "wq-linear:2",
            "fm-wc:/some/dir/t.json",
            "fm:/some/dir/t.json",
            "rampdown:3",
            "oracle")) {
      add(points, p, 200, 20, 20, 20);
    }
    return points;
  }

  @Test
  void aCellIsTheMedianOverItsRepetitionsWithItsRange() {
    List<Cell> cells = Cell.of(sweep());
    Cell seq = Cell.find(cells, "seq", 100);
    assertEquals(3, seq.repetitions());
    assertEquals(11, seq.median(), 0.02);
    assertEquals(10, seq.min(), 0.02);
    assertEquals(12, seq.max(), 0.02);
    assertEquals(3, seq.medianRun().repetition());
    Cell wq = Cell.find(cells, "wq-linear:2", 100);
    assertTrue(wq.saturated());
    assertEquals(1, wq.saturatedRuns());
    assertEquals(
        "sat. (1/3)",
        SummaryMarkdown.cellText(wq, Cell.find(cells, "fixed:2@admit-first", 100), true));
    // An even count's median is the mean of the middle two.
    Cell two =
        Cell.of(List.of(point("seq", 1, 1, 10, false), point("seq", 1, 2, 20, false))).get(0);
    assertEquals(15, two.median(), 0.05);
  }

  @Test
  void onlyRangesThatDoNotOverlapCountAsBetterOrWorse() {
    Summary s = new Summary(sweep());
    Cell best = s.bestBaseline(100);
    assertEquals("fixed:2@admit-first", best.policy(), "a baseline with an @ suffix is one");
    assertEquals(Cell.Verdict.BETTER, s.cell("fm-wc:/some/dir/t.json", 100).against(best));
    assertEquals(Cell.Verdict.WITHIN_NOISE, s.cell("fm:/some/dir/t.json", 100).against(best));
    assertEquals(Cell.Verdict.WORSE, s.cell("rampdown:3", 100).against(best));
    assertEquals(Cell.Verdict.BETTER, s.cell("oracle", 100).against(best));
    // A single run has no range, so no verdict.
    Cell once = Cell.of(List.of(point("fm", 1, 1, 1, false))).get(0);
    assertEquals(Cell.Verdict.NONE, once.against(best));

    String md = Report.summary(sweep(), ReportedWorkload.unprofiled(5));
    assertTrue(
        md.contains(
            "| 100 | 11.0 [10.0-12.0] (1.22) | 9.00 [8.00-10.0] (1.00) | 12.0 [12.0-12.0] (1.33)"
                + " | sat. (1/3) | 6.00 [5.00-7.00] (0.67 better) | 9.50 [8.50-20.0] (1.06 ~)"
                + " | 12.0 [11.0-13.0] (1.33 worse) | 3.00 [3.00-3.00] (0.33 better) |"),
        md);
    assertTrue(
        md.contains(
            "| load (rps) | seq | fixed:2@admit-first | adaptive:1,2 | wq-linear:2 | fm-wc:t.json"
                + " | fm:t.json | rampdown:3 | oracle |"),
        md);
    assertTrue(md.contains("Each point ran 3 times."), md);
    assertTrue(md.contains("Degree cap: none (no cap)."), md);
    assertTrue(md.contains("\"~\" (within noise)"), md);
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
            "| load (rps) | best baseline | its P99 (ms) | oracle P99 (ms) | fm-wc:t.json"
                + " | fm:t.json | rampdown:3 |"),
        md);
    // Best baseline 9, oracle 3: fm-wc at 6 won half the gap, fm at 9.5 lost a twelfth of it.
    assertTrue(md.contains("| 100 | fixed:2@admit-first | 9.00 | 3.00 | 50% | -8% | -50% |"), md);
    assertTrue(md.contains("| 200 | seq | 20.0 | 20.0 | n/a | n/a | n/a |"), md);
  }

  @Test
  void everyPolicyIsComparedWithAdaptiveAlone() {
    String md = Report.summary(sweep(), ReportedWorkload.unprofiled(5));
    assertTrue(md.contains("## Against adaptive:1,2 alone"), md);
    assertTrue(
        md.contains(
            "| 100 | 0.92 ~ | 0.75 better | sat. (1/3) | 0.50 better | 0.79 ~ | 1.00 ~ | 0.25"
                + " better |"),
        md);
  }

  @Test
  void noOracleNoHeadroomTableAndOneRunNoVerdict() {
    List<PointResult> points =
        List.of(
            point("seq", 10, 1, 10, false),
            point("fixed:2", 10, 1, 8, false),
            point("fm-wc", 10, 1, 4, false));
    String md =
        Report.summary(
            points, ReportedWorkload.unprofiled(5), new Report.Conditions(4, Sweep.ORDER));
    assertFalse(md.contains("Headroom"), md);
    assertFalse(md.contains("Against"), md);
    assertTrue(md.contains("| 10 | 10.0 (1.25) | 8.00 (1.00) | 4.00 (0.50) |"), md);
    assertTrue(md.contains("Each point ran once (at each load every repetition"), md);
    assertTrue(md.contains("Degree cap: at most 4 threads per request, for every policy."), md);
    assertTrue(md.contains("a single run cannot rank policies beyond noise"), md);
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
    assertTrue(Files.exists(dir.resolve("points/seq@100rps.json")));
    assertTrue(Files.exists(dir.resolve("points/seq@100rps-r3.json")));
    assertEquals(3, PointResult.read(dir.resolve("points/seq@100rps-r3.json")).repetition());
    List<String> results = Files.readAllLines(dir.resolve(Report.RESULTS));
    assertTrue(results.get(0).startsWith("policy,repetition,seed,offered_rps,"), results.get(0));
    List<String> cells = Files.readAllLines(dir.resolve(Report.CELLS));
    assertEquals(
        "policy,offered_rps,repetitions,saturated_runs,p99_median_ms,p99_min_ms,p99_max_ms,"
            + "best_baseline,ratio_to_best_baseline,vs_best_baseline,ratio_to_adaptive,"
            + "vs_adaptive,headroom_share,miss_median,miss_min,miss_max,failed_runs,failed,"
            + "failed_ratio",
        cells.get(0));
    String fmWc =
        cells.stream().filter(l -> l.startsWith("fm-wc:/some/dir/t.json,100,")).findFirst().get();
    assertTrue(fmWc.contains(",better,"), fmWc);
    int share = List.of(cells.get(0).split(",")).indexOf("headroom_share");
    assertEquals(0.5, Double.parseDouble(fmWc.split(",", -1)[share]), 0.01, fmWc);
    assertTrue(fmWc.endsWith(",,,,0,0,0.00000"), "no target, no misses, no failures: " + fmWc);
    assertEquals(1 + 2 * 8, cells.size());
  }
}
