package dev.tailor.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Priority classes in the simulator: admission order, promptness, the floor, and the mix. */
class SimulatorClassesTest {

  private static final long MS = 1_000_000L;
  private static final PriorityClass I = PriorityClass.INTERACTIVE;
  private static final PriorityClass B = PriorityClass.BACKGROUND;
  private static final int[] STRICT = {0, 0};
  private static final Simulator.Labels LABELS = new Simulator.Labels(1, "test", 7, "test");

  /** A request of {@code seqMs} whose units are {@code unitsMs} (the rest is its serial part). */
  private static DemandProfile.Request request(long seqMs, long... unitsMs) {
    long[] units = Arrays.stream(unitsMs).map(u -> u * MS).toArray();
    return new DemandProfile.Request(
        "r" + seqMs,
        null,
        "q",
        seqMs * MS,
        units,
        new double[] {1.0},
        new double[] {1.5},
        new DemandProfile.Features("test", 1, new long[0], 0));
  }

  private static DemandProfile profile(DemandProfile.Request... requests) {
    return DemandProfile.of(
        new DemandProfile.Environment("i", "test", 1, "t", 2, "j", "o", "now"),
        new DemandProfile.Settings(1, 4, 2, 3),
        true,
        List.of(requests));
  }

  private static Simulator.Config units(int workers) {
    return new Simulator.Config(
        workers, 5 * MS, 80 * MS, 0, 100_000, List.of(), Simulator.WorkModel.UNITS);
  }

  /** The request ids in the order they were admitted. */
  private static List<Long> starts(Simulator sim, long[] arrivals, int[] order) {
    List<Long> started = new ArrayList<>();
    sim.decisionListener(
        (d, id, v) -> {
          if (d == Dispatcher.Decision.START) {
            started.add(id);
          }
        });
    sim.run(arrivals, order, LABELS);
    return started;
  }

  @Test
  void aQueuedInteractiveRequestIsAdmittedBeforeAnOlderBackgroundOne() {
    DemandProfile p = profile(request(10, 10));
    long[] arrivals = {0, MS, 2 * MS};
    int[] order = {0, 0, 0};
    Simulator classes = new Simulator(p, PolicyRegistry.of("seq"), units(1));
    classes.classesPerArrival(new PriorityClass[] {I, B, I}, STRICT);
    assertEquals(List.of(0L, 2L, 1L), starts(classes, arrivals, order));
    Simulator oneClass = new Simulator(p, PolicyRegistry.of("seq"), units(1));
    assertEquals(List.of(0L, 1L, 2L), starts(oneClass, arrivals, order), "oldest first");
  }

  @Test
  void aBackgroundHelperLeavesAtItsNextUnitBoundaryWhenInteractiveWorkWaits() {
    // Background: serial 10 ms, then six units of 10 ms on two threads of two. The interactive
    // request (one unit of 10 ms) arrives at 15 ms and starts at once beside both, three threads
    // time-sliced on two cores: the helper's unit, 5 ms from its end, ends at 22.5 ms, and the
    // helper leaves there, as own threads fill the budget; the arrival, 5 ms of its 10 done, ends
    // at 27.5 ms.
    DemandProfile p = profile(request(70, 10, 10, 10, 10, 10, 10), request(10, 10));
    long[] arrivals = {0, 15 * MS};
    int[] order = {0, 1};
    Simulator classes = new Simulator(p, PolicyRegistry.of("fixed:2"), units(2));
    classes.classesPerArrival(new PriorityClass[] {B, I}, Dispatcher.defaultFloors());
    classes.run(arrivals, order, LABELS);
    assertEquals(12_500_000, classes.classStats(I).p99Nanos(), "admitted at 15 ms, done at 27.5");
    // Both interactive: under prompt admission the same, whatever the class; without it, the
    // helper stays, and the request waits until the units are done.
    Simulator prompt = new Simulator(p, PolicyRegistry.of("fixed:2"), units(2));
    prompt.classesPerArrival(new PriorityClass[] {I, I}, Dispatcher.defaultFloors());
    prompt.run(arrivals, order, LABELS);
    assertEquals(12_500_000, prompt.classStats(I).p50Nanos(), "admitted at 15 ms, done at 27.5");
    Simulator oneClass = new Simulator(p, PolicyRegistry.of("fixed:2"), units(2));
    oneClass.promptAdmission(false);
    oneClass.classesPerArrival(new PriorityClass[] {I, I}, Dispatcher.defaultFloors());
    oneClass.run(arrivals, order, LABELS);
    assertEquals(35 * MS, oneClass.classStats(I).p50Nanos(), "admitted at 40 ms, done at 50 ms");
  }

