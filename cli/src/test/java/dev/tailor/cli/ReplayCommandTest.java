package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.corpora.index.IndexManifest;
import dev.tailor.load.fidelity.MeasuredReport;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.measure.PointResult;
import dev.tailor.server.SearchServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tailor replay} with repetitions, a degree cap, the tuned oracle and the plain Lucene
 * baselines, on a small index.
 */
class ReplayCommandTest {

  @TempDir Path tmp;

  private final Cli cli = new Cli();

  /** Indexes a small corpus and generates a trace for it, at {@code index} and {@code trace}. */
  private void indexAndTrace(Path index, Path trace) throws Exception {
    Path corpus = tmp.resolve("corpus.txt");
    StringBuilder lines = new StringBuilder();
    String[] words = {"river", "delta", "sea", "lake", "town", "valley", "flood", "salt"};
    for (int i = 0; i < 400; i++) {
      lines.append("Doc ").append(i).append("\t\t");
      for (int w = 0; w < 12; w++) {
        lines.append(words[(i * 5 + w * 3) % words.length]).append(' ');
      }
      lines.append('\n');
    }
    Files.writeString(corpus, lines);
    assertEquals(
        0,
        cli.run(
            "index", "--corpus", corpus.toString(), "--out", index.toString(), "--segments", "2"),
        cli.err());
    assertEquals(
        0,
        cli.run(
            "trace",
            "gen",
            "--index",
            index.toString(),
            "--seed",
            "1",
            "--per-category",
            "1",
            "--out",
            trace.toString()),
        cli.err());
  }

