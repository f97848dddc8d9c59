package dev.tailor.load.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.load.Sweep;
import dev.tailor.load.Target;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.arrival.SweepPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

  private static final long MS = 1_000_000L;

  /** Answers each request after a delay that depends on the policy's name. */
  private static Target delayed(String policy, ScheduledExecutorService timer) {
    long micros = policy.equals("seq") ? 800 : 300;
    return new Target() {
      @Override
      public CompletableFuture<?> send(int query) {
        CompletableFuture<Object> f = new CompletableFuture<>();
        timer.schedule(() -> f.complete(query), micros, TimeUnit.MICROSECONDS);
        return f;
      }

      @Override
      public String policy() {
        return policy;
      }

      @Override
      public void close() {}
    };
  }

  @Test
  void aTinySweepWritesEveryFileOfTheReport(@TempDir Path dir) throws Exception {
    ScheduledExecutorService timer = Executors.newScheduledThreadPool(2);
    try {
      Sweep.Plan plan =
          new Sweep.Plan(
              List.of("seq", "fixed:2"),
              List.of(100.0, 200.0),
              SweepPlan.timed("poisson", 42, 400 * MS, 100 * MS),
              10_000,
              TimeUnit.SECONDS.toNanos(5),
              List.of(1 * MS, 5 * MS));
      List<PointResult> points =
          Sweep.run(
              plan,
              policy -> delayed(policy, timer),
              17,
              "measured on this machine (2 cores)",
              "test corpus",
              p -> {});
      assertEquals(4, points.size());
      String summary = Report.write(dir, points, Double.NaN, ReportedWorkload.unprofiled(17));

      for (PointResult p : points) {
        Path json = dir.resolve("points").resolve(Report.fileName(p) + ".json");
        PointResult back = PointResult.read(json);
        assertEquals(p.policy(), back.policy());
        assertEquals(p.latency(), back.latency());
        assertEquals(p.decodeLatency().getTotalCount(), back.decodeLatency().getTotalCount());
        String hgrm = Files.readString(dir.resolve("points").resolve(Report.fileName(p) + ".hgrm"));
        assertTrue(hgrm.contains("Value     Percentile TotalCount"), hgrm);
      }
      List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
      assertEquals(5, csv.size());
      assertTrue(csv.get(0).startsWith("policy,repetition,seed,offered_rps,achieved_rps"));
      assertEquals(5, Files.readAllLines(dir.resolve(Report.CELLS)).size());
      assertTrue(csv.get(0).contains("miss_1ms,miss_5ms"), csv.get(0));
      assertTrue(summary.contains("| load (rps) | seq | fixed:2 |"), summary);
      assertTrue(summary.contains("| 100 |"), summary);
      assertTrue(summary.contains("## One configuration across every load (regret)"), summary);
      assertEquals(summary, Files.readString(dir.resolve("summary.md")));
      byte[] png = {(byte) 0x89, 'P', 'N', 'G'};
      for (String plot : List.of("p99.png", "p999.png", "cdf.png")) {
        byte[] bytes = Files.readAllBytes(dir.resolve(plot));
        assertTrue(bytes.length > 1000, plot);
        assertArrayEquals(png, Arrays.copyOf(bytes, 4), plot + " is a PNG");
      }

      // A second report in the same directory replaces the first one's points and fidelity table.
      Files.writeString(dir.resolve(Report.FIDELITY), "from the first report");
      Report.write(dir, points.subList(0, 1), Double.NaN, ReportedWorkload.unprofiled(17));
      try (var files = Files.list(dir.resolve("points"))) {
        assertEquals(
            List.of(
                Report.fileName(points.get(0)) + ".hgrm", Report.fileName(points.get(0)) + ".json"),
            files.map(f -> f.getFileName().toString()).sorted().toList());
      }
      assertFalse(Files.exists(dir.resolve(Report.FIDELITY)));
      try (var files = Files.list(dir)) {
        assertTrue(
            files.noneMatch(f -> f.getFileName().toString().endsWith(".tmp")), "no leftovers");
      }
    } finally {
      timer.shutdownNow();
    }
  }

  @Test
  void aDurationNoLongerThanTheWarmUpIsAnError() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> SweepPlan.timed("poisson", 1, 10 * MS, 10 * MS));
    assertTrue(e.getMessage().contains("longer than the warm-up"), e.getMessage());
  }

  @Test
  void aDisplayNameShortensEveryTableFileToItsName() {
    assertEquals("fm:table.json", Report.displayName("fm:/long/path/table.json"));
    assertEquals(
        "progress:t.json+th-{rps}.json", Report.displayName("progress:/a/t.json+/b/th-{rps}.json"));
    assertEquals(
        "tpc:\"t@2.json\"@admit-first",
        Report.displayName("tpc:\"/runs/a+b/t@2.json\"@admit-first"));
    assertEquals("lucene-executor:4", Report.displayName("lucene-executor:4"));
    assertEquals("elasticsearch:4", Report.displayName("elasticsearch:4"));
    assertEquals("rampup:10ms,6", Report.displayName("rampup:10ms,6"));
  }
}
