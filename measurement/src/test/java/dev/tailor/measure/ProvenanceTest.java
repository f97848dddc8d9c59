package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ProvenanceTest {

  private static PointResult point(String environment, String corpus, Provenance provenance) {
    Histogram h = new Histogram(3);
    h.recordValue(1_000_000);
    PointResult p =
        new PointResultBuilder("seq", h)
            .labels(50, "poisson(50/s)", 42, environment, corpus)
            .outcome(1_000_000_000L, 1, 1, 0, false)
            .build();
    return new PointResult(
        p.format(),
        p.version(),
        p.policy(),
        p.offeredRps(),
        p.arrivals(),
        p.seed(),
        p.repetition(),
        p.environment(),
        p.corpus(),
        p.durationNanos(),
        p.sent(),
        p.completed(),
        p.failed(),
        p.failures(),
        p.saturated(),
        p.achievedRps(),
        p.cpuNanos(),
        p.latency(),
        p.queueing(),
        p.sendLag(),
        p.missRatio(),
        p.degreeDistribution(),
        p.latencyHistogram(),
        p.breakdown(),
        p.noise(),
        provenance,
        null,
        null);
  }

  private static final String REAL = "measured on this machine (2 cores)";
  private static final Provenance HERE = new Provenance("tailor 0.1 aaa", "host-a, 2 cores");

  @Test
  void pointsOfOneBuildMachineAndCorpusPool() {
    assertDoesNotThrow(
        () -> Provenance.checkSame(List.of(point(REAL, "tb05", HERE), point(REAL, "tb05", HERE))));
    // Older points, without provenance, are checked by what they have.
    assertDoesNotThrow(
        () -> Provenance.checkSame(List.of(point(REAL, "tb05", null), point(REAL, "tb05", HERE))));
  }

  @Test
  void anotherBuildMachineOrCorpusIsRefusedNamingTheField() {
    assertRefused(
        "provenance.build",
        point(REAL, "tb05", HERE),
        point(REAL, "tb05", new Provenance("tailor 0.1 bbb", "host-a, 2 cores")));
    assertRefused(
        "provenance.machine",
        point(REAL, "tb05", HERE),
        point(REAL, "tb05", new Provenance("tailor 0.1 aaa", "host-b, 2 cores")));
    assertRefused("corpus", point(REAL, "tb05", HERE), point(REAL, "nq", HERE));
    assertRefused(
        "environment", point(REAL, "tb05", HERE), point("simulated, 16 cores", "tb05", HERE));
    // A simulation's machine is the one it models: the host that ran it may differ.
    assertDoesNotThrow(
        () ->
            Provenance.checkSame(
                List.of(
                    point("simulated, 16 cores", "tb05", HERE),
                    point(
                        "simulated, 16 cores",
                        "tb05",
                        new Provenance("tailor 0.1 aaa", "host-b, 2 cores")))));
  }

  @Test
  void thisProcessHasABuildAndAMachine() {
    Provenance p = Provenance.current();
    assertTrue(p.build().startsWith("tailor "), p.build());
    assertTrue(
        p.machine().contains(Runtime.getRuntime().availableProcessors() + " cores"), p.machine());
  }

  @Test
  void aMachineReadsBackFieldByField() {
    Provenance.Machine m =
        Provenance.Machine.parse("vm, 2 cores, AMD EPYC, 7B13, amd64, Java 25.0.3");
    assertEquals(new Provenance.Machine("vm", 2, "AMD EPYC, 7B13", "amd64", "25.0.3"), m);
    assertEquals("vm, 2 cores, AMD EPYC, 7B13, amd64, Java 25.0.3", m.describe());
    assertEquals(Provenance.current().machine(), Provenance.currentMachine().describe());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Provenance.Machine.parse("host-a"));
    assertTrue(e.getMessage().contains("HOST, N cores, CPU, ARCH, Java VERSION"), e.getMessage());
  }

  private static void assertRefused(String field, PointResult a, PointResult b) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Provenance.checkSame(List.of(a, b)));
    assertTrue(e.getMessage().startsWith("the points disagree on " + field + ":"), e.getMessage());
  }
}
