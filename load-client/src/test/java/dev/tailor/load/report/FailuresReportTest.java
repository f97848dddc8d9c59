package dev.tailor.load.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.Failures;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every part of a report shows a point's failures, apart from its latencies. */
class FailuresReportTest {

  private static final long MS = 1_000_000L;

  /** A point of 200 requests sent, those answered taking {@code ms} each, the rest failed. */
  private static PointResult point(String policy, double rps, double ms, Failures failures) {
    long answered = 200 - failures.total();
    Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
    h.recordValueWithCount((long) (ms * MS), answered);
    return new PointResultBuilder(policy, h)
        .labels(rps, "poisson(" + rps + "/s)", 7, "measured on this machine (2 cores)", "test")
        .outcome(1_000 * MS, 200, answered, failures, false)
        .missTargets(List.of(20 * MS))
        .build();
  }

  private static List<PointResult> sweep() {
    return List.of(
        point("seq", 100, 12, Failures.NONE),
        point("fixed:2", 100, 8, Failures.NONE),
        point("seq", 200, 15, new Failures(1, 0, 0, 0)),
        point("fixed:2", 200, 5, new Failures(6, 1, 2, 1)));
  }

  /** The CSV's rows as maps from column to field; no field here holds a comma. */
  private static List<Map<String, String>> rows(Path csv) throws Exception {
    List<String> lines = Files.readAllLines(csv);
    List<String> header = Arrays.asList(lines.get(0).split(",", -1));
    return lines.stream()
        .skip(1)
        .map(
            line -> {
              String[] fields = line.split(",", -1);
              Map<String, String> row = new HashMap<>();
              for (int i = 0; i < header.size(); i++) {
                row.put(header.get(i), fields[i]);
              }
              return row;
            })
        .toList();
  }

  @Test
  void theResultsCsvAndThePointsCarryTheFailuresByKind(@TempDir Path dir) throws Exception {
    List<PointResult> points = sweep();
    Report.write(dir, points, Double.NaN, ReportedWorkload.unprofiled(200));
    String header = Files.readAllLines(dir.resolve(Report.RESULTS)).get(0);
    assertTrue(
        header.contains(
            ",sent,completed,failed,failed_ratio,failed_rejected,failed_status,failed_error,"
                + "failed_unanswered,saturated,"),
        header);
    List<Map<String, String>> rows = rows(dir.resolve(Report.RESULTS));
    Map<String, String> fixed = rows.get(3);
    assertEquals("fixed:2", fixed.get("policy"));
    assertEquals("200", fixed.get("sent"));
    assertEquals("190", fixed.get("completed"));
    assertEquals("10", fixed.get("failed"));
    assertEquals("0.05000", fixed.get("failed_ratio"));
    assertEquals("6", fixed.get("failed_rejected"));
    assertEquals("1", fixed.get("failed_status"));
    assertEquals("2", fixed.get("failed_error"));
    assertEquals("1", fixed.get("failed_unanswered"));
    assertEquals("0", rows.get(0).get("failed_rejected"), "none is a count of zero");
    // Every answered request met 20 ms; the 10 failed did not.
    assertEquals("0.05000", fixed.get("miss_20ms"));
    assertEquals(
        5.0, Double.parseDouble(fixed.get("p99_ms")), 0.01, "the failures are no latencies");

    for (PointResult p : points) {
      PointResult back =
          PointResult.read(dir.resolve("points").resolve(Report.fileName(p) + ".json"));
      assertEquals(p.failed(), back.failed());
      assertEquals(p.failures(), back.failures());
    }
  }

  @Test
  void aCellWithFailuresIsFlaggedAndEachPointListed(@TempDir Path dir) throws Exception {
    String summary =
        Report.write(
            dir,
            sweep(),
            Double.NaN,
            ReportedWorkload.unprofiled(200),
            null,
            Report.Conditions.UNSTATED.withTarget(20 * MS));
    assertTrue(summary.contains("| 100 | 12.0 | 8.00 · 0.67 |"), summary);
    assertTrue(summary.contains("| 200 | 15.0 ! | 5.00 · 0.33 ! |"), summary);
    assertTrue(summary.contains("\"!\" marks a cell where a run had failures"), summary);
    assertTrue(
        summary.contains(
            "- ! fixed:2 at 200 rps: point had 10 failures (5.0% of 200 sent): 6 rejected,"
                + " 1 status, 2 error, 1 unanswered.\n"),
        summary);
    assertTrue(
        summary.contains(
            "- ! seq at 200 rps: point had 1 failure (0.50% of 200 sent): 1 rejected.\n"),
        summary);
    assertFalse(summary.contains("- ! seq at 100 rps"), summary);
    // The misses' table flags them too: there a failure is a miss.
    assertTrue(summary.contains("| 200 | 0.50% (1.00) ! | 5.0% (10.00) ! |"), summary);

    List<Map<String, String>> cells = rows(dir.resolve(Report.CELLS));
    Map<String, String> fixed200 = cells.get(3);
    assertEquals("fixed:2", fixed200.get("policy"));
    assertEquals("200", fixed200.get("offered_rps"));
    assertEquals("1", fixed200.get("failed_runs"));
    assertEquals("10", fixed200.get("failed"));
    assertEquals("0.05000", fixed200.get("failed_ratio"));
    assertEquals("0", cells.get(0).get("failed_runs"));
  }

  @Test
  void aReportWithoutFailuresHasNoFlagNorSection(@TempDir Path dir) throws Exception {
    String summary =
        Report.write(dir, sweep().subList(0, 2), Double.NaN, ReportedWorkload.unprofiled(200));
    assertFalse(summary.contains("!"), summary);
    assertFalse(summary.contains("## Failures"), summary);
    assertTrue(summary.contains("Latencies are those of requests answered with a result"), summary);
  }

  @Test
  void anOlderPointsFailuresAreListedAsUnsplit() {
    PointResult p = point("seq", 100, 12, new Failures(0, 0, 4, 0));
    PointResult v1 =
        new PointResult(
            p.format(),
            1,
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
            null,
            p.saturated(),
            p.achievedRps(),
            p.cpuNanos(),
            p.latency(),
            p.queueing(),
            p.sendLag(),
            p.missRatio(),
            p.degreeDistribution(),
            p.latencyHistogram(),
            null,
            null,
            null,
            null,
            null);
    Cell cell = Cell.of(List.of(v1)).get(0);
    assertEquals(
        "seq at 100 rps: point had 4 failures (2.0% of 200 sent), kinds not recorded: written by"
            + " an older Tailor, whose latencies include them.",
        SummaryMarkdown.failureLine(cell, v1));
    assertEquals("", Metric.FAILED_ERROR.format(v1), "unknown, not zero");
  }
}
