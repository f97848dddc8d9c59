package dev.tailor.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The plain-Lucene peers on crafted workloads with known answers: time-slicing shares the cores,
 * Lucene's executor runs a lone search at its slices' speed-up, Elasticsearch's rule falls to one
 * slice behind a long queue, and the slicing rules cut as the engines do.
 */
final class PeerSimulatorTest {

  private static final long MS = 1_000_000L;
  private static final Simulator.Labels LABELS = new Simulator.Labels(1, "test", 1, "test");

  /** Requests of {@code units} equal units of {@code unitMs} each and no serial part. */
  private static DemandProfile profile(int requests, int units, long unitMs) {
    List<DemandProfile.Request> list = new ArrayList<>();
    long[] u = new long[units];
    Arrays.fill(u, unitMs * MS);
    for (int i = 0; i < requests; i++) {
      list.add(
          new DemandProfile.Request(
              "r" + i,
              null,
              "q",
              units * unitMs * MS,
              u,
              new double[] {1.0},
              new double[0],
              new DemandProfile.Features("test", 1, new long[0], 0)));
    }
    return DemandProfile.of(
        new DemandProfile.Environment("i", "test", 1, "t", 2, "j", "o", "now"),
        new DemandProfile.Settings(1, units, 1, 1),
        true,
        list);
  }

  private static Simulator.Config config(int cores) {
    return new Simulator.Config(
        cores, 5 * MS, 80 * MS, 0, 1_000, List.of(), Simulator.WorkModel.UNITS);
  }

  private static PointResult run(
      DemandProfile profile, String spec, IndexLayout layout, int cores, long... arrivalsMs) {
    long[] arrivals = Arrays.stream(arrivalsMs).map(a -> a * MS).toArray();
    int[] order = new int[arrivals.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i % profile.requests().size();
    }
    return new PeerSimulator(profile, Peer.parse(spec, cores), layout, config(cores))
        .run(arrivals, order, LABELS);
  }

  @Test
  void equalRequestsOnFewerCoresTimeSlicedAllFinishAtTheirWorkTimesTheirCountOverTheCores() {
    // OpenSearch's search pool has 2 * 3 / 2 + 1 = 4 request threads on 2 cores: four 10 ms
    // searches at once share the cores and all end at 4 x 10 / 2 = 20 ms.
    PointResult p =
        run(profile(4, 1, 10), Peer.OPENSEARCH_AUTO, IndexLayout.of(1000), 2, 0, 0, 0, 0);
    assertEquals(4, p.completed());
    assertEquals(20 * MS, p.latencyAt("p50"), 0.01 * 20 * MS);
    assertEquals(20 * MS, p.latencyAt("max"), 0.01 * 20 * MS);
  }

  @Test
  void theSharedCoresEndEqualJobsAtTheirCountTimesTheWorkOverTheCores() {
    SharedCores cores = new SharedCores(3, null);
    for (int i = 0; i < 7; i++) {
      cores.start(new SharedCores.Job(i), 30 * MS, 0);
    }
    long end = cores.nextEnd();
    assertEquals(7 * 30 * MS / 3, end, 1.0);
    assertEquals(null, cores.takeEnded(end - 1_000), "none ends early");
    int ended = 0;
    while (cores.takeEnded(end) != null) {
      ended++;
    }
    assertEquals(7, ended, "every job ended at once");
    assertEquals(Long.MAX_VALUE, cores.nextEnd());
    // One job alone on the cores runs at a core's full speed.
    cores.start(new SharedCores.Job("alone"), 10 * MS, end);
    assertEquals(end + 10 * MS, cores.nextEnd(), 1.0);
  }

  @Test
  void aLoneSearchUnderLucenesExecutorRunsAtItsSlicesSpeedUp() {
    // Four segments of 300,000 documents: four Lucene slices, one a segment. With a pool of 3 and
    // the caller, four threads on four cores run the four 5 ms slices at once.
    IndexLayout four = IndexLayout.of(300_000, 300_000, 300_000, 300_000);
    assertEquals(4, four.luceneSlices().length);
    PointResult p = run(profile(1, 8, 5), "lucene-executor:3", four, 4, 0);
    assertEquals(10 * MS, p.latencyAt("max"), 0.01 * 10 * MS, "40 ms of work at speed-up 4");
    // With a pool of 1, caller and helper split the four slices two and two.
    PointResult two = run(profile(1, 8, 5), "lucene-executor:1", four, 4, 0);
    assertEquals(20 * MS, two.latencyAt("max"), 0.01 * 20 * MS, "40 ms of work at speed-up 2");
    // Plain Lucene runs it on its request thread alone.
    PointResult plain = run(profile(1, 8, 5), Peer.LUCENE, four, 4, 0);
    assertEquals(40 * MS, plain.latencyAt("max"), 0.01 * 40 * MS);
  }