  @Test
  void theFloorKeepsBackgroundProgressingUnderSustainedInteractiveLoad() {
    // Two interactive requests of 10 ms at 0 fill both threads; one background request arrives at
    // 1 ms; then interactive ones every 4 ms, more than two threads serve: the queue never empties.
    int n = 60;
    long[] arrivals = new long[n];
    int[] order = new int[n];
    PriorityClass[] kinds = new PriorityClass[n];
    for (int i = 0; i < n; i++) {
      arrivals[i] = i < 2 ? 0 : i == 2 ? MS : (i - 2) * 4 * MS;
      kinds[i] = i == 2 ? B : I;
    }
    DemandProfile p = profile(request(10, 10));
    Simulator strict = new Simulator(p, PolicyRegistry.of("seq"), units(2));
    strict.classesPerArrival(kinds, STRICT);
    List<Long> strictStarts = starts(strict, arrivals, order);
    assertEquals(n - 1, strictStarts.indexOf(2L), "strict priority: background starves to the end");

    Simulator floor = new Simulator(p, PolicyRegistry.of("seq"), units(2));
    floor.classesPerArrival(kinds, Dispatcher.defaultFloors());
    List<Long> floorStarts = starts(floor, arrivals, order);
    assertTrue(
        floorStarts.indexOf(2L) == 2,
        "a floor of one thread: background starts at the first free slot, " + floorStarts);
    assertEquals(n, floorStarts.size());
  }

