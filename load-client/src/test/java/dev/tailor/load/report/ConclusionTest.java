package dev.tailor.load.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.Estimate;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The regret table and the verdict on crafted sweeps whose answers are known: every run of a point
 * answers all its requests in one latency, round r slowing every policy alike by (1 + r/10), so
 * that paired ratios are exact.
 */
class ConclusionTest {

  private static final long MS = 1_000_000;

  static PointResult point(
      String policy, double rps, int repetition, double ms, int requests, boolean saturated) {
    Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
    h.recordValueWithCount((long) (ms * MS), requests);
    return new PointResultBuilder(policy, h)
        .labels(rps, "poisson(" + rps + "/s)", 42, "measured on this machine (2 cores)", "test")
        .repetition(repetition)
        .outcome(1_000 * MS, requests, requests, 0, saturated)
        .build();
  }

  /** Five rounds of a point whose round-1 latency is {@code ms}. */
  static void add(List<PointResult> out, String policy, double rps, double ms) {
    for (int r = 1; r <= 5; r++) {
      out.add(point(policy, rps, r, ms * (1 + r / 10.0), 200, false));
    }
  }

  static void addSaturated(List<PointResult> out, String policy, double rps) {
    for (int r = 1; r <= 5; r++) {
      out.add(point(policy, rps, r, 900, 200, r == 3));
    }
  }

  /**
   * lucene 10 ms at every load; steal-first 7, 7, 11; fixed:2 7.5, 8, saturated; lucene-executor:2
   * 8, 9, 12; seq 10; oracle 5 (clairvoyant, never the best).
   */
  static List<PointResult> sweep() {
    List<PointResult> points = new ArrayList<>();
    double[] loads = {30, 90, 250};
    double[][] ms = {
      {10, 10, 10}, {7, 7, 11}, {7.5, 8, -1}, {8, 9, 12}, {10, 10, 10}, {5, 5, 5},
    };
    String[] policies = {"lucene", "steal-first", "fixed:2", "lucene-executor:2", "seq", "oracle"};
    for (int l = 0; l < loads.length; l++) {
      for (int p = 0; p < policies.length; p++) {
        if (ms[p][l] < 0) {
          addSaturated(points, policies[p], loads[l]);
        } else {
          add(points, policies[p], loads[l], ms[p][l]);
        }
      }
    }
    return points;
  }

  @Test
  void regretIsEachPolicysRatioToTheBestNonClairvoyantAtEachLoad() {
    Conclusion c = new Conclusion(sweep());
    Regret regret = c.regret();
    assertEquals("steal-first", regret.best(30).policy());
    assertEquals("steal-first", regret.best(90).policy());
    assertEquals("lucene", regret.best(250).policy()); // seq ties; the first listed wins
    Regret.Row lucene = regret.row("lucene");
    assertEquals(10 / 7.0, lucene.ratios().get(30.0).value(), 0.005);
    assertEquals(10 / 7.0, lucene.ratios().get(30.0).low(), 0.005);
    assertEquals(10 / 7.0, lucene.ratios().get(30.0).high(), 0.005);
    assertEquals(10 / 7.0, lucene.worst().value(), 0.005);
    Regret.Row executor = regret.row("lucene-executor:2");
    assertEquals(9 / 7.0, executor.worst().value(), 0.005);
    assertEquals(90, executor.worstLoad());
    Regret.Row stealFirst = regret.row("steal-first");
    assertEquals(1.1, stealFirst.worst().value(), 0.005);
    assertEquals(250, stealFirst.worstLoad());
    assertTrue(stealFirst.bounded());
    Regret.Row fixed = regret.row("fixed:2");
    assertEquals(List.of(250.0), fixed.saturatedAt());
    assertFalse(fixed.bounded());
    assertEquals(Double.POSITIVE_INFINITY, fixed.worstValue());
    assertEquals("steal-first", c.recommended().policy());
  }

  @Test
  void theVerdictSaysWhereTheConfigurationBeatsPlainLuceneAndWhereItLoses() {
    String text = new Conclusion(sweep()).paragraph();
    assertTrue(text.contains("one configuration for every load: steal-first"), text);
    assertTrue(text.contains("1.10 [1.10-1.10] at 250 rps"), text);
    assertTrue(
        text.contains(
            "Against lucene, steal-first (ratio of pooled P99s) is better at 30 rps (0.70"
                + " [0.70-0.70]), 90 rps (0.70 [0.70-0.70]); worse at 250 rps (1.10 [1.10-1.10])"),
        text);
    assertTrue(text.contains("Against lucene-executor:2, steal-first"), text);
    assertFalse(text.contains("oracle"), text);
  }

