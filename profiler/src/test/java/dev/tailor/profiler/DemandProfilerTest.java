package dev.tailor.profiler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.lucene.TestIndex;
import dev.tailor.lucene.TestQueries;
import dev.tailor.lucene.Windowing;
import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemandProfilerTest {

  private static TestIndex index;
  private static List<DemandProfiler.ProfiledQuery> queries;
  private static final DemandProfile.Environment ENV =
      new DemandProfile.Environment(
          "test-index", "synthetic test", 6_000, "generated", 2, "21", "x", "now");

  @BeforeAll
  static void build() throws Exception {
    index = TestIndex.build(6_000, 5);
    queries = new ArrayList<>();
    int n = 0;
    for (TestQueries.Named q : TestQueries.generate(index, 1, 3)) {
      queries.add(new DemandProfiler.ProfiledQuery("q" + n++, q.category(), q.text(), q.query()));
    }
  }

  @AfterAll
  static void close() throws IOException {
    index.close();
  }

  private static DemandProfiler profiler() {
    return new DemandProfiler(index.reader, options(3, 0));
  }

  private static DemandProfiler.Options options(int rounds, long minSampleNanos) {
    return new DemandProfiler.Options(
        0,
        rounds,
        minSampleNanos,
        0.10,
        2,
        8,
        8,
        1,
        DemandProfile.Settings.DEFAULT_TOTAL_HITS_THRESHOLD);
  }

  @Test
  void profilesEveryQueryWithMeasuredAndDerivedSpeedupsAndFeatures(@TempDir Path dir)
      throws IOException {
    Path out = dir.resolve("profile.json");
    List<long[]> steps = new ArrayList<>();
    DemandProfile profile =
        profiler().profile(queries, ENV, out, (done, total) -> steps.add(new long[] {done, total}));
    assertTrue(profile.complete());
    assertEquals(queries.size(), profile.requests().size());
    long[] last = steps.get(steps.size() - 1);
    assertEquals(last[1], last[0], "progress ends at its total");
    for (int i = 1; i < steps.size(); i++) {
      assertTrue(steps.get(i)[0] >= steps.get(i - 1)[0], "progress never goes back");
      assertTrue(steps.get(i)[0] <= steps.get(i)[1], "done never passes the total");
    }
    int slices = Windowing.windowsPerQuery(8).slice(index.reader.leaves()).length;
    for (DemandProfile.Request r : profile.requests()) {
      assertTrue(r.sequentialNanos() > 0);
      assertEquals(slices, r.unitNanos().length, "one time per unit");
      assertEquals(2, r.measuredSpeedup().length);
      assertEquals(1.0, r.measuredSpeedup()[0]);
      assertEquals(6, r.derivedSpeedup().length, "degrees 3..8 derived");
      assertTrue(r.speedupCurve().maxDegree() == 8);
      assertTrue(r.features().clauses() >= 1, r.query());
      assertTrue(r.spread().samples() >= 3, "every round gave a sample");
      assertEquals(2, r.spread().byDegree().length);
      assertTrue(r.spread().sequential() >= 0);
    }
    DemandProfile.Conditions c = profile.conditions();
    assertTrue(c.warmupRounds() >= 1);
    assertEquals(3, c.timedRoundNanos().length, "three timed rounds over the whole trace");
    assertTrue(c.remeasuredRequests() >= 0 && c.remeasuredRequests() <= queries.size());
    assertEquals(DemandProfile.Settings.INTERLEAVED_ROUNDS, profile.settings().method());
    DemandProfile.Request term = profile.requests().get(0);
    assertEquals("HighTerm", term.category());
    assertEquals(1, term.features().termDocFreqs().length);
    assertTrue(term.features().totalPostings() > 0);
    DemandProfile back = DemandProfile.read(out);
    assertEquals(profile.requests().size(), back.requests().size());
    assertArrayEquals(term.unitNanos(), back.requests().get(0).unitNanos());
    assertEquals(term.spread().samples(), back.requests().get(0).spread().samples());
  }

  @Test
  void writesEverySampleWhenAsked(@TempDir Path dir) throws IOException {
    Path raw = dir.resolve("samples.jsonl");
    DemandProfile profile =
        new DemandProfiler(index.reader, options(2, 200_000))
            .rawSamplesTo(raw)
            .profile(queries.subList(0, 4), ENV, dir.resolve("p.json"), (d, t) -> {});
    List<String> lines = Files.readAllLines(raw);
    assertEquals(4 * 2, lines.size(), "one line per query and degree");
    assertTrue(lines.get(0).startsWith("{\"id\":\"q0\",\"degree\":1,\"batch\":"), lines.get(0));
    for (DemandProfile.Request r : profile.requests()) {
      assertTrue(r.spread().samples() >= 2);
    }
  }

  @Test
  void aRerunResumesAfterTheQueriesAlreadyProfiled(@TempDir Path dir) throws IOException {
    Path out = dir.resolve("profile.json");
    DemandProfile first = profiler().profile(queries.subList(0, 5), ENV, out, (d, t) -> {});
    DemandProfile all = profiler().profile(queries, ENV, out, (d, t) -> {});
    assertEquals(queries.size(), all.requests().size());
    for (int i = 0; i < 5; i++) {
      assertEquals(
          first.requests().get(i).sequentialNanos(),
          all.requests().get(i).sequentialNanos(),
          "kept, not measured again");
    }
  }

  @Test
  void aCompleteProfileIsLeftAsItIsSoThatItsDigestHolds(@TempDir Path dir) throws IOException {
    Path out = dir.resolve("profile.json");
    profiler().profile(queries.subList(0, 3), ENV, out, (d, t) -> {});
    byte[] before = Files.readAllBytes(out);
    DemandProfile again = profiler().profile(queries.subList(0, 3), ENV, out, (d, t) -> {});
    assertArrayEquals(before, Files.readAllBytes(out));
    assertEquals(3, again.requests().size());
    assertTrue(again.complete());
  }

  @Test
  void aProfileOfAnotherTraceOrOtherSettingsIsNotResumed(@TempDir Path dir) throws IOException {
    Path out = dir.resolve("profile.json");
    profiler().profile(queries.subList(0, 2), ENV, out, (d, t) -> {});
    IOException e =
        assertThrows(
            IOException.class,
            () -> profiler().profile(queries.subList(1, 4), ENV, out, (d, t) -> {}));
    assertTrue(e.getMessage().contains("another trace"), e.getMessage());
    DemandProfiler other =
        new DemandProfiler(
            index.reader,
            new DemandProfiler.Options(
                0, 1, 0, 0.1, 2, 4, 8, 1, DemandProfile.Settings.DEFAULT_TOTAL_HITS_THRESHOLD));
    e = assertThrows(IOException.class, () -> other.profile(queries, ENV, out, (d, t) -> {}));
    assertTrue(e.getMessage().contains("taken with"), e.getMessage());
  }

  @Test
  void derivedSpeedupsFollowTheUnitsAndFlattenWhenUnitsRunOut() {
    DemandProfiler p = profiler();
    // 100 ns serial + 8 units of 100 ns; measured at 2 threads as 100 + 400 exactly: no overhead.
    double[] derived =
        p.derive(900, new long[] {100, 100, 100, 100, 100, 100, 100, 100}, new long[] {900, 500});
    assertEquals(6, derived.length);
    assertEquals(900.0 / (100 + 300), derived[0], 1e-9, "degree 3: ceil(8/3) = 3 rounds");
    assertEquals(900.0 / (100 + 200), derived[1], 1e-9, "degree 4");
    assertEquals(900.0 / (100 + 100), derived[5], 1e-9, "degree 8: one round");
    assertFalse(derived[5] > 4.5, "never beyond what the units allow");
  }
}