  @Test
  void elasticsearchsRuleGivesOneSliceWhenTheQueueIsLongerThanThePool() {
    IndexLayout four = IndexLayout.of(300_000, 300_000, 300_000, 300_000);
    // Alone, a search on a pool of 2 gets Lucene's four slices capped at 2: 40 ms in 20.
    PointResult alone = run(profile(1, 8, 5), "elasticsearch:2", four, 2, 0);
    assertEquals(20 * MS, alone.latencyAt("max"), 0.01 * 20 * MS);
    assertEquals(1, alone.degreeDistribution().get("all")[2], "two threads on it");
    // Six at once: the first starts with five queued behind it (more than the pool's 2), so it
    // runs as one slice; so does the second, with four behind it.
    PointResult loaded = run(profile(6, 8, 5), "elasticsearch:2", four, 2, 0, 0, 0, 0, 0, 0);
    long[] degrees = loaded.degreeDistribution().get("all");
    assertTrue(
        degrees[1] >= 2, "the first two searches ran on one thread: " + Arrays.toString(degrees));
    assertEquals(6, loaded.completed());
  }

  @Test
  void moreThreadsThanCoresShareThemUnderLucenesExecutor() {
    // Two cores, two request threads and a pool of 2: two lone searches of four 5 ms slices each
    // put four threads on two cores, so both take the 40 ms of work over 2 cores: 40 ms.
    IndexLayout four = IndexLayout.of(300_000, 300_000, 300_000, 300_000);
    PointResult p = run(profile(2, 8, 5), "lucene-executor:2", four, 2, 0, 0);
    assertEquals(40 * MS, p.latencyAt("max"), 0.02 * 40 * MS);
  }

  @Test
  void theSlicingRulesCutAsLuceneElasticsearchAndOpenSearchDo() {
    // Lucene: a segment over 250,000 documents alone; the small ones five to a slice at most.
    IndexLayout layout = IndexLayout.of(400_000, 10, 20, 30, 40, 50, 60, 300_000);
    int[][] lucene = layout.luceneSlices();
    assertEquals(4, lucene.length);
    assertArrayEquals(new int[] {0}, lucene[0]);
    assertArrayEquals(new int[] {7}, lucene[1]);
    assertArrayEquals(new int[] {6, 5, 4, 3, 2}, lucene[2], "largest first, five at most");
    assertArrayEquals(new int[] {1}, lucene[3], "the sixth small one starts a slice of its own");
    // Elasticsearch caps at N, each slice largest first into the lightest.
    int[][] capped = layout.capped(lucene, 2);
    assertEquals(2, capped.length);
    assertArrayEquals(new int[] {0}, capped[0]);
    // OpenSearch: at most the target, never more than the segments.
    assertEquals(2, layout.maxTarget(2).length);
    assertEquals(1, IndexLayout.of(5).maxTarget(4).length);
  }

  @Test
  void aSegmentsWorkIsTheUnitTimeOverItsDocuments() {
    IndexLayout layout = IndexLayout.of(100, 300);
    DemandProfile p = profile(1, 4, 10);
    double[] work = layout.segmentWork(p.requests().get(0).unitWork());
    assertEquals(10 * MS, work[0], 1);
    assertEquals(30 * MS, work[1], 1);
  }

