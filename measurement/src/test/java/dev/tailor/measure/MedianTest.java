package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class MedianTest {

  @Test
  void theMiddleValueOrTheMeanOfTheMiddleTwoAndTheInputIsLeftAsItIs() {
    double[] odd = {9, 1, 5};
    assertEquals(5, Median.of(odd));
    assertArrayEquals(new double[] {9, 1, 5}, odd, "not sorted in place");
    assertEquals(2.5, Median.of(new double[] {4, 1, 3, 2}));
    assertEquals(7, Median.of(new double[] {7}));
    assertThrows(IllegalArgumentException.class, () -> Median.of(new double[0]));
  }
}
