package dev.tailor.tables;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFile;
import dev.tailor.core.policy.TpcPolicy;
import dev.tailor.core.table.TargetTable;
import dev.tailor.core.table.ThresholdTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.model.ParametricProfile;
import dev.tailor.sim.model.SyntheticPredictions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgressTableTunerTest {

  private static final long MS = 1_000_000L;
  private static final TpcTableBuilder.Sources SOURCES =
      new TpcTableBuilder.Sources("p.json", "sha256:" + "0".repeat(64), null, null);

  private final DemandProfile profile =
      SyntheticPredictions.attach(ParametricProfile.generate(300, 4, 7), 0.5, 1);

  private static ProgressTableTuner.Plan plan(
      List<String> loadMetrics, List<String> serializeTargets, long seed) {
    TpcTableBuilder.Options targets =
        TpcTableBuilder.Options.builder()
            .cores(8)
            .maxDegree(4)
            .ratesRps(List.of(10.0, 20.0))
            .loads(3)
            .requests(300)
            .seed(seed)
            .model(Simulator.WorkModel.FLUID)
            .quantumNanos(5 * MS)
            .maxIterations(10)
            .stepDoublings(2)
            .variant(TpcPolicy.Variant.TPC)
            .loadMetric(TargetTable.LoadMetric.LONG_THREADS)
            .build();
    return new ProgressTableTuner.Plan(
        targets,
        loadMetrics,
        serializeTargets,
        List.of("seq", "fixed:2"),
        Simulator.Config.of(8, 300),
        300,
        seed);
  }

  private static ProgressTableTuner.Tuned tune(ProgressTableTuner.Plan plan, DemandProfile p) {
    return new ProgressTableTuner(plan).tune(p, SOURCES, t -> {});
  }

  @Test
  void choosesTheBestTrialAndWritesItsTablesAndTheRecord(@TempDir Path tmp) throws IOException {
    List<ProgressTableTuner.Trial> heard = new ArrayList<>();
    ProgressTableTuner.Tuned t =
        new ProgressTableTuner(
                plan(List.of("long-threads", "all-threads"), List.of("none", "3x"), 3))
            .tune(profile, SOURCES, heard::add);
    ProgressTableTuner.Tuning tuning = t.tuning();
    assertEquals(4, tuning.trials().size());
    assertEquals(tuning.trials(), heard, "every trial is reported as it finishes");
    for (ProgressTableTuner.Trial trial : tuning.trials()) {
      assertFalse(trial.betterThan(tuning.chosen()), trial.describe());
      assertEquals(2, trial.ratios().length);
    }
    assertTrue(tuning.trials().contains(tuning.chosen()));
    ProgressTableTuner.Candidate chosen = tuning.chosen().candidate();
    assertEquals(chosen, tuning.check().candidate());
    assertEquals(3, tuning.seed());
    assertEquals(4, tuning.checkSeed());
    long threeTimes = tuning.trials().get(1).candidate().serializeTargetNanos();
    assertEquals(
        ProgressTableTuner.SerializeTarget.parse("3x").nanos(tuning.medianNanos()), threeTimes);
    assertEquals(chosen.loadMetric(), t.targets().inputs().loadMetric());
    assertEquals(300, t.targets().inputs().requests(), "the final tables are the whole profile's");
    assertEquals(chosen.serializes() ? 2 : 0, t.thresholds().size());
    for (ThresholdTable th : t.thresholds()) {
      assertEquals(chosen.serializeTargetNanos(), th.inputs().targetNanos());
      assertEquals(300, th.inputs().requests());
    }

    t.write(
        tmp.resolve("t.json"),
        rps -> tmp.resolve("th-" + (long) rps + ".json"),
        tmp.resolve("r.json"));
    assertEquals(
        chosen.loadMetric(), TargetTable.read(tmp.resolve("t.json")).inputs().loadMetric());
    assertEquals(chosen.serializes(), Files.exists(tmp.resolve("th-10.json")));
    assertEquals(chosen.serializes(), Files.exists(tmp.resolve("th-20.json")));
    JsonNode record = JsonFile.readTree(tmp.resolve("r.json"));
    assertEquals(4, record.path("trials").size());
    assertEquals(
        chosen.loadMetric().label(),
        record.path("chosen").path("candidate").path("loadMetric").asText());
    assertEquals(SOURCES.profileDigest(), record.path("profileDigest").asText());
    assertEquals(tuning.check().worst(), record.path("check").path("worst").asDouble());
  }

  @Test
  void isDeterministicForASeed() {
    ProgressTableTuner.Plan plan = plan(List.of("all-threads"), List.of("none", "5x"), 5);
    ProgressTableTuner.Tuned a = tune(plan, profile);
    ProgressTableTuner.Tuned b = tune(plan, profile);
    assertEquals(describe(a), describe(b));
    assertEquals(a.targets().rows(), b.targets().rows());
    assertEquals(
        a.thresholds().stream().map(ThresholdTable::rows).toList(),
        b.thresholds().stream().map(ThresholdTable::rows).toList());
  }

  private static List<String> describe(ProgressTableTuner.Tuned t) {
    return Stream.concat(t.tuning().trials().stream(), Stream.of(t.tuning().check()))
        .map(ProgressTableTuner.Trial::describe)
        .toList();
  }

  @Test
  void aChoiceOfNoneWritesNoThresholdTable(@TempDir Path tmp) throws IOException {
    ProgressTableTuner.Tuned t = tune(plan(List.of("long-threads"), List.of("none"), 1), profile);
    assertFalse(t.tuning().chosen().candidate().serializes());
    assertTrue(t.thresholds().isEmpty());
    t.write(
        tmp.resolve("t.json"), rps -> tmp.resolve("th-" + rps + ".json"), tmp.resolve("r.json"));
    try (Stream<Path> files = Files.list(tmp)) {
      assertEquals(
          List.of("r.json", "t.json"),
          files.map(f -> f.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void aMultipleOfTheMedianIsRoundedToTwoSignificantFigures() {
    assertEquals(560 * MS, ProgressTableTuner.SerializeTarget.parse("3x").nanos(186_300_000L));
    assertEquals(50 * MS, ProgressTableTuner.SerializeTarget.parse("50ms").nanos(186_300_000L));
    assertEquals(0, ProgressTableTuner.SerializeTarget.parse("none").nanos(186_300_000L));
  }

  @Test
  void aBadPlanIsRejectedNamingTheOption() {
    assertRejected("--load-metrics", List.of(), List.of("none"));
    assertRejected("--load-metrics", List.of("busy-threads"), List.of("none"));
    assertRejected("--serialize-targets", List.of("long-threads"), List.of());
    assertRejected("--serialize-targets", List.of("long-threads"), List.of("none", "0ms"));
    assertRejected("--serialize-targets", List.of("long-threads"), List.of("-3x"));
    assertRejected("--serialize-targets", List.of("long-threads"), List.of("soon"));
  }

  private static void assertRejected(String option, List<String> metrics, List<String> targets) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> plan(metrics, targets, 1));
    assertTrue(e.getMessage().startsWith(option + ":"), e.getMessage());
  }
}
