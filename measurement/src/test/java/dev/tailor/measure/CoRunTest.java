package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CoRunTest {

  private static final long MS = 1_000_000;

  @TempDir Path tmp;

  private static CoRun.Span span(long from, long to, long profiled) {
    return new CoRun.Span(from * MS, to * MS, 1, profiled * MS);
  }

  @Test
  void eachRequestCountsAtTheBusyThreadsOfMostOfItsRun() {
    CoRun.Span[] spans = {
      span(0, 10, 10), // alone: ratio 1
      span(20, 30, 5), // with the next one all along: ratio 2, at 2
      span(20, 30, 5), // likewise
      span(40, 50, 10), // the next one overlaps half of it: counts nowhere
      span(45, 55, 10),
      span(60, 70, 10), // a warm-up request: busy, but not counted itself
      span(61, 69, 4), // inside it: at 2, ratio 2
      span(100, 112, 10), // alone, but for a neighbour's last millisecond: at 1, ratio 1.2
      span(90, 101, 10), // 1 ms of 11 beside the one above: alone for 91%, at 1, ratio 1.1
    };
    boolean[] measured = {true, true, true, true, true, false, true, true, true};
    CoRun c = CoRun.measure(spans, measured);
    Histogram alone = c.level(1).ratios();
    Histogram two = c.level(2).ratios();
    assertEquals(3, c.level(1).requests());
    assertEquals(3, two.getTotalCount());
    assertEquals(1.0, alone.getMinValue() / (double) CoRun.RATIO_UNITS, 0.01);
    assertEquals(1.2, alone.getMaxValue() / (double) CoRun.RATIO_UNITS, 0.01);
    assertEquals(2.0, two.getMinValue() / (double) CoRun.RATIO_UNITS, 0.01);
    assertEquals(2.0, two.getMaxValue() / (double) CoRun.RATIO_UNITS, 0.01);
  }

  @Test
  void aPointWithAParallelRequestOrAnUnprofiledOneHasNone() {
    CoRun.Span parallel = new CoRun.Span(0, 10 * MS, 2, 10 * MS);
    assertNull(CoRun.measure(new CoRun.Span[] {span(0, 10, 10), parallel}, new boolean[2]));
    CoRun.Span unknown = new CoRun.Span(0, 10 * MS, 1, 0);
    assertNull(CoRun.measure(new CoRun.Span[] {unknown}, new boolean[] {true}));
    assertNull(CoRun.measure(new CoRun.Span[] {null}, new boolean[] {true}));
  }

  @Test
  void itRoundTripsThroughAPointFile() throws IOException {
    CoRun c =
        CoRun.measure(
            new CoRun.Span[] {span(0, 10, 8), span(20, 30, 10)}, new boolean[] {true, true});
    Histogram h = new Histogram(3);
    h.recordValue(MS);
    PointResult p = new PointResultBuilder("seq", h).coRun(c).build();
    Path file = tmp.resolve("p.json");
    p.write(file);
    CoRun back = PointResult.read(file).coRun();
    assertEquals(1, back.levels().size());
    assertEquals(2, back.level(1).requests());
    assertEquals(c.level(1).ratioHistogram(), back.level(1).ratioHistogram());
  }
}
