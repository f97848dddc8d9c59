package dev.tailor.tables;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TpcTableInputsTest {

  @Test
  void aRangeIsEvenlySpacedAndAListIsTakenAsItIs() {
    assertEquals(List.of(100.0, 150.0, 200.0), TpcTableInputs.rates("100..200", 3));
    assertEquals(List.of(100.0), TpcTableInputs.rates("100..200", 1));
    assertEquals(List.of(20.0, 40.0, 60.0), TpcTableInputs.rates("20, 40,60", 5));
  }

  @Test
  void badRatesAreRefusedNamingTheOption() {
    for (String bad : List.of("200..100", "0..10", "fast", "1,x")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> TpcTableInputs.rates(bad, 3));
      assertTrue(e.getMessage().startsWith("--rps: expected"), e.getMessage());
    }
  }
}
