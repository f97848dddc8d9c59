package dev.tailor.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PointProgressTest {

  private static final long S = 1_000_000_000L;

  @Test
  void eachPointSaysWhichOfHowManyAndEstimatesTheRestFromTheMeanSoFar() {
    AtomicLong clock = new AtomicLong(0);
    PointProgress points = new PointProgress(4, clock::get);
    clock.set(30 * S);
    assertEquals("point 1 of 4, about 1m30s left", points.pointDone());
    clock.set(50 * S); // 25 s a point so far
    assertEquals("point 2 of 4, about 50s left", points.pointDone());
    clock.set(60 * S);
    assertEquals("point 3 of 4, about 20s left", points.pointDone());
    assertEquals("point 4 of 4, the last", points.pointDone());
  }

  @Test
  void longEstimatesAreInHoursAndMinutes() {
    assertEquals("2h05m", PointProgress.left(7_500 * S));
    assertEquals("0s", PointProgress.left(0));
  }
}
