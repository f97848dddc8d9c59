package dev.tailor.load.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.LatencyBreakdown;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import dev.tailor.sim.Calibration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class CalibrationFitTest {

  private static final long US = 1_000;

  /** A profile of requests of 1, 2, ..., 100 ms. */
  private static DemandProfile profile() {
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (int i = 1; i <= 100; i++) {
      requests.add(
          new DemandProfile.Request(
              Integer.toString(i),
              null,
              "q",
              i * 1_000 * US,
              new long[] {i * 1_000 * US},
              new double[] {1.0},
              new double[] {1.0},
              new DemandProfile.Features("test", 1, new long[0], 0)));
    }
    return DemandProfile.of(
        new DemandProfile.Environment("idx", "test", 1, "t", 2, "j", "os", "2026-01-01T00:00:00Z"),
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

  /** A seq point whose requests ran {@code scale} times their profiled time. */
  private static PointResult seq(double rps, double scale, boolean breakdown) {
    long[] runs = new long[100];
    for (int i = 0; i < 100; i++) {
      runs[i] = Math.round((i + 1) * 1_000 * US * scale);
    }
    Histogram run = histogram(runs);
    Histogram wake = histogram(50 * US, 60 * US, 70 * US);
    Histogram small = histogram(10 * US, 20 * US);
    return new PointResultBuilder("seq", run)
        .labels(rps, "poisson", 1, "measured on this machine (2 cores)", "test")
        .outcome(1_000_000_000L, 100, 100, 0, false)
        .breakdown(breakdown ? LatencyBreakdown.of(small, small, wake, run, small) : null)
        .build();
  }

  @Test
  void theRunScaleIsServedOverProfiledAndTheLightestLoadIsUsed() {
    MeasuredReport report =
        new MeasuredReport(
            Path.of("r"),
            List.of(seq(10, 1.5, true), seq(20, 3.0, true), seq(10, 1.5, true)),
            null);
    Calibration c = CalibrationFit.fromReport(report, profile());
    assertEquals(1.5, c.runScale(), 0.01);
    assertEquals(60 * US, c.dispatchNanos()[50], 100);
    assertTrue(c.source().contains("2 run(s) of seq at 10 requests/s"), c.source());
    assertEquals("idx", c.workload().index());
  }

  @Test
  void aReportWithoutSeqOrWithoutABreakdownIsRefused() {
    IllegalArgumentException none =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                CalibrationFit.fromReport(
                    new MeasuredReport(Path.of("r"), List.of(), null), profile()));
    assertTrue(none.getMessage().contains("no run of seq"), none.getMessage());
    IllegalArgumentException bare =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                CalibrationFit.fromReport(
                    new MeasuredReport(Path.of("r"), List.of(seq(10, 1, false)), null), profile()));
    assertTrue(bare.getMessage().contains("no latency breakdown"), bare.getMessage());
  }
}