  @Test
  void withEveryRequestInOneClassTheResultIsTheSame() {
    DemandProfile p =
        profile(request(70, 10, 10, 10, 10, 10, 10), request(10, 10), request(30, 5, 5, 5, 5));
    int n = 300;
    long[] arrivals = new long[n];
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      arrivals[i] = i * 9 * MS;
      order[i] = i % 3;
    }
    for (String policy : List.of("fixed:2", "adaptive", "seq")) {
      PointResult plain =
          new Simulator(p, PolicyRegistry.of(policy), units(4)).run(arrivals, order, LABELS);
      Simulator mixed = new Simulator(p, PolicyRegistry.of(policy), units(4));
      mixed.classes(ClassMix.parse("interactive:1"), Dispatcher.defaultFloors());
      PointResult one = mixed.run(arrivals, order, LABELS);
      assertEquals(plain.latency(), one.latency(), policy);
      assertEquals(n, mixed.classStats(I).completed());
    }
  }

  @Test
  void aMixDrawsClassesFromTheSeedAndScalesTheirWork() {
    ClassMix mix = ClassMix.parse("interactive:0.9, background:0.1:x10");
    assertEquals(1.9, mix.meanScale(), 1e-12);
    assertEquals("interactive:0.9,background:0.1:x10", mix.toString());
    PriorityClass[] a = mix.assign(10_000, 3);
    assertEquals(Arrays.asList(a), Arrays.asList(mix.assign(10_000, 3)), "reproducible");
    long background = Arrays.stream(a).filter(c -> c == B).count();
    assertTrue(background > 800 && background < 1200, "about 10%: " + background);

    // A lone background request at x10 takes ten times its profiled time.
    Simulator sim = new Simulator(profile(request(10, 10)), PolicyRegistry.of("seq"), units(1));
    sim.classes(ClassMix.parse("background:1:x10"), Dispatcher.defaultFloors());
    sim.run(new long[] {0}, new int[] {0}, LABELS);
    assertEquals(100 * MS, sim.classStats(B).p99Nanos());
  }

  @Test
  void aBadMixIsRefusedNamingTheEntry() {
    assertEquals(
        "mix 'interactive:0.5': the fractions must sum to 1, they sum to 0.5",
        assertThrows(IllegalArgumentException.class, () -> ClassMix.parse("interactive:0.5"))
            .getMessage());
    assertEquals(
        "mix entry 'urgent:1': unknown priority class 'urgent', expected interactive or"
            + " background",
        assertThrows(IllegalArgumentException.class, () -> ClassMix.parse("urgent:1"))
            .getMessage());
    assertEquals(
        "mix entry 'background:1:10': scale must be written xF (e.g. x10), got 10",
        assertThrows(IllegalArgumentException.class, () -> ClassMix.parse("background:1:10"))
            .getMessage());
  }

  @Test
  void promptAdmissionGivesAHelpersThreadToAnArrivalUnderStealFirst() {
    // A: ten units of 10 ms on both threads (steal-first helps it). B and C, 1 ms each, arrive at
    // 5 and 6 ms. Promptly, the helper gives way at its first boundary (10 ms: a prompt helper
    // claims one unit, which is longer than a millisecond) and B then C run there; otherwise they
    // wait until no unit of A is left to steal.
    DemandProfile p = profile(request(100, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10), request(1, 1));
    long[] arrivals = {0, 5 * MS, 6 * MS};
    int[] order = {0, 1, 1};
    PriorityClass[] kinds = {I, I, I};
    Simulator prompt = new Simulator(p, PolicyRegistry.of("steal-first"), units(2));
    prompt.classesPerArrival(kinds, Dispatcher.defaultFloors());
    prompt.run(arrivals, order, LABELS);
    assertTrue(
        prompt.classStats(I).p50Nanos() <= 10 * MS,
        "B and C served near A's first boundary: p50 " + prompt.classStats(I).p50Nanos());
    Simulator late = new Simulator(p, PolicyRegistry.of("steal-first"), units(2));
    late.promptAdmission(false);
    late.classesPerArrival(kinds, Dispatcher.defaultFloors());
    late.run(arrivals, order, LABELS);
    assertTrue(
        late.classStats(I).p50Nanos() >= 30 * MS,
        "B and C wait for A's units: p50 " + late.classStats(I).p50Nanos());
  }

  @Test
  void anArrivalIsAdmittedWithinThePromptBoundAndTheRunningRequestsOwnThreadIsNotCut() {
    // A: 40 units of 0.25 ms on both threads under steal-first. B, one unit of 0.25 ms, arrives at
    // 2 ms, while A's helper runs A's units. A prompt helper claims 1 ms of units at A's pace (4),
    // so B waits at most the bound and one unit more; A's own thread keeps working throughout, so
    // A still ends within its work on one thread (10 ms) plus B's unit.
    long unit = MS / 4;
    long[] aUnits = new long[40];
    Arrays.fill(aUnits, unit);
    DemandProfile.Request a =
        new DemandProfile.Request(
            "a",
            null,
            "q",
            40 * unit,
            aUnits,
            new double[] {1.0},
            new double[] {1.9},
            new DemandProfile.Features("test", 1, new long[0], 0));
    DemandProfile.Request b =
        new DemandProfile.Request(
            "b",
            null,
            "q",
            unit,
            new long[] {unit},
            new double[] {1.0},
            new double[] {1.0},
            new DemandProfile.Features("test", 1, new long[0], 0));
    DemandProfile p = profile(a, b);
    long[] arrivals = {0, 2 * MS};
    int[] order = {0, 1};
    PointResult r =
        new Simulator(p, PolicyRegistry.of("steal-first"), units(2)).run(arrivals, order, LABELS);
    assertEquals(2, r.completed());
    assertTrue(
        r.queueing().get("max") <= dev.tailor.core.model.GuidedClaims.PROMPT_NANOS + unit,
        "B waited at most the bound and a unit: " + r.queueing());
    assertTrue(r.latency().get("max") <= 12 * MS, "A's own thread was not cut: " + r.latency());
  }
}
