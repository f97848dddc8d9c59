package dev.tailor.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading JMH's JSON, and the scheduler-overhead report built from it; JMH itself is not run. */
class JmhLauncherTest {

  @TempDir Path tmp;

  @Test
  void readsScoresKeyedByMethodAndParameters() throws IOException {
    Path json =
        Files.writeString(
            tmp.resolve("results.json"),
            """
            [
              {"benchmark": "dev.tailor.bench.SchedulerOverheadBenchmark.tpeRoundTrip",
               "primaryMetric": {"score": 1200.5, "scoreError": 30.0, "scoreUnit": "ns/op"}},
              {"benchmark": "dev.tailor.bench.HelperUnitBenchmark.released",
               "params": {"units": "32"},
               "primaryMetric": {"score": 900.0, "scoreError": 5.0, "scoreUnit": "ns/op"}}
            ]
            """);
    Map<String, JmhLauncher.Score> scores = JmhLauncher.read(json);
    assertEquals(
        Map.of(
            "tpeRoundTrip", new JmhLauncher.Score(1200.5, 30.0, "ns/op"),
            "released[units=32]", new JmhLauncher.Score(900.0, 5.0, "ns/op")),
        scores);
  }

  @Test
  void readsAProfilersFiguresUnderTheScoresKey() throws IOException {
    Path json =
        Files.writeString(
            tmp.resolve("results.json"),
            """
            [
              {"benchmark": "dev.tailor.bench.MetricsOverheadBenchmark.run",
               "params": {"metrics": "bound"},
               "primaryMetric": {"score": 400.0, "scoreError": 4.0, "scoreUnit": "ns/op",
                                 "rawData": [[390.0, 420.0, 400.0], [380.0, 410.0]]},
               "secondaryMetrics": {
                 "gc.alloc.rate.norm": {"score": 232.0, "scoreError": 0.1, "scoreUnit": "B/op"},
                 "\u00b7gc.count": {"score": 3.0, "scoreError": 0.0, "scoreUnit": "counts"}}}
            ]
            """);
    assertEquals(
        Map.of(
            "run[metrics=bound]",
            new JmhLauncher.Score(400.0, 4.0, "ns/op", List.of(400.0, 395.0)),
            "run[metrics=bound]:gc.alloc.rate.norm",
            new JmhLauncher.Score(232.0, 0.1, "B/op"),
            "run[metrics=bound]:gc.count",
            new JmhLauncher.Score(3.0, 0.0, "counts")),
        JmhLauncher.read(json));
  }

  @Test
  void metricsOverheadPrintsWhatBindingAndScrapingAdd() throws IOException {
    Map<String, JmhLauncher.Score> s = new LinkedHashMap<>();
    s.put("run[metrics=none]", new JmhLauncher.Score(1000, 30, "ns/op", List.of(900.0, 1100.0)));
    s.put("run[metrics=bound]", new JmhLauncher.Score(1040, 40, "ns/op", List.of(950.0, 1130.0)));
    s.put("run[metrics=scraped]", new JmhLauncher.Score(1300, 300, "ns/op", List.of(1e3, 1.6e3)));
    // One fork of each allocated 88 B more per request: the JIT's choice, not the binder's.
    s.put(
        "run[metrics=none]:gc.alloc.rate.norm",
        new JmhLauncher.Score(516, 1, "B/op", List.of(472.0, 560.0)));
    s.put(
        "run[metrics=bound]:gc.alloc.rate.norm",
        new JmhLauncher.Score(516, 1, "B/op", List.of(560.01, 472.01)));
    s.put(
        "run[metrics=scraped]:gc.alloc.rate.norm",
        new JmhLauncher.Score(520, 1, "B/op", List.of(475.5, 564.0)));
    s.put("scrape", new JmhLauncher.Score(1_500_000, 20_000, "ns/op"));
    s.put("scrape:gc.alloc.rate.norm", new JmhLauncher.Score(2_000_000, 0, "B/op"));
    StringWriter out = new StringWriter();
    MetricsOverheadBench.print(s, 2, new PrintWriter(out, true));
    String report = out.toString();
    assertTrue(report.contains("one JMH run with -prof gc, 2 forks"), report);
    assertTrue(report.contains("472.0 560.0"), report);
    assertTrue(report.contains("+40±50 ns"), report);
    assertTrue(
        report.contains("measured (bound, against no registry): +40 ns, +0.01 B -> met"), report);
    assertTrue(
        report.contains(
            "measured (bound and scraped, against no registry): +300 ns, +3.50 B -> NOT met (the"
                + " time's error, ±301 ns, is above the goal"),
        report);
    assertTrue(report.contains("1500±20 µs, 2000 kB allocated"), report);
  }

  @Test
  void metricsOverheadPrintsThePairedRounds() {
    StringWriter out = new StringWriter();
    MetricsOverheadBench.printPaired(
        new MetricsOverheadBench.Paired(1200, 1230, 25, 472, 472, 0, 20),
        new PrintWriter(out, true));
    assertTrue(
        out.toString().contains("measured (paired rounds): +25 ns, +0.00 B -> met"),
        out.toString());
  }

  @Test
  void metricsOverheadNamesAMissingResult() {
    IOException e =
        assertThrows(
            IOException.class,
            () -> MetricsOverheadBench.print(Map.of(), 2, new PrintWriter(new StringWriter())));
    assertTrue(e.getMessage().contains("JMH results lack run[metrics=none]"), e.getMessage());
  }

