package dev.tailor.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.CoRun;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.LatencyBreakdown;
import dev.tailor.measure.MachineNoise;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import dev.tailor.measure.Provenance;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class CalibrationFitTest {

  private static final long US = 1_000;
  private static final long MS = 1_000 * US;
  private static final Provenance VM =
      new Provenance("tailor test", "vm, 2 cores, AMD EPYC, amd64, Java 25.0.3");

  /** A profile of requests of 1, 2, ..., 100 ms. */
  private static DemandProfile profile() {
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (int i = 1; i <= 100; i++) {
      requests.add(
          new DemandProfile.Request(
              Integer.toString(i),
              null,
              "q",
              i * MS,
              new long[] {i * MS},
              new double[] {1.0},
              new double[] {1.0},
              new DemandProfile.Features("test", 1, new long[0], 0)));
    }
    return DemandProfile.of(
        new DemandProfile.Environment(
            "idx", "test", 1, "t", 2, "25.0.3+9-LTS", "Linux amd64", "2026-01-01T00:00:00Z"),
        new DemandProfile.Settings(1, 1, 1, 2),
        true,
        requests);
  }

  private static Histogram histogram(long... values) {
    Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
    for (long v : values) {
      h.recordValue(v);
    }
    return h;
  }

  /**
   * Ten seconds of a meter: 1,990 sleeps 0.1 ms late, ten 5.1 ms late (stalls of 5 ms beyond the
   * floor), and one GC pause of 3 ms, which takes one of the stalls out.
   */
  static MachineNoise noise() {
    Histogram oversleeps = new Histogram(3);
    oversleeps.recordValueWithCount(100 * US, 1_990);
    oversleeps.recordValueWithCount(5_100 * US, 10);
    return new MachineNoise(
        10_000 * MS,
        5 * MS,
        2_000,
        100 * US,
        100 * US,
        5_100 * US,
        5_100 * US,
        1,
        3 * MS,
        3 * MS,
        0,
        0,
        0.01,
        PointResult.encode(oversleeps),
        PointResult.encode(histogram(3 * MS)));
  }

  /**
   * {@code alone} requests that ran alone at {@code scale} times their profiled time, and {@code
   * pairs} pairs that ran together at {@code scale * together}.
   */
  static CoRun coRun(int alone, int pairs, double scale, double together) {
    List<CoRun.Span> spans = new ArrayList<>();
    long t = 0;
    for (int i = 0; i < alone; i++) {
      spans.add(new CoRun.Span(t, t + Math.round(10 * MS * scale), 1, 10 * MS));
      t += 100 * MS;
    }
    for (int i = 0; i < pairs; i++) {
      long run = Math.round(10 * MS * scale * together);
      spans.add(new CoRun.Span(t, t + run, 1, 10 * MS));
      spans.add(new CoRun.Span(t, t + run, 1, 10 * MS));
      t += 100 * MS;
    }
    boolean[] measured = new boolean[spans.size()];
    java.util.Arrays.fill(measured, true);
    return CoRun.measure(spans.toArray(CoRun.Span[]::new), measured);
  }

  /** A seq point of this report's machine. */
  private static PointResult seq(
      double rps, int repetition, boolean breakdown, MachineNoise noise, CoRun coRun) {
    Histogram run = histogram(10 * MS, 20 * MS);
    Histogram wake = histogram(50 * US, 60 * US, 70 * US);
    Histogram small = histogram(10 * US, 20 * US);
    return new PointResultBuilder("seq", run)
        .labels(rps, "poisson", 1, "measured on this machine (2 cores)", "test")
        .repetition(repetition)
        .outcome(10_000 * MS, 1_000, 1_000, 0, false)
        .breakdown(breakdown ? LatencyBreakdown.of(small, small, wake, run, small) : null)
        .noise(noise)
        .coRun(coRun)
        .provenance(VM)
        .build();
  }

  /** Two light runs (alone) and one busy run (pairs), every one with its noise. */
  private static CalibrationFit.Runs report() {
    return new CalibrationFit.Runs(
        Path.of("r"),
        List.of(
            seq(10, 1, true, noise(), coRun(150, 0, 1.5, 1)),
            seq(10, 2, true, noise(), coRun(150, 0, 1.5, 1)),
            seq(80, 1, true, noise(), coRun(20, 100, 1.5, 1.2))));
  }

  /** {@code policy}'s light run whose requests ran {@code ratio} times {@code profiled}. */
  private static PointResult light(String policy, int repetition, long[] profiled, double ratio) {
    Histogram run = new Histogram(3);
    for (long t : profiled) {
      run.recordValue(Math.round(t * ratio));
    }
    Histogram small = histogram(10 * US, 20 * US);
    return new PointResultBuilder(policy, run)
        .labels(10, "poisson", 1, "measured on this machine (2 cores)", "test")
        .repetition(repetition)
        .outcome(10_000 * MS, profiled.length, profiled.length, 0, false)
        .breakdown(LatencyBreakdown.of(small, small, small, run, small))
        .noise(noise())
        .coRun(coRun(150, 0, 1.5, 1))
        .provenance(VM)
        .build();
  }

  /**
   * seq served 1.5x its profiled time, fixed:2 1.8x its profiled degree-2 time (which is half): the
   * map holds those ratios at each degree, and serves a request at 2 threads with a speedup of 2 x
   * 1.5 / 1.8.
   */
  /**
   * Runs whose mean run time falls on a line from 2 ms with none queued to 1.5 ms with all queued:
   * the factor is 0.75; noise around the line moves it little; too narrow a spread of shares, or a
   * line that crosses 0, leaves it at 1.
   */
  @Test
  void theWarmStartFactorIsTheRunTimeLineAtAllQueuedOverItAtNone() {
    List<double[]> line =
        List.of(
            new double[] {0.05, 1.975e6}, new double[] {0.5, 1.75e6}, new double[] {0.85, 1.575e6});
    assertEquals(0.75, WarmStartFit.of(line), 1e-9);
    List<double[]> noisy =
        List.of(
            new double[] {0.05, 2.0e6},
            new double[] {0.05, 1.95e6},
            new double[] {0.85, 1.6e6},
            new double[] {0.85, 1.55e6});
    assertEquals(0.75, WarmStartFit.of(noisy), 0.01);
    assertEquals(
        1.0,
        WarmStartFit.of(List.of(new double[] {0.0, 2e6}, new double[] {0.2, 1e6})),
        "shares 0.2 apart: the slope would be the runs' noise");
    assertEquals(
        1.0,
        WarmStartFit.of(List.of(new double[] {0.0, 1e6}, new double[] {0.5, 0.1e6})),
        "a line below 0 at all queued");
    assertEquals(1.0, WarmStartFit.of(List.of()));
  }

  @Test
  void itMapsTheRunTimesOfSeqAndFixedAtTheLightestLoadByDegree() {
    List<DemandProfile.Request> requests = new ArrayList<>();
    long[] seqTimes = new long[100];
    long[] halfTimes = new long[100];
    for (int i = 1; i <= 100; i++) {
      seqTimes[i - 1] = i * MS;
      halfTimes[i - 1] = i * MS / 2;
      requests.add(
          new DemandProfile.Request(
              Integer.toString(i),
              null,
              "q",
              i * MS,
              new long[] {i * MS / 2, i * MS / 2},
              new double[] {1.0, 2.0},
              new double[] {3.0},
              new DemandProfile.Features("test", 1, new long[0], 0)));
    }
    DemandProfile profile =
        DemandProfile.of(
            profile().environment(), new DemandProfile.Settings(1, 2, 2, 3), true, requests);
    CalibrationFit.Runs report =
        new CalibrationFit.Runs(
            Path.of("r"),
            List.of(
                light("seq", 1, seqTimes, 1.5),
                light("fixed:2", 1, halfTimes, 1.8),
                light("seq", 2, seqTimes, 1.5),
                light("fixed:2", 2, halfTimes, 1.8),
                seq(80, 1, true, noise(), coRun(20, 100, 1.5, 1.2))));
    RunTimeMap map = CalibrationFit.fromReport(report, profile).runTimes();
    assertEquals(List.of(1, 2), map.degrees().stream().map(RunTimeMap.Degree::degree).toList());
    assertEquals(1.5, map.degrees().get(0).ratios()[50], 0.01);
    assertEquals(1.8, map.degrees().get(1).ratios()[50], 0.01);
    assertEquals(200, map.degrees().get(1).requests());
    DemandProfile.Request served = map.serve(profile).requests().get(49);
    assertEquals(2 * 1.5 / 1.8, served.measuredSpeedup()[1], 0.03);
  }

  @Test
  void itMeasuresTheRunScaleTheCoRunTheStallsAndThePauses() {
    Calibration c = CalibrationFit.fromReport(report(), profile());
    assertEquals(1.5, c.runScale(), 0.01);
    assertEquals(60 * US, c.dispatchNanos()[50], 100);
    assertEquals(
        new Calibration.Machine("vm", 2, "AMD EPYC", "amd64", "25.0.3", "Linux amd64"),
        c.machine());
    assertEquals("idx", c.workload().index());
    MachineModel m = c.model();
    assertArrayEquals(new double[] {1.0, 1.2}, m.coRun(), 0.01);
    assertArrayEquals(new long[] {320, 200}, m.coRunRequests());
    // Of the light runs' 20 stalls of 5 ms over 20 s, their 2 GC pauses take out 2.
    assertEquals(18, m.stalls().events());
    assertEquals(0.9, m.stalls().perSecond(), 1e-9);
    assertEquals(5 * MS, m.stalls().durationsNanos()[50], 0.01 * 5 * MS);
    assertEquals(100 * US, m.stalls().floorNanos(), US);
    // 3 pauses of 3 ms over the 3,000 requests of every run.
    assertEquals(0.001, m.gcPauses().perRequest(), 1e-9);
    assertEquals(3 * MS, m.gcPauses().durationsNanos()[100], 0.01 * 3 * MS);
    assertTrue(c.source().contains("2 run(s) of seq at 10 requests/s"), c.source());
  }

  @Test
  void aReportWithoutWhatTheModelNeedsIsRefusedSayingWhat() {
    IllegalArgumentException none =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                CalibrationFit.fromReport(
                    new CalibrationFit.Runs(Path.of("r"), List.of()), profile()));
    assertTrue(none.getMessage().contains("no run of seq"), none.getMessage());
    IllegalArgumentException bare =
        assertThrows(
            IllegalArgumentException.class,
            () -> fit(seq(10, 1, false, noise(), coRun(150, 100, 1.5, 1.2))));
    assertTrue(bare.getMessage().contains("no latency breakdown"), bare.getMessage());
    MachineNoise v4 = new MachineNoise(10_000 * MS, 5 * MS, 2_000, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0.01);
    IllegalArgumentException old =
        assertThrows(
            IllegalArgumentException.class,
            () -> fit(seq(10, 1, true, v4, coRun(150, 100, 1.5, 1.2))));
    assertTrue(old.getMessage().contains("noise.oversleepHistogram"), old.getMessage());
    IllegalArgumentException alone =
        assertThrows(
            IllegalArgumentException.class,
            () -> fit(seq(10, 1, true, noise(), coRun(150, 10, 1.5, 1.2))));
    assertTrue(alone.getMessage().contains("20 request(s) running at 2"), alone.getMessage());
    assertTrue(alone.getMessage().contains("--loads"), alone.getMessage());
  }

  private static Calibration fit(PointResult p) {
    return CalibrationFit.fromReport(new CalibrationFit.Runs(Path.of("r"), List.of(p)), profile());
  }

  @Test
  void percentilesReadValuesWithCountsAsHdrHistogramDoes() {
    long[] p = CalibrationFit.percentiles(new long[] {1, 2, 10}, new long[] {50, 49, 1});
    assertEquals(1, p[0]);
    assertEquals(1, p[50]);
    assertEquals(2, p[51]);
    assertEquals(2, p[99]);
    assertEquals(10, p[100]);
    assertEquals(0, CalibrationFit.percentiles(new long[0], new long[0])[100]);
  }
}
