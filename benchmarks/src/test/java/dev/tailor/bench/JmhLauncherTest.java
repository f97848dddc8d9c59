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
    s.put("inline[units=32]", score(3200));
    s.put("released[units=32]", score(4200));
    s.put("inline[units=512]", score(51200));
    s.put("released[units=512]", score(61200));
    StringWriter out = new StringWriter();
    SchedulerOverheadBench.print(s, 2, new PrintWriter(out, true));
    String report = out.toString();
    assertTrue(report.contains("measured (round trip): 1.050x, +50 ns -> met"), report);
    assertTrue(report.contains("1.500x"), report); // the batches' ratio
    // (10000 - 1000) ns more over 480 more units.
    assertTrue(report.contains("slope from N = 32 to 512): +19 ns"), report);
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
