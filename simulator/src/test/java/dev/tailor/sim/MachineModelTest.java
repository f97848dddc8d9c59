package dev.tailor.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.Provenance;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachineModelTest {

  private static final long MS = 1_000_000;

  @TempDir Path dir;

  private static DemandProfile profile(int cores, String jvm) {
    return CalibrationTest.profile("idx", cores, "2026-01-01T00:00:00Z", jvm);
  }

  private static long[] constant(long nanos) {
    return CalibrationTest.constant(nanos);
  }

  private static long[] ramp(long from, long step) {
    return CalibrationTest.ramp(from, step);
  }

  /** Measured on a 2-core machine with Java 25.0.3, of {@code model}. */
  private static Calibration measured(MachineModel model) {
    return Calibration.measured(
        new Provenance.Machine("vm", 2, "AMD EPYC", "amd64", "25.0.3"),
        profile(2, "25.0.3+9-LTS"),
        "a replay",
        1.31,
        ramp(1000, 10),
        ramp(500, 3),
        ramp(0, 1),
        model);
  }

  /**
   * A model of {@code stallsPerSecond} stalls of exactly {@code stallNanos}, {@code gcPerRequest}
   * GC pauses of exactly {@code gcNanos} a request, and the co-run factors given.
   */
  private static MachineModel model(
      double stallsPerSecond, long stallNanos, double gcPerRequest, long gcNanos, double... coRun) {
    long window = 1_000 * 1_000 * MS; // 1,000 s
    return new MachineModel(
        new MachineModel.Stalls(
            window, Math.round(stallsPerSecond * 1_000), 0, constant(stallNanos)),
        new MachineModel.GcPauses(
            1_000_000, Math.round(gcPerRequest * 1_000_000), constant(gcNanos)),
        coRun,
        new long[coRun.length]);
  }

  /** The machine part alone, measured on as many cores as the model has, with no other cost. */
  static Calibration machineOnly(MachineModel model) {
    return machineOnly(model, 0);
  }

  /** The machine part alone, as {@link #machineOnly(MachineModel)}, waking in {@code wakeNanos}. */
  static Calibration machineOnly(MachineModel model, long wakeNanos) {
    return new Calibration(
        Calibration.FORMAT,
        Calibration.VERSION,
        "2026-01-01T00:00:00Z",
        new Calibration.Machine("host", model.cores(), "CPU", "amd64", "25.0.3", "Linux amd64"),
        null,
        "test",
        1,
        constant(wakeNanos),
        constant(0),
        constant(0),
        model,
        null,
        null,
        false);
  }

  /** {@code n} arrivals {@code gap} apart from 0, every one request 0. */
  private static PointResult run(
      Calibration c, int workers, long gap, int n, long seed, Simulator.WorkModel model) {
    long[] arrivals = new long[n];
    for (int i = 0; i < n; i++) {
      arrivals[i] = i * gap;
    }
    Simulator.Config config =
        new Simulator.Config(workers, 5 * MS, 80 * MS, 0, 100_000, List.of(), model, c);
    try (Policy seq = PolicyRegistry.of("seq")) {
      return new Simulator(profile(workers, "25.0.3+9-LTS"), seq, config)
          .run(arrivals, new int[n], new Simulator.Labels(1e9 / gap, "given", seed, "test"));
    }
  }

  private static double ms(PointResult p, String percentile) {
    return p.latency().get(percentile) / MS;
  }

  /**
   * Stalls of exactly 20 ms, 2 a second, on requests of 10 ms that never queue (one every 100 ms):
   * 2% of the requests have a stall begin while they run and take 20 ms longer, 4% arrive during
   * one and wait out its rest. The P99 falls among the first, 20 ms up; the median does not move.
   */
  @Test
  void stallsOfAKnownLengthAndRateRaiseTheP99ByTheirLengthAndLeaveTheMedian() {
    long stall = 20 * MS;
    Calibration stalls = machineOnly(model(2, stall, 0, 0, 1.0));
    for (Simulator.WorkModel m : Simulator.WorkModel.values()) {
      PointResult none = run(null, 1, 100 * MS, 20_000, 1, m);
      PointResult stalled = run(stalls, 1, 100 * MS, 20_000, 1, m);
      assertEquals(10.0, ms(none, "p99"), 0.05, m.name());
      assertEquals(ms(none, "p50"), ms(stalled, "p50"), 0.05, m.name() + ": the median stays");
      double raised = ms(stalled, "p99") - ms(none, "p99");
      assertTrue(raised >= 0.9 * 20 && raised <= 1.02 * 20, m.name() + ": P99 up by " + raised);
    }
  }

  @Test
  void theDrawsAreSeededAndRepeat() {
    Calibration stalls = machineOnly(model(5, 5 * MS, 0.1, 2 * MS, 1.0));
    Simulator.WorkModel fluid = Simulator.WorkModel.FLUID;
    PointResult a = run(stalls, 1, 20 * MS, 5_000, 7, fluid);
    assertEquals(a.latencyHistogram(), run(stalls, 1, 20 * MS, 5_000, 7, fluid).latencyHistogram());
    assertNotEquals(
        a.latencyHistogram(), run(stalls, 1, 20 * MS, 5_000, 8, fluid).latencyHistogram());
  }

  /**
   * A GC pause of 5 ms after every request of 10 ms, the requests in pairs 12 ms apart: the second
   * of each pair waits 3 ms for the pause its predecessor left.
   */
  @Test
  void gcPausesComeAtTheirRatePerRequest() {
    Calibration gc = machineOnly(model(0, 0, 1.0, 5 * MS, 1.0));
    long[] arrivals = new long[200];
    for (int i = 0; i < arrivals.length; i++) {
      arrivals[i] = (i / 2) * 100 * MS + (i % 2) * 12 * MS;
    }
    for (Simulator.WorkModel m : Simulator.WorkModel.values()) {
      Simulator.Config config =
          new Simulator.Config(1, 5 * MS, 80 * MS, 0, 1_000, List.of(), m, gc);
      try (Policy seq = PolicyRegistry.of("seq")) {
        PointResult p =
            new Simulator(profile(1, "25.0.3+9-LTS"), seq, config)
                .run(arrivals, new int[200], new Simulator.Labels(20, "given", 1, "test"));
        org.HdrHistogram.Histogram h = p.decodeLatency();
        assertEquals(10.0, h.getMinValue() / (double) MS, 0.05, m.name());
        assertEquals(13.0, h.getMaxValue() / (double) MS, 0.05, m.name());
        assertEquals(100, h.getCountBetweenValues(12 * MS, 14 * MS), m.name());
      }
    }
  }

  /** Two requests at once on two cores each run 1.5 times as long; one alone, its own time. */
  @Test
  void requestsRunningTogetherGoAtTheCoRunPace() {
    Calibration coRun = machineOnly(model(0, 0, 0, 0, 1.0, 1.5));
    for (Simulator.WorkModel m : Simulator.WorkModel.values()) {
      long[] arrivals = {0, 0, 100 * MS, 200 * MS};
      Simulator.Config config =
          new Simulator.Config(2, 5 * MS, 80 * MS, 0, 1_000, List.of(), m, coRun);
      try (Policy seq = PolicyRegistry.of("seq")) {
        PointResult p =
            new Simulator(profile(2, "25.0.3+9-LTS"), seq, config)
                .run(arrivals, new int[4], new Simulator.Labels(10, "given", 1, "test"));
        assertEquals(10.0, p.decodeLatency().getMinValue() / (double) MS, 0.05, m.name());
        assertEquals(15.0, p.decodeLatency().getMaxValue() / (double) MS, 0.05, m.name());
      }
    }
  }

  /**
   * Requests of 10 ms, two arriving at once on one core: the first finds the thread idle and runs
   * its own time, the second queues and runs at the warm-start factor, 0.5: 5 ms after 10 ms of
   * waiting. A request alone later is not warm. Scaled to fewer cores the factor stays; to more, a
   * factor below 1 is carried as 1.
   */
  @Test
  void aRequestThatQueuedRunsAtTheWarmStartFactorAndOneThatDidNotAtItsOwnTime() {
    MachineModel m = model(0, 0, 0, 0, 1.0);
    MachineModel warm =
        new MachineModel(m.stalls(), m.gcPauses(), new double[] {1.0}, new long[1], 0.5);
    for (Simulator.WorkModel w : Simulator.WorkModel.values()) {
      long[] arrivals = {0, 0, 100 * MS};
      Simulator.Config config =
          new Simulator.Config(1, 5 * MS, 80 * MS, 0, 1_000, List.of(), w, machineOnly(warm));
      try (Policy seq = PolicyRegistry.of("seq")) {
        PointResult p =
            new Simulator(profile(1, "25.0.3+9-LTS"), seq, config)
                .run(arrivals, new int[3], new Simulator.Labels(10, "given", 1, "test"));
        assertEquals(10.0, p.decodeLatency().getMinValue() / (double) MS, 0.05, w.name());
        assertEquals(15.0, p.decodeLatency().getMaxValue() / (double) MS, 0.05, w.name());
      }
    }
    assertEquals(0.5, warm.startFactor(true));
    assertEquals(1.0, warm.startFactor(false));
    MachineModel twoWarm =
        new MachineModel(m.stalls(), m.gcPauses(), new double[] {1.0, 1.0}, new long[2], 0.8);
    assertEquals(0.8, twoWarm.scaledTo(1).warmStart(), 1e-9, "fewer cores: kept");
    assertEquals(1.0, twoWarm.scaledTo(16).warmStart(), "more cores: a speed-up carried as 1");
    assertEquals(0.5, warm.forShare(0.1).warmStart());
    assertEquals(1.0, m.warmStart(), "not measured: 1");
    assertThrows(
        IllegalArgumentException.class,
        () -> new MachineModel(m.stalls(), m.gcPauses(), new double[] {1.0}, new long[1], 0));
  }

  /**
   * Requests of 10 ms, two arriving at once on one core, a wake-up of 2 ms: the first waits for its
   * thread to wake, 12 ms; the second queues and is taken by that thread as the first ends, without
   * parking (the runtime's hand-over): 22 ms, not 24.
   */
  @Test
  void aRequestThatQueuedIsTakenWithoutAWakeUpByTheThreadItsPredecessorFreed() {
    Calibration waking = machineOnly(model(0, 0, 0, 0, 1.0), 2 * MS);
    for (Simulator.WorkModel w : Simulator.WorkModel.values()) {
      Simulator.Config config =
          new Simulator.Config(1, 5 * MS, 80 * MS, 0, 1_000, List.of(), w, waking);
      try (Policy seq = PolicyRegistry.of("seq")) {
        PointResult p =
            new Simulator(profile(1, "25.0.3+9-LTS"), seq, config)
                .run(new long[] {0, 0}, new int[2], new Simulator.Labels(10, "given", 1, "test"));
        assertEquals(12.0, p.decodeLatency().getMinValue() / (double) MS, 0.05, w.name());
        assertEquals(22.0, p.decodeLatency().getMaxValue() / (double) MS, 0.05, w.name());
      }
    }
  }

  @Test
  void anotherCoreCountIsRefusedNamingTheFieldUnlessScalingIsAskedFor() {
    Calibration two = machineOnly(model(1, MS, 0, 0, 1.0, 1.3));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> run(two, 4, 100 * MS, 10, 1, Simulator.WorkModel.FLUID));
    assertTrue(e.getMessage().contains("machine.cores"), e.getMessage());
    assertTrue(e.getMessage().contains("--scale-calibration"), e.getMessage());
    PointResult scaled = run(two.withScaling(true), 4, 100 * MS, 10, 1, Simulator.WorkModel.FLUID);
    assertEquals(10, scaled.completed());
  }

  /** At the same share of the cores busy: 16 busy of 16 as 2 of 2, 1 as 1, between linearly. */
  @Test
  void scalingKeepsStallsAndPausesAndMapsTheCoRunByTheShareOfCoresBusy() {
    MachineModel two = model(3, 2 * MS, 0.01, 4 * MS, 1.0, 1.3);
    MachineModel sixteen = two.scaledTo(16);
    assertEquals(16, sixteen.cores());
    assertEquals(1.0, sixteen.coRunAt(1));
    assertEquals(1.3, sixteen.coRunAt(16), 1e-9);
    assertEquals(1.0 + 0.3 * 7 / 15, sixteen.coRunAt(8), 1e-9);
    assertEquals(two.stalls(), sixteen.stalls());
    assertEquals(two.gcPauses(), sixteen.gcPauses());
    assertEquals(1, two.scaledTo(1).cores());
    MachineModel four = model(0, 0, 0, 0, 1.0, 1.1, 1.2, 1.6);
    assertEquals(1.6, four.scaledTo(2).coRunAt(2), 1e-9);
    assertEquals(1.1, four.scaledTo(7).coRunAt(3), 1e-9);
    assertEquals(1.15, four.scaledTo(7).coRunAt(4), 1e-9);
    MachineModel faster = model(0, 0, 0, 0, 1.0, 0.89);
    assertEquals(0.89, faster.coRunAt(2), 1e-9, "on its own machine, as measured");
    assertEquals(1.0, faster.scaledTo(16).coRunAt(16), 1e-9, "carried elsewhere, no faster than 1");
  }

  @Test
  void aShareOfARequestsWorkMakesItsShareOfTheGcPauses() {
    MachineModel m = model(3, 2 * MS, 0.01, 4 * MS, 1.0, 1.3);
    MachineModel tenth = m.forShare(0.1);
    assertEquals(0.001, tenth.gcPauses().perRequest(), 1e-9);
    assertEquals(m.gcPauses().durationsNanos()[50], tenth.gcPauses().durationsNanos()[50]);
    assertEquals(m.stalls(), tenth.stalls());
    assertEquals(1.3, tenth.coRunAt(2), 1e-9);
    assertThrows(IllegalArgumentException.class, () -> m.forShare(0));
  }

  @Test
  void theModelRoundTripsThroughTheFile() throws IOException {
    MachineModel model =
        new MachineModel(
            new MachineModel.Stalls(5_000 * MS, 812, 90_000, ramp(1_000, 2_000)),
            new MachineModel.GcPauses(20_000, 7, ramp(0, 50_000)),
            new double[] {1.0, 1.27},
            new long[] {1_204, 388},
            0.83);
    Calibration c = measured(model);
    Path file = dir.resolve("c.json");
    c.write(file);
    Calibration back = Calibration.read(file);
    assertEquals(c, back);
    assertEquals(model, back.model());
    assertEquals(812 / 5.0, back.model().stalls().perSecond(), 1e-9);
    assertTrue(
        back.toString().contains("co-run by busy threads 1: x1.00, 2: x1.27, warm start x0.83"),
        back.toString());

    // A calibration written before the factor was measured reads as without it; a bad one is
    // refused naming its field.
    String text = Files.readString(file);
    Files.writeString(file, text.replaceFirst(",\\s*\"warmStart\"\\s*:\\s*0.83", ""));
    assertEquals(1.0, Calibration.read(file).model().warmStart());
    Files.writeString(file, text.replaceFirst("\"warmStart\"\\s*:\\s*0.83", "\"warmStart\" : -2"));
    IOException bad = assertThrows(IOException.class, () -> Calibration.read(file));
    assertTrue(bad.getMessage().contains("model.warmStart"), bad.getMessage());
  }

  @Test
  void aVersionOneFileStillReadsWithoutAModel() throws IOException {
    Path file = dir.resolve("c.json");
    Calibration.of(profile(2, "j"), "old", 1.4, ramp(0, 1), ramp(0, 1), ramp(0, 1)).write(file);
    Files.writeString(
        file,
        Files.readString(file)
            .replaceFirst("\"version\"\\s*:\\s*3", "\"version\" : 1")
            .replaceFirst(",\\s*\"model\" : null", "")
            .replaceFirst(",\\s*\"runTimes\" : null", ""));
    Calibration v1 = Calibration.read(file);
    assertEquals(1, v1.version());
    assertNull(v1.model());
    assertEquals(1.4, v1.runScale());
    assertNull(v1.modelFor(16), "no model: nothing to refuse or scale");
  }

  @Test
  void aProfileOfAnotherJavaIsRefusedAndAGeneratedOneTakesTheMachinePartAlone() throws IOException {
    Path file = dir.resolve("c.json");
    Calibration c = measured(model(1, MS, 0, 0, 1.0, 1.2));
    assertNull(c.check(file, profile(2, "25.0.3+9-LTS")));
    IOException java =
        assertThrows(IOException.class, () -> c.check(file, profile(2, "21.0.5+11")));
    assertTrue(java.getMessage().contains("machine.java"), java.getMessage());
    DemandProfile generated =
        DemandProfile.of(
            new DemandProfile.Environment(null, "generated", 1, null, 2, "j", "Linux amd64", null),
            new DemandProfile.Settings(1, 1, 1, 2),
            true,
            profile(2, "j").requests());
    Calibration alone = c.forProfile(generated);
    assertNull(alone.workload());
    assertEquals(1.0, alone.runScale());
    assertEquals(c.model(), alone.model());
    assertTrue(c.check(file, generated).contains("machine part"));
  }
}