  @Test
  void aServerIsReplayedAgainstWithServerAndTheTargetIsALatencyTarget() throws Exception {
    Path index = tmp.resolve("index");
    Path trace = tmp.resolve("trace.tasks");
    Path report = tmp.resolve("report");
    indexAndTrace(index, trace);
    String[] input = {"replay", "--index", index.toString(), "--trace", trace.toString()};

    // --target named the server before --server did: a URL there says where it went.
    Cli url = new Cli();
    assertNotEquals(0, url.run(with(input, "--rps", "40", "--target", "http://127.0.0.1:8080")));
    assertTrue(url.err().contains("option '--target'"), url.err());
    assertTrue(url.err().contains(LatencyTarget.URL_GIVEN), url.err());
    Cli notADuration = new Cli();
    assertNotEquals(0, notADuration.run(with(input, "--rps", "40", "--target", "soon")));
    assertTrue(notADuration.err().contains("option '--target'"), notADuration.err());
    assertTrue(notADuration.err().contains("'soon' is not a duration"), notADuration.err());
    Cli capped = new Cli();
    assertNotEquals(
        0,
        capped.run(
            with(input, "--rps", "40", "--server", "http://127.0.0.1:1", "--max-degree", "2")));
    assertTrue(capped.err().contains("a server (--server) runs its own"), capped.err());

    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(index));
        Scheduler scheduler =
            SchedulerInternals.policy(Scheduler.builder(), "fixed:2").workers(2).build();
        SearchServer server =
            new SearchServer(
                new TailorSearcher(reader, scheduler),
                IndexManifest.read(index).analyzer(),
                "body",
                SearchServer.Options.defaults())) {
      assertEquals(
          0,
          cli.run(
              with(
                  input,
                  "--server",
                  "http://127.0.0.1:" + server.address().getPort(),
                  "--rps",
                  "40",
                  "--duration",
                  "600ms",
                  "--warmup",
                  "100ms",
                  "--target",
                  "20ms",
                  "--out",
                  report.toString())),
          cli.err());
      assertTrue(
          SchedulerInternals.metrics(scheduler).latency().getTotalCount() > 0,
          "the server ran the replay");
    }
    try (var files = Files.list(report.resolve("points"))) {
      List<Path> json = files.filter(f -> f.toString().endsWith(".json")).toList();
      assertEquals(1, json.size(), json.toString());
      // --targets' default and --target: every point records the miss ratio at each.
      assertEquals(
          List.of("50ms", "100ms", "20ms"),
          List.copyOf(PointResult.read(json.get(0)).missRatio().keySet()));
    }
    assertTrue(
        Files.readString(report.resolve("summary.md")).contains("## Misses at the target (20ms)"));
    assertTrue(Files.exists(report.resolve("miss.png")));
    assertTrue(Files.exists(report.resolve("sustained.csv")));
    assertTrue(cli.out().contains("miss.png, sustained.csv"), cli.out());
  }

  private static String[] with(String[] first, String... more) {
    String[] out = Arrays.copyOf(first, first.length + more.length);
    System.arraycopy(more, 0, out, first.length, more.length);
    return out;
  }

  @Test
  void theOracleIsTunedOnTheProfileAndRunForRealRepeatedAndCapped() throws Exception {
    Path index = tmp.resolve("index");
    Path trace = tmp.resolve("trace.tasks");
    Path profile = tmp.resolve("profile.json");
    Path report = tmp.resolve("report");
    indexAndTrace(index, trace);
    // Without a profile the tuned oracle cannot be tuned.
    Cli refused = new Cli();
    assertNotEquals(
        0,
        refused.run(
            "replay",
            "--index",
            index.toString(),
            "--trace",
            trace.toString(),
            "--policies",
            "seq,oracle",
            "--rps",
            "40",
            "--out",
            report.toString()));
    assertTrue(refused.err().contains("the tuned oracle needs --profile"), refused.err());

    assertEquals(
        0,
        cli.run(
            "profile",
            "--index",
            index.toString(),
            "--trace",
            trace.toString(),
            "--warmup",
            "0s",
            "--rounds",
            "1",
            "--cores",
            "2",
            "--out",
            profile.toString()),
        cli.err());
    assertEquals(
        0,
        cli.run(
            "replay",
            "--index",
            index.toString(),
            "--trace",
            trace.toString(),
            "--profile",
            profile.toString(),
            "--policies",
            "fixed:2,oracle",
            "--workers",
            "2",
            "--max-degree",
            "1",
            "--repeat",
            "2",
            "--rps",
            "40",
            "--duration",
            "600ms",
            "--warmup",
            "100ms",
            "--out",
            report.toString()),
        cli.err());
    assertTrue(
        cli.err().contains("oracle at 40.0 rps, simulated (units): runs oracle:"), cli.err());
    assertTrue(cli.err().contains("(point 4 of 4, the last)"), cli.err());
    for (String name : List.of("oracle@40rps", "oracle@40rps-r2", "fixed_2@40rps-r2")) {
      PointResult p = PointResult.read(report.resolve("points").resolve(name + ".json"));
      assertEquals(name.startsWith("oracle") ? "oracle" : "fixed:2", p.policy());
      assertEquals(name.endsWith("-r2") ? 2 : 1, p.repetition());
      // Capped at one thread: no request of any policy ran on two.
      for (long[] counts : p.degreeDistribution().values()) {
        for (int d = 2; d < counts.length; d++) {
          assertEquals(0, counts[d], name + " at degree " + d);
        }
      }
    }
    String summary = Files.readString(report.resolve("summary.md"));
    assertTrue(
        summary.contains("Each point ran 2 times; every round runs every load in turn"), summary);
    assertTrue(summary.contains("Degree cap: at most 1 thread per request"), summary);
    assertTrue(summary.contains("## Headroom to the oracle"), summary);
  }

  @Test
  void thePlainLuceneBaselinesRunBesideAPolicyUncappedAndTheirSimulationNeedsTheSegments()
      throws Exception {
    Path index = tmp.resolve("index");
    Path trace = tmp.resolve("trace.tasks");
    Path report = tmp.resolve("report");
    indexAndTrace(index, trace);
    assertEquals(
        0,
        cli.run(
            "replay",
            "--index",
            index.toString(),
            "--trace",
            trace.toString(),
            "--policies",
            "seq,lucene,lucene-executor:2,elasticsearch:2",
            "--workers",
            "2",
            "--max-degree",
            "1",
            "--rps",
            "40",
            "--duration",
            "400ms",
            "--warmup",
            "100ms",
            "--out",
            report.toString()),
        cli.err());
    assertTrue(cli.err().contains("(not the plain Lucene baselines')"), cli.err());
    List<PointResult> points = MeasuredReport.read(report).points();
    assertEquals(
        Set.of("seq", "lucene", "lucene-executor:2", "elasticsearch:2"),
        points.stream().map(PointResult::policy).collect(Collectors.toSet()));
    for (PointResult p : points) {
      assertEquals(p.sent(), p.completed(), p.policy());
      assertTrue(p.breakdown() != null, p.policy() + ": the server's timing is reported");
      // Only the scheduler knows degrees; the baselines have none to report.
      assertEquals(p.policy().equals("seq"), p.degreeDistribution() != null, p.policy());
    }

    Cli simulate = new Cli();
    assertNotEquals(
        0,
        simulate.run(
            "simulate",
            "--parametric",
            "100",
            "--requests",
            "100",
            "--rps",
            "5",
            "--policies",
            "seq,lucene-executor:2",
            "--out",
            tmp.resolve("simulated").toString()));
    assertTrue(
        simulate.err().contains("the plain-Lucene peer 'lucene-executor:2' slices the index's"),
        simulate.err());
  }

  @Test
  void severalWorkerCountsRunInOneSweepAndEachWritesAReportOfItsOwn() throws Exception {
    Path index = tmp.resolve("index");
    Path trace = tmp.resolve("trace.tasks");
    Path report = tmp.resolve("report");
    indexAndTrace(index, trace);
    String[] input = {
      "replay",
      "--index",
      index.toString(),
      "--trace",
      trace.toString(),
      "--policies",
      "seq,fixed:2",
      "--rps",
      "40",
      "--duration",
      "300ms",
      "--warmup",
      "100ms"
    };
    assertEquals(
        0, cli.run(with(input, "--workers", "1,2", "--out", report.toString())), cli.err());
    for (int count : new int[] {1, 2}) {
      Path dir = report.resolve("workers-" + count);
      assertTrue(Files.exists(dir.resolve("summary.md")), dir + ": a report of its own");
      List<PointResult> points = MeasuredReport.read(dir).points();
      assertEquals(
          Set.of("seq", "fixed:2"),
          points.stream().map(PointResult::policy).collect(Collectors.toSet()));
      String label = count == 1 ? ", 1 worker" : ", 2 workers";
      assertTrue(points.stream().allMatch(p -> p.environment().endsWith(label)), dir.toString());
    }

    Cli twice = new Cli();
    assertNotEquals(0, twice.run(with(input, "--workers", "2,2")));
    assertTrue(twice.err().contains("--workers: expected counts >= 1, each once"), twice.err());
    Cli server = new Cli();
    assertNotEquals(
        0, server.run(with(input, "--workers", "1,2", "--server", "http://127.0.0.1:1")));
    assertTrue(server.err().contains("runs in process"), server.err());
  }

  @Test
  void promptAdmissionIsOnUnlessTurnedOffAndABadValueIsNamed() {
    ReplayCommand on = new ReplayCommand();
    new picocli.CommandLine(on)
        .setCaseInsensitiveEnumValuesAllowed(true)
        .parseArgs("--index", "i", "--trace", "t", "--rps", "1");
    assertEquals(ReplayCommand.Switch.ON, on.promptAdmission);
    ReplayCommand off = new ReplayCommand();
    new picocli.CommandLine(off)
        .setCaseInsensitiveEnumValuesAllowed(true)
        .parseArgs("--index", "i", "--trace", "t", "--rps", "1", "--prompt-admission", "off");
    assertEquals(ReplayCommand.Switch.OFF, off.promptAdmission);
    assertNotEquals(
        0, cli.run("replay", "--index", "i", "--trace", "t", "--prompt-admission", "maybe"));
    assertTrue(cli.err().contains("--prompt-admission"), cli.err());
    assertTrue(cli.err().contains("'maybe'"), cli.err());
  }
}
