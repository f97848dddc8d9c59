package dev.tailor.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.Provenance;
import dev.tailor.measure.SpeedProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunTimeMapTest {

  private static final long MS = 1_000_000;

  @TempDir Path dir;

  /** 100 requests of 1, 2, ..., 100 ms, each 2x faster on two threads, in 16 equal units. */
  private static DemandProfile profile() {
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (int i = 1; i <= 100; i++) {
      long[] units = new long[16];
      Arrays.fill(units, i * MS / 16);
      requests.add(
          new DemandProfile.Request(
              Integer.toString(i),
              null,
              "q",
              i * MS,
              units,
              new double[] {1.0, 2.0},
              new double[] {3.0, 4.0},
              new DemandProfile.Features("test", 1, new long[0], 0)));
    }
    return DemandProfile.of(
        new DemandProfile.Environment(
            "idx", "test", 1, "t", 2, "25.0.3+9-LTS", "Linux amd64", "2026-01-01T00:00:00Z"),
        new DemandProfile.Settings(1, 16, 2, 4),
        true,
        requests);
  }

  /** Ratio {@code low} at percentile 0 rising linearly to {@code high} at 100. */
  private static double[] line(double low, double high) {
    double[] r = new double[Calibration.PERCENTILES];
    for (int p = 0; p < r.length; p++) {
      r[p] = low + (high - low) * p / 100.0;
    }
    return r;
  }

  private static RunTimeMap map(double[] one, double[] two) {
    List<RunTimeMap.Degree> degrees = new ArrayList<>();
    degrees.add(new RunTimeMap.Degree(1, 1_000, one));
    if (two != null) {
      degrees.add(new RunTimeMap.Degree(2, 1_000, two));
    }
    return new RunTimeMap(degrees);
  }

  private static Calibration calibration(RunTimeMap map) {
    long[] zero = new long[Calibration.PERCENTILES];
    return Calibration.measured(
            new Provenance.Machine("vm", 2, "AMD EPYC", "amd64", "25.0.3"),
            profile(),
            "a replay",
            1.0,
            zero,
            zero,
            zero,
            null)
        .withRunTimes(map, null);
  }

  @Test
  void shortRequestsTakeTheLowPercentilesRatioAndLongOnesTheHighOnes() {
    DemandProfile served = map(line(2.0, 1.0), null).serve(profile());
    DemandProfile.Request shortest = served.requests().get(0);
    DemandProfile.Request longest = served.requests().get(99);
    // The 1 ms request lies at the 0.5th percentile, the 100 ms one at the 99.5th.
    assertEquals(1.995 * MS, shortest.sequentialNanos(), 0.001 * MS);
    assertEquals(100 * 1.005 * MS, longest.sequentialNanos(), 0.01 * MS);
    assertEquals(
        longest.sequentialNanos(), Arrays.stream(longest.unitNanos()).sum(), 16, "units scale too");
    assertEquals(2.0, longest.measuredSpeedup()[1], 1e-9, "no degree 2 measured: speedups stand");
    assertEquals(4.0, longest.derivedSpeedup()[1], 1e-9);
  }

  @Test
  void aDegreeServedSlowerThanProfiledLowersTheSpeedupsFromItOn() {
    // Served at 1 as profiled; at 2, 1.6x the profiled degree-2 time: a speedup of 1.25, not 2.
    DemandProfile served = map(line(1, 1), line(1.6, 1.6)).serve(profile());
    for (DemandProfile.Request r : served.requests()) {
      assertEquals(1.25, r.measuredSpeedup()[1], 1e-9, r.id());
      assertEquals(3.0 / 1.6, r.derivedSpeedup()[0], 1e-9, "derived ones scale by the same gain");
      assertEquals(4.0 / 1.6, r.derivedSpeedup()[1], 1e-9);
    }
  }

  @Test
  void aDegreeTheProfileDidNotMeasureIsLeftOut() {
    DemandProfile oneDegree =
        profile()
            .withRequests(
                profile().requests().stream()
                    .map(
                        r ->
                            new DemandProfile.Request(
                                r.id(),
                                r.category(),
                                r.query(),
                                r.sequentialNanos(),
                                r.unitNanos(),
                                new double[] {1.0},
                                new double[] {2.0},
                                r.features()))
                    .toList());
    DemandProfile served = map(line(1.5, 1.5), line(3, 3)).serve(oneDegree);
    assertEquals(150 * MS, served.requests().get(99).sequentialNanos(), MS);
    assertEquals(2.0, served.requests().get(99).derivedSpeedup()[0], 1e-9, "speedups stand");
  }

  /** One request every 200 ms (so none queues), cycling through the profile. */
  private static PointResult simulate(Calibration c, String policy, Simulator.WorkModel model) {
    int n = 2_000;
    long[] arrivals = new long[n];
    int[] requests = new int[n];
    for (int i = 0; i < n; i++) {
      arrivals[i] = i * 200 * MS;
      requests[i] = i % 100;
    }
    Simulator.Config config =
        new Simulator.Config(2, 5 * MS, 80 * MS, 0, 100_000, List.of(), model, c);
    try (Policy p = PolicyRegistry.of(policy)) {
      return new Simulator(profile(), p, config)
          .run(arrivals, requests, new Simulator.Labels(5, "given", 1, "test"));
    }
  }

  private static double ms(PointResult p, String percentile) {
    return p.latency().get(percentile) / MS;
  }

  @Test
  void aCraftedMapShiftsTheSimulatedPercentilesAsItSays() {
    for (Simulator.WorkModel m : Simulator.WorkModel.values()) {
      PointResult plain = simulate(null, "seq", m);
      PointResult doubled = simulate(calibration(map(line(2, 2), null)), "seq", m);
      assertEquals(2 * ms(plain, "p50"), ms(doubled, "p50"), 0.02 * ms(plain, "p50"), m.name());
      assertEquals(2 * ms(plain, "p99"), ms(doubled, "p99"), 0.02 * ms(plain, "p99"), m.name());
      // Short requests 1.5x, long ones 1x: the median rises by a quarter, the P99 hardly.
      PointResult skewed = simulate(calibration(map(line(1.5, 1), null)), "seq", m);
      assertEquals(1.25 * ms(plain, "p50"), ms(skewed, "p50"), 0.03 * ms(plain, "p50"), m.name());
      assertEquals(ms(plain, "p99"), ms(skewed, "p99"), 0.02 * ms(plain, "p99"), m.name());
    }
  }

  @Test
  void aDegreeTwoServedAsSlowAsDegreeOneTakesParallelismsGainAway() {
    Calibration none = calibration(map(line(1, 1), line(2, 2)));
    for (Simulator.WorkModel m : Simulator.WorkModel.values()) {
      double seq = ms(simulate(none, "seq", m), "p99");
      double plain = ms(simulate(null, "fixed:2", m), "p99");
      double served = ms(simulate(none, "fixed:2", m), "p99");
      assertTrue(plain < 0.6 * seq, m.name() + ": two threads halve it as profiled");
      if (m == Simulator.WorkModel.FLUID) {
        assertEquals(seq, served, 0.05 * seq, "fluid: served, they gain nothing");
      } else {
        // The unit model charges the hand-off overhead the map implies only to units run with
        // company; the units the own thread runs before its helper joins go at their own pace.
        assertTrue(served > 1.4 * plain && served <= 1.05 * seq, "units: " + served);
      }
    }
  }

  @Test
  void theMapRoundTripsThroughTheFileAndABadRatioIsNamed() throws IOException {
    Calibration c = calibration(map(line(1.8, 1.1), line(2.6, 1.9)));
    Path file = dir.resolve("c.json");
    c.write(file);
    Calibration back = Calibration.read(file);
    assertEquals(c, back);
    assertTrue(back.toString().contains("2: x2.25 at P50"), back.toString());
    // The second degree's first ratio (2.6) made 0.01, in the tree: a text search for "2.6" can
    // also match the file's timestamp.
    ObjectMapper json = new ObjectMapper();
    JsonNode root = json.readTree(file.toFile());
    ArrayNode ratios = (ArrayNode) root.at("/runTimes/degrees/1/ratios");
    assertEquals(2.6, ratios.get(0).asDouble(), 1e-9);
    ratios.set(0, 0.01);
    json.writeValue(file.toFile(), root);
    IOException bad = assertThrows(IOException.class, () -> Calibration.read(file));
    assertTrue(bad.getMessage().contains("runTimes.degrees[1].ratios[0]"), bad.getMessage());
  }

  @Test
  void aCalibrationIsCarriedToAnotherSpeedByItsProbesChange() throws IOException {
    Calibration c =
        calibration(map(line(1.0, 1.0), line(2.0, 2.0)))
            .withRunTimes(map(line(1.0, 1.0), line(2.0, 2.0)), new SpeedProbe(10, 1.0, 1.0));
    Calibration slower = c.atSpeed(new SpeedProbe(10, 1.2, 1.5));
    double[] one = slower.runTimes().degrees().get(0).ratios();
    double[] two = slower.runTimes().degrees().get(1).ratios();
    assertEquals(1.0, one[0], 1e-9, "at and below the median: as measured");
    assertEquals(1.0, one[50], 1e-9);
    assertEquals(1.0 + 0.5 * 25 / 49.0, one[75], 1e-9, "linear in between");
    assertEquals(1.5, one[99], 1e-9, "from P99 on: the longest queries' change");
    assertEquals(3.0, two[100], 1e-9, "every degree alike");
    assertEquals(c.runScale(), slower.runScale(), 1e-9);
    assertEquals(new SpeedProbe(10, 1.2, 1.5), slower.probe());
    assertEquals(c, c.atSpeed(null), "no reading: as measured");
    Path file = dir.resolve("c.json");
    c.write(file);
    assertEquals(c, Calibration.read(file), "the probe round-trips");
    // Served 1.5x slower at the tail, the simulated P99 follows.
    for (Simulator.WorkModel m : Simulator.WorkModel.values()) {
      double asMeasured = ms(simulate(c, "seq", m), "p99");
      double carried = ms(simulate(c.atSpeed(new SpeedProbe(10, 1.0, 1.5)), "seq", m), "p99");
      assertEquals(1.5 * asMeasured, carried, 0.03 * asMeasured, m.name());
    }
  }
}
