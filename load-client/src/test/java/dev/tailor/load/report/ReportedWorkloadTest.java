package dev.tailor.load.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFile;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every report states the spread of the workload its requests come from, or that it is unknown. */
class ReportedWorkloadTest {

  private static final long MS = 1_000_000L;

  /** The crafted line for {@link #heavyTailed}: 95 requests of 1 ms and 5 of 20 ms. */
  static final String HEAVY_TAILED_LINE =
      "Workload: profile crafted.json, 100 requests: median 1.000 ms, P99 20.000 ms (P99/median"
          + " 20.0), max 20.000 ms (max/median 20.0), mean 1.950 ms; the slowest 5% hold 51% of"
          + " the time.";

  /** 100 requests {@code q0..q99}: the first 95 of 1 ms, the last 5 of 20 ms. */
  static DemandProfile heavyTailed() {
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      long nanos = i < 95 ? MS : 20 * MS;
      requests.add(
          new DemandProfile.Request(
              "q" + i,
              null,
              "query " + i,
              nanos,
              new long[] {nanos},
              new double[] {1.0},
              new double[0],
              new DemandProfile.Features("TermQuery", 1, new long[] {1}, 1)));
    }
    return DemandProfile.of(
        new DemandProfile.Environment(
            "/index", "test", 100, "/trace.txt", 1, "25", "Linux amd64", "2026-01-01T00:00:00Z"),
        new DemandProfile.Settings(1, 1, 1, 1),
        true,
        requests);
  }

  private static PointResult point() {
    Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
    h.recordValue(2 * MS);
    return new PointResultBuilder("seq", h)
        .labels(10, "poisson(10/s)", 1, "simulated, 4 cores", "corpus")
        .outcome(1_000 * MS, 1, 1, 0, false)
        .missTargets(List.of())
        .build();
  }

  @Test
  void theSummaryAndWorkloadJsonStateACraftedProfilesSpread(@TempDir Path dir) throws Exception {
    ReportedWorkload workload = ReportedWorkload.of("profile crafted.json", heavyTailed());
    assertEquals(HEAVY_TAILED_LINE, workload.summaryLine());

    String summary = Report.write(dir, List.of(point()), Double.NaN, workload);
    assertTrue(summary.lines().anyMatch(HEAVY_TAILED_LINE::equals), summary);
    assertEquals(summary, Files.readString(dir.resolve(Report.SUMMARY)));

    JsonNode json = JsonFile.readTree(dir.resolve(ReportedWorkload.FILE));
    assertEquals("profile crafted.json", json.get("source").asText());
    assertEquals(100, json.get("requests").asInt());
    assertEquals(20.0, json.get("p99OverMedian").asDouble(), 1e-9);
    JsonNode spread = json.get("spread");
    assertEquals(100, spread.get("requests").asInt());
    assertEquals(1e6, spread.get("medianNanos").asDouble(), 1e-9);
    assertEquals(20e6, spread.get("p99Nanos").asDouble(), 1e-9);
    assertEquals(100.0 / 195, spread.get("slowest5PercentShare").asDouble(), 1e-12);
  }

  @Test
  void aReplayStatesTheSpreadOfTheReplayedQueriesOnly() {
    // q90..q99 replayed (five of 1 ms, five of 20 ms), and one query the profile lacks.
    List<String> ids = new ArrayList<>(IntStream.range(90, 100).mapToObj(i -> "q" + i).toList());
    ids.add("unprofiled");
    ReportedWorkload w = ReportedWorkload.replayed("profile crafted.json", ids, heavyTailed());
    assertEquals(11, w.requests());
    assertEquals(10, w.spread().requests());
    assertEquals(10.5e6, w.spread().medianNanos(), 1e-9);
    assertTrue(
        w.summaryLine()
            .startsWith(
                "Workload: profile crafted.json (10 of the 11 requests profiled), 10 requests:"
                    + " median 10.500 ms"),
        w.summaryLine());
  }

  @Test
  void withoutAProfileTheSpreadIsSaidToBeUnknown(@TempDir Path dir) throws Exception {
    ReportedWorkload none = ReportedWorkload.unprofiled(17);
    String summary = Report.write(dir, List.of(point()), Double.NaN, none, null);
    assertTrue(
        summary.contains(
            "Workload: 17 requests of unknown spread: no demand profile was given (replay"
                + " --profile), so neither P99/median nor the slowest 5%'s share of the time is"
                + " known."),
        summary);
    JsonNode json = JsonFile.readTree(dir.resolve(ReportedWorkload.FILE));
    assertTrue(json.get("spread").isNull(), json.toString());
    assertTrue(json.get("p99OverMedian").isNull(), json.toString());

    ReportedWorkload other =
        ReportedWorkload.replayed("profile crafted.json", List.of("x", "y"), heavyTailed());
    assertTrue(
        other.summaryLine().contains("2 requests of unknown spread: profile crafted.json has none"),
        other.summaryLine());
  }
}
