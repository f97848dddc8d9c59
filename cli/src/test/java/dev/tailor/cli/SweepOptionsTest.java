package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SweepOptionsTest {

  private static SweepOptions options(String policies) {
    SweepOptions o = new SweepOptions();
    o.policyList = policies;
    o.repeat = 1;
    return o;
  }

  @Test
  void aBareOracleIsKeptForTheCommandToTuneAndTheRestParsedAsBefore() {
    assertEquals(
        List.of("seq", "oracle", "rampup:10ms,6", "fixed:2@admit-first"),
        options("seq, oracle,rampup:10ms,6,fixed:2@admit-first").policies());
    assertEquals(List.of("oracle"), options("ORACLE").policies());
    assertEquals(List.of("oracle:1ms,4", "seq"), options("oracle:1ms,4,seq").policies());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> options("seq,oracle,nope").policies());
    assertTrue(e.getMessage().contains("unknown policy 'nope'"), e.getMessage());
  }

  @Test
  void repetitionsAndTheDegreeCapAreChecked() {
    SweepOptions o = options("seq");
    assertEquals(1, o.repetitions());
    assertEquals(0, o.degreeCap(), "no cap");
    o.maxDegree = 4;
    assertEquals(4, o.degreeCap());
    o.maxDegree = 0;
    assertThrows(IllegalArgumentException.class, o::degreeCap);
    o.repeat = 0;
    assertThrows(IllegalArgumentException.class, o::repetitions);
  }
}
