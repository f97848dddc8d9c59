package dev.tailor.load.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CSV and the Markdown summary are written from the declared metrics. */
class MetricTest {

  private static final long MS = 1_000_000L;

  private static PointResult point(String policy, double rps, long latencyMs) {
    Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
    for (int i = 1; i <= 200; i++) {
      h.recordValue(i * latencyMs * MS / 100);
    }
    return new PointResultBuilder(policy, h)
        .labels(rps, "poisson(" + rps + "/s)", 1, "simulated, 4 cores", "corpus, with a comma")
        .outcome(1_000 * MS, 200, 200, 0, false)
        .missTargets(List.of(50 * MS))
        .build();
  }

  @Test
  void theCsvHasOneColumnPerDeclaredMetricFormattedAsDeclared() {
    List<PointResult> points = List.of(point("seq", 10, 80), point("fixed:2", 10, 40));
    List<String> lines = ResultsCsv.of(points).lines().toList();
    List<Metric> metrics = Metric.csvColumns(List.of("50ms"));
    List<String> header = new ArrayList<>(List.of("policy", "repetition", "seed"));
    metrics.forEach(m -> header.add(m.column()));
    header.addAll(List.of("environment", "corpus"));
    assertEquals(String.join(",", header), lines.get(0));
    assertTrue(lines.get(0).contains(",p99_ms,p99.9_ms,max_ms,queue_p99_ms,"), lines.get(0));
    assertEquals(3, lines.size());
    for (int i = 0; i < points.size(); i++) {
      List<String> row = new ArrayList<>();
      row.add(points.get(i).policy());
      row.add("1");
      row.add("1");
      for (Metric m : metrics) {
        row.add(m.format(points.get(i)));
      }
      row.add("\"simulated, 4 cores\""); // labels with a comma are quoted
      row.add("\"corpus, with a comma\"");
      assertEquals(String.join(",", row), lines.get(i + 1));
    }
    // Unknown figures are empty, not zero: no queueing, send lag or CPU time was recorded.
    assertEquals("", Metric.QUEUE_P99.format(points.get(0)));
    assertEquals("", Metric.CPU.format(points.get(0)));
    assertEquals("10", Metric.OFFERED.format(points.get(0)));
    assertEquals("false", Metric.SATURATED.format(points.get(0)));
  }

  @Test
  void theSummaryGivesTheSummaryMetricInItsUnitWithTheRatioToTheReference(@TempDir Path dir)
      throws Exception {
    PointResult seq = point("seq", 10, 80);
    PointResult fixed = point("fixed:2", 10, 40);
    String summary =
        Report.write(dir, List.of(seq, fixed), Double.NaN, ReportedWorkload.unprofiled(200));
    assertEquals(summary, Files.readString(dir.resolve(Report.SUMMARY)));
    // One run each: pooled figures without intervals, fixed:2's ratio to seq (the reference).
    double reference = Report.SUMMARY_METRIC.value(seq);
    String expected =
        String.format(
            Locale.ROOT,
            "| 10 | %s | %s · %.2f |",
            SummaryMarkdown.value(reference),
            SummaryMarkdown.value(Report.SUMMARY_METRIC.value(fixed)),
            Report.SUMMARY_METRIC.value(fixed) / reference);
    assertTrue(summary.contains(expected), summary);
    assertTrue(summary.contains("### Pooled P99 (ms)"), summary);
    assertEquals(ResultsCsv.of(List.of(seq, fixed)), Files.readString(dir.resolve(Report.RESULTS)));
  }
}
