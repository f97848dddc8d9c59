package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFile;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {

  @Test
  void aSweepSaysWhichPointOfHowManyAndCountsTheCountedPlansRequests(@TempDir Path tmp)
      throws Exception {
    Cli cli = new Cli();
    Path out = tmp.resolve("report");
    assertEquals(
        0,
        cli.run(
            "simulate",
            "--parametric",
            "200",
            "--cores",
            "4",
            "--policies",
            "seq,fixed:2",
            "--rps",
            "20",
            "--requests",
            "300",
            "--out",
            out.toString()),
        cli.err());
    assertTrue(cli.err().contains("(point 1 of 2, about "), cli.err());
    assertTrue(cli.err().contains("(point 2 of 2, the last)"), cli.err());
    try (var files = Files.list(out.resolve("points"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
        PointResult p = PointResult.read(f);
        assertEquals(270, p.sent(), f + ": 300 requests, the first tenth warm-up");
      }
    }
  }

  @Test
  void aTargetIsRecordedByEveryPointAndGivesTheReportItsMisses(@TempDir Path tmp) throws Exception {
    Cli cli = new Cli();
    Path out = tmp.resolve("report");
    assertEquals(
        0,
        cli.run(
            "simulate",
            "--parametric",
            "200",
            "--cores",
            "4",
            "--policies",
            "seq,fixed:2",
            "--rps",
            "10,20",
            "--requests",
            "300",
            "--targets",
            "200ms,1s",
            "--target",
            "0.2s",
            "--out",
            out.toString()),
        cli.err());
    try (var files = Files.list(out.resolve("points"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
        // --target 0.2s is --targets' 200ms: recorded once.
        assertEquals(
            List.of("200ms", "1s"), List.copyOf(PointResult.read(f).missRatio().keySet()), f + "");
      }
    }
    String summary = Files.readString(out.resolve("summary.md"));
    assertTrue(summary.contains("## Misses at the target (200ms)"), summary);
    assertTrue(summary.contains("| sustains (<= 1% misses) |"), summary);
    assertTrue(Files.readAllLines(out.resolve("results.csv")).get(0).contains(",miss_200ms,"));
    assertTrue(Files.exists(out.resolve("miss.png")));
    assertEquals(
        "policy,target,sustained_rps,crossing_rps",
        Files.readAllLines(out.resolve("sustained.csv")).get(0));

    Cli bad = new Cli();
    assertNotEquals(
        0, bad.run("simulate", "--parametric", "200", "--rps", "20", "--target", "20 minutes"));
    assertTrue(bad.err().contains("Invalid value for option '--target'"), bad.err());
    assertTrue(bad.err().contains("'20 minutes' is not a duration"), bad.err());
  }

  @Test
  void tailControlRunsOnTheLogNormalWorkloadWithATableBuiltForEachLoad(@TempDir Path tmp)
      throws Exception {
    for (String rps : List.of("1000", "1400")) {
      Cli build = new Cli();
      assertEquals(
          0,
          build.run(
              "tables",
              "build",
              "tc",
              "--lognormal",
              "10ms,13ms",
              "--requests",
              "5000",
              "--rps",
              rps,
              "--target",
              "20ms",
              "--out",
              tmp.resolve("tc-" + rps + ".json").toString()),
          build.err());
    }
    Cli cli = new Cli();
    Path out = tmp.resolve("report");
    String table = tmp.resolve("tc-{rps}.json").toString();
    assertEquals(
        0,
        cli.run(
            "simulate",
            "--lognormal",
            "10ms,13ms",
            "--model",
            "units",
            "--cores",
            "16",
            "--requests",
            "2000",
            "--rps",
            "1000,1400",
            "--target",
            "20ms",
            "--policies",
            "steal-first,admit-first,tc:" + table + ",tc-oracle:" + table,
            "--out",
            out.toString()),
        cli.err());
    List<PointResult> points = new ArrayList<>();
    try (var files = Files.list(out.resolve("points"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
        points.add(PointResult.read(f));
      }
    }
    assertEquals(8, points.size());
    // One column per policy: the table of each load is reported as listed.
    assertEquals(
        2, points.stream().filter(p -> p.policy().equals("tc:" + table)).count(), "" + points);
    assertTrue(points.stream().allMatch(p -> p.completed() == p.sent()));
    String summary = Files.readString(out.resolve("summary.md"));
    assertTrue(summary.contains("log-normal mean 10ms sd 13ms, 1% serial"), summary);
    assertTrue(summary.contains("tc:tc-{rps}.json"), summary);

    Cli missing = new Cli();
    assertEquals(
        1,
        missing.run(
            "simulate",
            "--lognormal",
            "10ms,13ms",
            "--rps",
            "1000,1200",
            "--policies",
            "tc:" + table));
    assertTrue(missing.err().contains("at 1200.0 rps"), missing.err());
    assertTrue(missing.err().contains("tc-1200.json"), missing.err());
  }

  @Test
  void theSummaryStatesTheSimulatedProfilesSpread(@TempDir Path tmp) throws Exception {
    // 100 requests: 95 of 1 ms and 5 of 20 ms.
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      long nanos = (i < 95 ? 1 : 20) * 1_000_000L;
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
    Path profile = tmp.resolve("crafted.json");
    DemandProfile.of(
            new DemandProfile.Environment(
                "/index", "test", 100, "/trace.txt", 1, "25", "Linux amd64", "2026-01-01T00:00Z"),
            new DemandProfile.Settings(1, 1, 1, 1),
            true,
            requests)
        .write(profile);
    Path out = tmp.resolve("report");
    Cli cli = new Cli();
    assertEquals(
        0,
        cli.run(
            "simulate",
            "--profile",
            profile.toString(),
            "--cores",
            "2",
            "--policies",
            "seq",
            "--rps",
            "20",
            "--requests",
            "200",
            "--out",
            out.toString()),
        cli.err());
    String line =
        "Workload: profile crafted.json, 100 requests: median 1.000 ms, P99 20.000 ms (P99/median"
            + " 20.0), max 20.000 ms (max/median 20.0), mean 1.950 ms; the slowest 5% hold 51% of"
            + " the time.";
    assertTrue(
        Files.readString(out.resolve("summary.md")).lines().anyMatch(line::equals),
        Files.readString(out.resolve("summary.md")));
    assertTrue(cli.out().contains(line), cli.out());
    JsonNode json = JsonFile.readTree(out.resolve("workload.json"));
    assertEquals(20.0, json.get("p99OverMedian").asDouble(), 1e-9);
    assertEquals(100.0 / 195, json.get("spread").get("slowest5PercentShare").asDouble(), 1e-12);
  }

  @Test
  void seedsAreRepetitionsTheOracleIsTunedPerLoadAndSeedAndTheCapBindsEveryPolicy(@TempDir Path tmp)
      throws Exception {
    Cli cli = new Cli();
    Path out = tmp.resolve("report");
    assertEquals(
        0,
        cli.run(
            "simulate",
            "--parametric",
            "200",
            "--cores",
            "4",
            "--policies",
            "seq,fixed:4,oracle",
            "--rps",
            "200",
            "--requests",
            "300",
            "--seeds",
            "2",
            "--max-degree",
            "2",
            "--out",
            out.toString()),
        cli.err());
    assertTrue(cli.err().contains("(point 6 of 6, the last)"), cli.err());
    assertTrue(cli.err().contains("oracle at 200.0 rps, seed 42, budgets tried: "), cli.err());
    assertTrue(cli.err().contains("oracle at 200.0 rps, seed 43, budgets tried: "), cli.err());
    List<PointResult> points = new ArrayList<>();
    try (var files = Files.list(out.resolve("points"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        points.add(PointResult.read(f));
      }
    }
    assertEquals(6, points.size());
    for (PointResult p : points) {
      assertEquals(42 + p.repetition() - 1, p.seed(), p.policy());
      // The cap binds every policy, fixed:4 and the oracle too: no request above 2 threads.
      for (long[] counts : p.degreeDistribution().values()) {
        for (int d = 3; d < counts.length; d++) {
          assertEquals(0, counts[d], p.policy() + " at degree " + d);
        }
      }
    }
    assertTrue(Files.exists(out.resolve("points/oracle@200rps-r2.json")));
    String summary = Files.readString(out.resolve("summary.md"));
    assertTrue(summary.contains("seeds 42-43"), summary);
    assertTrue(
        summary.contains("Each point ran 2 times; the repetitions are seeds 42-43"), summary);
    assertTrue(summary.contains("Degree cap: at most 2 threads per request"), summary);
    assertTrue(summary.contains("## Headroom to the oracle"), summary);

    Cli repeated = new Cli();
    assertNotEquals(
        0,
        repeated.run(
            "simulate",
            "--parametric",
            "200",
            "--rps",
            "20",
            "--repeat",
            "2",
            "--out",
            out.toString()));
    assertTrue(repeated.err().contains("use --seeds N"), repeated.err());
  }

  @Test
  void helpFormatsEveryDescription() {
    // picocli reports a description it cannot format (an unescaped %) on standard error.
    PrintStream saved = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Cli cli = new Cli();
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      assertEquals(0, cli.run("simulate", "--help"));
    } finally {
      System.setErr(saved);
    }
    String all = err.toString(StandardCharsets.UTF_8) + cli.err() + cli.out();
    assertFalse(all.contains("Could not format"), all);
    assertTrue(cli.out().contains("10% of them warm-up"), cli.out());
  }

  @Test
  void aTimeScaleStretchesEveryProfiledTime(@TempDir Path tmp) throws Exception {
    double[] p50 = new double[2];
    String[] scales = {"1", "2"};
    for (int i = 0; i < 2; i++) {
      Cli cli = new Cli();
      Path out = tmp.resolve("r" + i);
      assertEquals(
          0,
          cli.run(
              "simulate",
              "--parametric",
              "200",
              "--cores",
              "4",
              "--policies",
              "seq",
              "--rps",
              "0.5",
              "--requests",
              "300",
              "--time-scale",
              scales[i],
              "--out",
              out.toString()),
          cli.err());
      try (var files = Files.list(out.resolve("points"))) {
        Path f = files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
        PointResult p = PointResult.read(f);
        p50[i] = p.latencyAt("p50");
        if (i == 1) {
          assertTrue(p.corpus().contains("every time x2"), p.corpus());
        }
      }
    }
    // At 0.5 rps on 4 cores nothing queues: a request's latency is its own time.
    assertEquals(2 * p50[0], p50[1], 0.01 * p50[1]);
  }

  @Test
  void promptAdmissionCanBeTurnedOffToReCreateEarlierResults(@TempDir Path tmp) throws Exception {
    // Steal-first near saturation: off, arrivals wait for free threads to run out of work to steal.
    String[] p99 = new String[2];
    String[] modes = {"on", "off"};
    for (int i = 0; i < 2; i++) {
      Cli cli = new Cli();
      Path out = tmp.resolve(modes[i]);
      assertEquals(
          0,
          cli.run(
              "simulate",
              "--lognormal",
              "20ms,40ms",
              "--cores",
              "4",
              "--policies",
              "steal-first",
              "--rps",
              "150",
              "--requests",
              "2000",
              "--model",
              "units",
              "--prompt-admission",
              modes[i],
              "--out",
              out.toString()),
          cli.err());
      p99[i] = Files.readAllLines(out.resolve("cells.csv")).get(1);
    }
    org.junit.jupiter.api.Assertions.assertNotEquals(p99[0], p99[1], "the same sweep, on and off");
  }
}
