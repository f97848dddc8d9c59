package dev.tailor.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A sweep's policy list: the plain Lucene baselines in a real sweep, refused in a simulated one.
 */
class PolicyListTest {

  private static final List<Double> RATES = List.of(100.0, 200.0);

  @Test
  void aRealSweepTakesTheLuceneBaselinesBesideThePolicies() {
    assertEquals(
        List.of("seq", "lucene", "rampup:10ms,6", "lucene-executor:2", "oracle", "fixed:2"),
        PolicyList.parse("seq,lucene,rampup:10ms,6,lucene-executor:2,oracle,fixed:2", RATES));
    assertEquals(List.of("lucene"), PolicyList.parse("lucene", RATES));
  }

  @Test
  void aBadBaselineIsRefusedNamingIt() {
    for (String bad : List.of("lucene-executor:0", "lucene-executor:x", "lucene-executor")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> PolicyList.parse("seq," + bad, RATES), bad);
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
      assertTrue(e.getMessage().contains("lucene-executor:N"), e.getMessage());
    }
  }

  @Test
  void aSimulatedSweepTakesThePeersAndRefusesABadOneNamingIt() {
    assertEquals(
        List.of("seq", "lucene", "lucene-executor:2", "elasticsearch:2", "opensearch:auto"),
        PolicyList.parseSimulated(
            "seq,lucene,lucene-executor:2,elasticsearch:2,opensearch:auto", RATES));
    for (String bad : List.of("lucene-executor:0", "elasticsearch:x")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> PolicyList.parseSimulated("seq," + bad, RATES),
              bad);
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }
  }

  @Test
  void aSimulatedSweepOfAPeerWithoutTheIndexsSegmentsCannotBeMade() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new SimulatedSweep(
                    null, "c", null, null, RATES, List.of("seq", "lucene"), 1, 1, 0, null));
    assertTrue(e.getMessage().contains("'lucene'"), e.getMessage());
    assertTrue(e.getMessage().contains("--index-segments"), e.getMessage());
  }
}