  @Test
  void aPeerACoreCountCannotRunIsRefusedNamingIt() {
    for (String bad : List.of("lucene-executor:0", "elasticsearch:-1", "elasticsearch:x", "fm")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Peer.parse(bad, 4));
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }
    assertTrue(Peer.isSpec("opensearch:auto"));
    assertFalse(Peer.isSpec("fixed:2"));
    assertEquals(2, Peer.parse(Peer.OPENSEARCH, 4).sliceCount());
    assertEquals(4, Peer.parse(Peer.OPENSEARCH, 64).sliceCount());
    assertEquals(97, Peer.parse(Peer.OPENSEARCH, 64).requestThreads());
    // Bare, a pool of one thread per core, named with its count as a real sweep names it.
    assertEquals("lucene-executor:16", Peer.parse("lucene-executor", 16).spec());
    assertEquals(16, Peer.parse("lucene-executor", 16).sliceThreads());
    assertEquals("elasticsearch:4", Peer.parse("elasticsearch", 4).spec());
  }

  @Test
  void aCalibrationWithoutTheCoRunFactorsIsRefusedForThePeersNamingTheField() {
    Calibration v1 =
        new Calibration(
            Calibration.FORMAT,
            1,
            "2026-01-01T00:00:00Z",
            new Calibration.Machine(2, "o"),
            null,
            "test",
            1,
            new long[Calibration.PERCENTILES],
            new long[Calibration.PERCENTILES],
            new long[Calibration.PERCENTILES],
            null,
            null,
            null,
            false);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new PeerSimulator(
                    profile(1, 4, 1),
                    Peer.parse(Peer.LUCENE, 2),
                    IndexLayout.of(10),
                    config(2).withCalibration(v1)));
    assertTrue(e.getMessage().contains("calibration field model"), e.getMessage());
  }

  /**
   * The machine's costs hit plain Lucene as they hit the policies: on one core, two 10 ms searches
   * arrive at once; the first runs its own time, a GC pause of 4 ms follows every answer, and the
   * second, which waited for the request thread, runs at the warm-start factor 0.5: it ends at 10 +
   * 4 + 5 = 19 ms. A stall of 3 ms at a rate of one a second hits a 10 ms search 0.01 times on
   * average: over 200 lone searches the mean latency grows by about 0.03 ms.
   */
  @Test
  void thePeersPayTheMachinesPausesStallsAndWarmStartAsThePoliciesDo() {
    MachineModel warm =
        new MachineModel(
            new MachineModel.Stalls(1_000_000 * MS, 0, 0, CalibrationTest.constant(0)),
            new MachineModel.GcPauses(100, 100, CalibrationTest.constant(4 * MS)),
            new double[] {1.0},
            new long[1],
            0.5);
    PointResult p = luceneOnOneCore(warm, 0, 0);
    assertEquals(10 * MS, p.decodeLatency().getMinValue(), 0.01 * 10 * MS);
    assertEquals(19 * MS, p.decodeLatency().getMaxValue(), 0.01 * 19 * MS);

    MachineModel stalls =
        new MachineModel(
            new MachineModel.Stalls(1_000_000 * MS, 1_000, 0, CalibrationTest.constant(3 * MS)),
            new MachineModel.GcPauses(100, 0, CalibrationTest.constant(0)),
            new double[] {1.0},
            new long[1],
            1.0);
    long[] apart = new long[20_000];
    for (int i = 0; i < apart.length; i++) {
      apart[i] = i * 100 * MS;
    }
    PointResult s = luceneOnOneCore(stalls, apart);
    double meanMs = s.decodeLatency().getMean() / MS;
    assertTrue(meanMs > 10.015 && meanMs < 10.06, "10 ms plus 3 ms x 0.01 on average: " + meanMs);
    assertTrue(s.decodeLatency().getMaxValue() >= 12.9 * MS, "some search was stalled");
  }

  /**
   * 10 ms searches arriving at {@code arrivalsNanos} on plain Lucene, one core, the machine given.
   */
  private static PointResult luceneOnOneCore(MachineModel machine, long... arrivalsNanos) {
    return new PeerSimulator(
            profile(1, 2, 5),
            Peer.parse(Peer.LUCENE, 1),
            IndexLayout.of(1000),
            config(1).withCalibration(MachineModelTest.machineOnly(machine)))
        .run(arrivalsNanos, new int[arrivalsNanos.length], LABELS);
  }

  @Test
  void aLayoutThatIsNoListOfCountsIsRefusedNamingThePiece() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> IndexLayout.parse("10,x,30"));
    assertTrue(e.getMessage().contains("segment 1"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> IndexLayout.parse("10,0"));
    assertEquals("10,20", IndexLayout.parse("10, 20").toString());
  }

  @Test
  void theSameInputsGiveTheSameResult() {
    IndexLayout four = IndexLayout.of(300_000, 300_000, 300_000, 300_000);
    long[] at = {0, 1, 2, 3, 5, 8, 13, 21, 34, 55};
    PointResult a = run(profile(3, 8, 3), "lucene-executor:2", four, 2, at);
    PointResult b = run(profile(3, 8, 3), "lucene-executor:2", four, 2, at);
    assertEquals(a.latencyAt("p99"), b.latencyAt("p99"));
    assertEquals(a.latencyAt("p50"), b.latencyAt("p50"));
  }
}
