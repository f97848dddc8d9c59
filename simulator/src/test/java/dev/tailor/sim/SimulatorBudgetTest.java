package dev.tailor.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.core.budget.BudgetSample;
import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sim.model.LogNormalProfile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The elastic budget in the simulator: the runtime's rules, on the virtual clock. */
class SimulatorBudgetTest {

  private static final long MS = 1_000_000L;
  private static final PriorityClass I = PriorityClass.INTERACTIVE;
  private static final int[] NO_FLOORS = {0, 0};
  private static final Simulator.Labels LABELS = new Simulator.Labels(1, "test", 7, "test");

  /** A budget policy answering a fixed budget, checking each sample's bounds. */
  private record Fixed(int target, List<BudgetSample> samples) implements BudgetPolicy {
    @Override
    public int resize(BudgetSample last) {
      assertTrue(last.budget() >= last.minBudget() && last.budget() <= last.maxBudget());
      samples.add(last);
      return target;
    }

    @Override
    public String spec() {
      return "fixed-budget:" + target;
    }
  }

  private static DemandProfile oneRequest(long seqMs, long... unitsMs) {
    long[] units = Arrays.stream(unitsMs).map(u -> u * MS).toArray();
    DemandProfile.Request r =
        new DemandProfile.Request(
            "r",
            null,
            "q",
            seqMs * MS,
            units,
            new double[] {1.0, 2.0, 3.0},
            new double[] {1.0, 2.0, 3.0},
            new DemandProfile.Features("test", 1, new long[0], 0));
    return DemandProfile.of(
        new DemandProfile.Environment("i", "test", 1, "t", 2, "j", "o", "now"),
        new DemandProfile.Settings(1, 4, 2, 3),
        true,
        List.of(r));
  }

  private static Simulator.Config units(int workers, int requests) {
    return new Simulator.Config(
        workers, 5 * MS, 80 * MS, requests / 10, 100_000, List.of(), Simulator.WorkModel.UNITS);
  }

  private static final DemandProfile LOGNORMAL =
      LogNormalProfile.generate(LogNormalProfile.Shape.parse("10ms,13ms"), 2_000, 16, 3);

  private static PointPlan point(double utilization, int cores, int requests) {
    double meanNanos = LOGNORMAL.meanSequentialNanos();
    double rps = utilization * cores * 1e9 / meanNanos;
    return SweepPlan.counted("poisson", 5, requests).point(rps, LOGNORMAL.requests().size());
  }

  @Test
  void aShrinkingBudgetSendsHelpersAwayAtTheirNextUnitBoundary() {
    // Six units of 10 ms on three threads; at 5 ms the budget falls to one thread. The helpers
    // finish the unit they are in (at 10 ms) and leave; the own thread does the other three.
    DemandProfile p = oneRequest(60, 10, 10, 10, 10, 10, 10);
    long[] latency = new long[2];
    List<Long> helpsAt = new ArrayList<>();
    for (int run = 0; run < 2; run++) {
      Simulator sim = new Simulator(p, PolicyRegistry.of("fixed:3"), units(3, 1));
      sim.classesPerArrival(new PriorityClass[] {I}, NO_FLOORS);
      if (run == 1) {
        sim.elasticBudget(new Fixed(1, new ArrayList<>()), 1, 5 * MS);
        sim.decisionListener(
            (d, id, v) -> {
              if (d == Dispatcher.Decision.HELP) {
                helpsAt.add(v);
              }
            });
      }
      sim.run(new long[] {0}, new int[] {0}, LABELS);
      latency[run] = sim.classStats(I).p50Nanos();
    }
    assertEquals(List.of(1L, 2L), helpsAt, "two helpers joined at the start, none after");
    assertTrue(latency[0] < latency[1], Arrays.toString(latency));
    assertTrue(latency[1] < 60 * MS, "the helpers' first units were not lost");
    assertTrue(latency[1] >= 40 * MS, "three threads for 10 ms, then one for 30 ms");
  }

  @Test
  void aStaticElasticBudgetDecidesExactlyAsNoBudget() {
    PointPlan plan = point(0.6, 8, 1_500);
    List<String> plain = new ArrayList<>();
    List<String> elastic = new ArrayList<>();
    Simulator a = new Simulator(LOGNORMAL, PolicyRegistry.of("fixed:2"), units(8, 1_500));
    a.decisionListener((d, id, v) -> plain.add(d + " " + id + " " + v));
    a.run(plan, "t");
    Simulator b = new Simulator(LOGNORMAL, PolicyRegistry.of("fixed:2"), units(8, 1_500));
    b.elasticBudget(BudgetPolicy.staticBudget(), 1, MS / 2);
    b.decisionListener((d, id, v) -> elastic.add(d + " " + id + " " + v));
    b.run(plan, "t");
    assertEquals(plain, elastic);
    assertEquals(8.0, b.meanBudget(), 1e-9);
  }

  @Test
  void theRangePoliciesReturnCoresAtLightLoadAndKeepThemAtHeavyLoad() {
    for (String spec : List.of("utilization-range", "delay-range")) {
      double[] mean = new double[2];
      double[] utilizations = {0.3, 0.9};
      for (int i = 0; i < 2; i++) {
        Simulator sim = new Simulator(LOGNORMAL, PolicyRegistry.of("seq"), units(16, 2_000));
        sim.elasticBudget(BudgetPolicy.of(spec), 1, 5 * MS);
        var result = sim.run(point(utilizations[i], 16, 2_000), "t");
        assertEquals(result.sent(), result.completed(), spec + ": every request completes");
        mean[i] = sim.meanBudget();
        assertTrue(mean[i] >= 1 && mean[i] <= 16, spec + " " + mean[i]);
      }
      assertTrue(mean[0] < 0.8 * 16, spec + " returns cores at light load: " + mean[0]);
      assertTrue(mean[1] > mean[0], spec + " keeps more at heavy load: " + Arrays.toString(mean));
    }
  }

  @Test
  void everyRequestCompletesWhileTheBudgetJumps() {
    for (Simulator.WorkModel model : Simulator.WorkModel.values()) {
      java.util.SplittableRandom random = new java.util.SplittableRandom(11);
      BudgetPolicy jumping =
          new BudgetPolicy() {
            @Override
            public int resize(BudgetSample last) {
              return random.nextInt(-2, 20); // clamped to [1, 8]
            }

            @Override
            public String spec() {
              return "jumping";
            }
          };
      Simulator.Config config =
          new Simulator.Config(8, 5 * MS, 80 * MS, 100, 100_000, List.of(), model);
      Simulator sim = new Simulator(LOGNORMAL, PolicyRegistry.of("fixed:4"), config);
      sim.elasticBudget(jumping, 1, MS);
      var result = sim.run(point(0.7, 8, 1_000), "t");
      assertEquals(result.sent(), result.completed(), model.name());
      assertTrue(sim.meanBudget() >= 1 && sim.meanBudget() <= 8, model + " " + sim.meanBudget());
    }
  }

  @Test
  void badBudgetSettingsAreRefused() {
    Simulator sim = new Simulator(LOGNORMAL, PolicyRegistry.of("seq"), units(4, 100));
    BudgetPolicy p = BudgetPolicy.staticBudget();
    assertThrows(IllegalArgumentException.class, () -> sim.elasticBudget(p, 0, MS));
    assertThrows(IllegalArgumentException.class, () -> sim.elasticBudget(p, 5, MS));
    assertThrows(IllegalArgumentException.class, () -> sim.elasticBudget(p, 1, 0));
  }
}