  @Test
  void noResultsIsAnErrorNamingTheFile() throws IOException {
    Path json = Files.writeString(tmp.resolve("empty.json"), "[]");
    IOException e = assertThrows(IOException.class, () -> JmhLauncher.read(json));
    assertTrue(e.getMessage().startsWith(json + ": JMH wrote no results"), e.getMessage());
  }

  @Test
  void aMissingJarIsNamed() {
    Path jar = tmp.resolve("benchmarks.jar");
    IOException e =
        assertThrows(IOException.class, () -> new JmhLauncher(jar, "java").run("Nothing", true));
    assertTrue(e.getMessage().startsWith(jar + ": no such file"), e.getMessage());
  }

  @Test
  void schedulerOverheadPrintsRatiosAgainstTheBaseline() throws IOException {
    Map<String, JmhLauncher.Score> s = new LinkedHashMap<>();
    s.put("tpeRoundTrip", score(1000));
    s.put("schedulerRoundTrip", score(1050));
    s.put("tpeBatch", score(200));
    s.put("schedulerBatch", score(300));
    // Spin off: released +1000 ns at 32 units, +10000 ns at 512.
    s.put("inline[spinMicros=0][units=32]", score(3200));
    s.put("released[spinMicros=0][units=32]", score(4200));
    s.put("inline[spinMicros=0][units=512]", score(51200));
    s.put("released[spinMicros=0][units=512]", score(61200));
    s.put("joined[spinMicros=0][units=32]", score(43200));
    s.put("joined[spinMicros=0][units=512]", score(91200));
    // Spin on, the parameters in the other order: joined a fixed +2000 ns, released +12000 ns.
    s.put("inline[units=32][spinMicros=default]", score(3000));
    s.put("released[units=32][spinMicros=default]", score(15000));
    s.put("inline[units=512][spinMicros=default]", score(50000));
    s.put("released[units=512][spinMicros=default]", score(62000));
    s.put("joined[units=32][spinMicros=default]", score(5000));
    s.put("joined[units=512][spinMicros=default]", score(52000));
    s.put("withoutBreakdown", score(30));
    s.put("withBreakdown", score(75));
    s.put("noReport", score(1));
    s.put("claim", score(31));
    s.put("claimAndRead", score(121));
    StringWriter out = new StringWriter();
    SchedulerOverheadBench.print(s, 2, new PrintWriter(out, true));
    String report = out.toString();
    assertTrue(report.contains("measured (round trip): 1.050x, +50 ns -> met"), report);
    assertTrue(report.contains("1.500x"), report); // the batches' ratio
    // (10000 - 1000) ns more over 480 more units: +19 ns per unit, 1000 - 19 * 32 fixed.
    assertTrue(report.contains("+400 ns, +19 ns/unit"), report);
    assertTrue(report.contains("+40000 ns, +0 ns/unit"), report);
    assertTrue(report.contains("+12000 ns, +0 ns/unit"), report);
    assertTrue(report.contains("+2000 ns, +0 ns/unit"), report);
    assertTrue(
        report.contains("measured: released +12000 ns -> NOT met; joined +2000 ns -> met"), report);
    assertTrue(report.contains("measured: +45 ns -> met"), report); // the breakdown's cost
    assertTrue(
        report.contains("31 ns reporting it, 121 ns reporting it and reading the projection, 1 ns"),
        report);
    assertTrue(
        report.contains("measured: +30 ns a claim -> met; +120 ns with a policy's read -> NOT met"),
        report);
  }

  @Test
  void schedulerOverheadPrintsTheProcessorTimeSpinningCosts() {
    SchedulerOverheadBench.CpuUse c =
        new SchedulerOverheadBench.CpuUse(
            new SchedulerOverheadBench.CpuShare(1.0, 1.5),
            new SchedulerOverheadBench.CpuShare(1.2, 2.0),
            new SchedulerOverheadBench.CpuShare(3.0, 6.0),
            new SchedulerOverheadBench.CpuShare(5.5, 9.0));
    StringWriter out = new StringWriter();
    SchedulerOverheadBench.printCpu(c, new PrintWriter(out, true));
    String report = out.toString();
    assertTrue(
        report.contains("measured (scheduler threads): +0.20% of a core -> met; process: +0.50%"),
        report);
    assertTrue(report.contains("+2.50% of a core (scheduler threads), +3.00% (process)"), report);
    SchedulerOverheadBench.CpuShare same = new SchedulerOverheadBench.CpuShare(4 / 3.0, 4 / 3.0);
    StringWriter equal = new StringWriter();
    SchedulerOverheadBench.printCpu(
        new SchedulerOverheadBench.CpuUse(
            same, new SchedulerOverheadBench.CpuShare(1 + 1 / 3.0 - 1e-15, 4 / 3.0), same, same),
        new PrintWriter(equal, true));
    assertTrue(
        equal.toString().contains("+0.00% of a core -> met; process: +0.00%"), equal.toString());
  }

  @Test
  void schedulerOverheadNamesAMissingResult() {
    IOException e =
        assertThrows(
            IOException.class,
            () -> SchedulerOverheadBench.print(Map.of(), 2, new PrintWriter(new StringWriter())));
    assertTrue(e.getMessage().contains("JMH results lack tpeRoundTrip"), e.getMessage());
  }

  private static JmhLauncher.Score score(double nanos) {
    return new JmhLauncher.Score(nanos, 1, "ns/op");
  }
}
