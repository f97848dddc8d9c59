package dev.tailor.load.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The worker count a report's points ran at, as fidelity and the plan's check read it. */
class MeasuredReportTest {

  private static final String MACHINE = "measured on this machine (2 cores)";

  private static PointResult point(String environment, int repetition) {
    Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
    h.recordValueWithCount(1_000_000, 100);
    return new PointResultBuilder("seq", h)
        .labels(50, "poisson", 42, environment, "test")
        .repetition(repetition)
        .outcome(1_000_000_000L, 100, 100, 0, false)
        .build();
  }

  private static MeasuredReport report(PointResult... points) {
    return new MeasuredReport(Path.of("replay"), List.of(points), null);
  }

  @Test
  void aReportOfOneCountOfASweepOfThemNamesItAndAnyOtherNamesNone() {
    String one = PointResult.withWorkers(MACHINE, 1);
    assertEquals(1, report(point(one, 1), point(one, 2)).workers());
    assertEquals(0, report(point(MACHINE, 1), point(MACHINE, 2)).workers(), "the target's own");
    assertEquals(
        0,
        report(point(one, 1), point(PointResult.withWorkers(MACHINE, 2), 2)).workers(),
        "points of two counts: none of them is the report's");
  }
}
