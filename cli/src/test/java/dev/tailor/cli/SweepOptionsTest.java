package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

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
  void aRealSweepTakesThePlainLuceneBaselinesAndASimulatedOneThePeers() {
    assertEquals(
        List.of("seq", "lucene", "lucene-executor:2", "elasticsearch:2"),
        options("seq,lucene,lucene-executor:2,elasticsearch:2").policies());
    assertEquals(
        List.of("seq", "lucene", "elasticsearch:2", "opensearch"),
        options("seq,lucene,elasticsearch:2,opensearch").simulatedPolicies());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> options("seq,lucene-executor:0").simulatedPolicies());
    assertTrue(e.getMessage().contains("'lucene-executor:0'"), e.getMessage());
    for (String bad : List.of("elasticsearch:0", "elasticsearch:x", "elasticsearch")) {
      e = assertThrows(IllegalArgumentException.class, () -> options("seq," + bad).policies());
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
      assertTrue(e.getMessage().contains("elasticsearch:N"), e.getMessage());
    }
    assertEquals(List.of("seq", "fixed:2"), options("seq,fixed:2").simulatedPolicies());
  }

  @Test
  void theTargetJoinsTheRecordedTargetsOnce() {
    SweepOptions o = options("seq");
    o.targets = List.of("50ms", "100ms");
    assertEquals(List.of(50_000_000L, 100_000_000L), o.targetNanos());
    assertEquals(0, o.latencyTarget(), "no target");
    o.target = 20_000_000L;
    assertEquals(List.of(50_000_000L, 100_000_000L, 20_000_000L), o.targetNanos());
    assertEquals(20_000_000L, o.latencyTarget());
    o.target = 50_000_000L; // --target 0.05s is --targets' 50ms: recorded once
    assertEquals(List.of(50_000_000L, 100_000_000L), o.targetNanos());
  }

  @Test
  void aTargetIsADurationAboveZeroAndNotAUrl() {
    LatencyTarget parse = new LatencyTarget();
    assertEquals(20_000_000L, parse.convert("20ms"));
    assertEquals(1_500_000L, parse.convert("1.5ms"));
    TypeConversionException url =
        assertThrows(TypeConversionException.class, () -> parse.convert("http://host:8080"));
    assertEquals(LatencyTarget.URL_GIVEN, url.getMessage());
    TypeConversionException soon =
        assertThrows(TypeConversionException.class, () -> parse.convert("soon"));
    assertTrue(soon.getMessage().contains("'soon' is not a duration"), soon.getMessage());
    TypeConversionException zero =
        assertThrows(TypeConversionException.class, () -> parse.convert("0ms"));
    assertTrue(zero.getMessage().contains("above zero"), zero.getMessage());
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

  @Test
  void loadsAreRatesOrSharesOfAProfilesCapacityNeverBoth() {
    SweepOptions o = options("seq");
    IllegalArgumentException none =
        assertThrows(IllegalArgumentException.class, () -> o.resolveLoads(null, 2));
    assertTrue(none.getMessage().contains("--rps (requests/s) or --loads"), none.getMessage());
    o.loads = List.of(0.5);
    IllegalArgumentException noProfile =
        assertThrows(IllegalArgumentException.class, () -> o.resolveLoads(null, 2));
    assertTrue(noProfile.getMessage().contains("add --profile"), noProfile.getMessage());
    o.rps = List.of(10.0);
    IllegalArgumentException both =
        assertThrows(IllegalArgumentException.class, () -> o.resolveLoads(null, 2));
    assertTrue(both.getMessage().contains("not both"), both.getMessage());
    SweepOptions rates = options("seq");
    rates.rps = List.of(10.0, 20.0);
    rates.resolveLoads(null, 2);
    assertEquals(List.of(10.0, 20.0), rates.rps);
  }

  @Test
  void aPointsRequestsAreSplitBetweenItsRuns() {
    PointLength length = new PointLength();
    length.requestsPerPoint = 2000;
    length.warmup = "1s";
    assertEquals(400, length.requestsPerRun(5));
    assertEquals(667, length.requestsPerRun(3));
    assertTrue(length.plan("poisson", 1, 5).toString().contains("400 measured requests per run"));
    length.duration = "10s";
    assertTrue(length.timed());
    assertTrue(length.plan("poisson", 1, 5).toString().contains("10s per point"));
    length.requestsPerPoint = 0;
    length.duration = null;
    assertThrows(IllegalArgumentException.class, () -> length.requestsPerRun(1));
  }
}