  @Test
  void elasticsearchIsAPlainBaselineTheVerdictWeighsTailorAgainstNeverOneToRecommend() {
    assertTrue(Report.isPlainLucene("elasticsearch:2"));
    assertTrue(Report.isPlainLucene("Elasticsearch:8"));
    assertTrue(Report.isBaseline("elasticsearch:2"));
    assertFalse(Conclusion.isTailorConfiguration("elasticsearch:2"));
    // Elasticsearch's rule at 6, 6 and 10.5 ms: the best at the light loads, so that its worst
    // ratio (1.05, at 250) is below steal-first's (7 / 6, at 30 and 90).
    List<PointResult> points = new ArrayList<>(sweep());
    double[] loads = {30, 90, 250};
    double[] ms = {6, 6, 10.5};
    for (int l = 0; l < loads.length; l++) {
      add(points, "elasticsearch:2", loads[l], ms[l]);
    }
    Conclusion c = new Conclusion(points);
    assertEquals(List.of("lucene", "lucene-executor:2", "elasticsearch:2"), c.references());
    assertEquals("steal-first", c.recommended().policy(), "a baseline is never recommended");
    String text = c.paragraph();
    assertTrue(text.contains("one configuration for every load: steal-first"), text);
    assertTrue(text.contains("Plain Lucene's elasticsearch:2 has a lower worst ratio still"), text);
    assertTrue(text.contains("Against lucene, steal-first"), text);
    assertTrue(text.contains("Against lucene-executor:2, steal-first"), text);
    assertTrue(
        text.contains(
            "Against elasticsearch:2, steal-first (ratio of pooled P99s) is better at no load;"
                + " worse at 30 rps"),
        text);
  }

  @Test
  void aSweepWithoutPlainLuceneIsJudgedAgainstSeq() {
    List<PointResult> points =
        sweep().stream().filter(p -> !Report.isPlainLucene(p.policy())).toList();
    Conclusion c = new Conclusion(points);
    assertEquals(List.of("seq"), c.references());
    assertTrue(c.paragraph().contains("Against seq, steal-first"), c.paragraph());
  }

  @Test
  void noiseBetweenRoundsGivesNoVerdict() {
    // The same latencies, but seq's rounds in reverse: unpaired by what they measured, the
    // intervals of the ratio hold 1.
    List<PointResult> points = new ArrayList<>();
    for (int r = 1; r <= 5; r++) {
      points.add(point("lucene", 50, r, 10 * (1 + r / 10.0), 200, false));
      points.add(point("wq-linear", 50, r, 10 * (1 + (6 - r) / 10.0), 200, false));
    }
    Conclusion c = new Conclusion(points);
    assertTrue(c.paragraph().contains("not distinguishable (~) at 50 rps"), c.paragraph());
  }

  @Test
  void tooFewRequestsAreNotComparable() {
    List<PointResult> points = new ArrayList<>();
    for (int r = 1; r <= 3; r++) {
      points.add(point("lucene", 50, r, 10, 20, false));
      points.add(point("wq-linear", 50, r, 5, 20, false));
    }
    Conclusion c = new Conclusion(points);
    assertNull(c.recommended());
    Cell cell = Cell.find(Cell.of(points), "wq-linear", 50);
    assertEquals(Estimate.NONE, cell.p99());
    assertTrue(cell.latency(90).known());
  }

  @Test
  void theReportWritesTheRegretTable(@TempDir Path dir) throws Exception {
    Report.write(dir, sweep(), Double.NaN, ReportedWorkload.unprofiled(17));
    List<String> regret = Files.readAllLines(dir.resolve(Report.REGRET));
    assertEquals("policy,offered_rps,best,ratio,ratio_low,ratio_high", regret.get(0));
    String[] worst =
        regret.stream()
            .filter(l -> l.startsWith("steal-first,worst,"))
            .findFirst()
            .get()
            .split(",");
    assertEquals(1.1, Double.parseDouble(worst[3]), 0.002);
    assertEquals(1.1, Double.parseDouble(worst[4]), 0.002);
    assertEquals(1.1, Double.parseDouble(worst[5]), 0.002);
    assertTrue(regret.contains("fixed:2,250,lucene,saturated,,"), regret.toString());
    assertTrue(regret.contains("fixed:2,worst,,saturated,,"), regret.toString());
    String summary = Files.readString(dir.resolve(Report.SUMMARY));
    assertTrue(summary.contains("## One configuration across every load (regret)"), summary);
    assertTrue(summary.contains("| steal-first | 1.00 [1.00-1.00] | 1.00 [1.00-1.00] |"), summary);
    assertTrue(summary.contains("· 0.70 [0.70-0.70] better"), summary);
    assertTrue(summary.contains("1,000 (5 runs)"), summary);
  }
}
