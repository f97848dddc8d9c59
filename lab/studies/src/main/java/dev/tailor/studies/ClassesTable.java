package dev.tailor.studies;

import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.ClassMix;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import java.util.List;

/**
 * The priority-class study: at each utilization, one mix of classes simulated with classes on and
 * off, and its interactive requests alone; a row gives the interactive P99 of each, their ratios to
 * the P99 alone, and the background's P99 and throughput.
 */
public final class ClassesTable implements Study<Double> {

  private static final ClassMix ALONE = ClassMix.parse("interactive:1");

  private final DemandProfile demand;
  private final Simulator.Config config;
  private final SweepPlan plan;
  private final String policy;
  private final ClassMix mix;
  private final int[] floors;
  private final List<Double> utilizations;

  /**
   * The study of {@code mix} under {@code policy} on {@code config}'s cores, its arrivals Poisson
   * from {@code seed}, the background's floor of threads in {@code floors}.
   */
  public ClassesTable(
      DemandProfile demand,
      Simulator.Config config,
      long seed,
      int requests,
      String policy,
      ClassMix mix,
      int[] floors,
      List<Double> utilizations) {
    this.demand = demand;
    this.config = config;
    this.plan = SweepPlan.counted("poisson", seed, requests);
    this.policy = policy;
    this.mix = mix;
    this.floors = floors.clone();
    this.utilizations = List.copyOf(utilizations);
  }

  /** The line that heads the study: cores, policy, mix, the background's floor, the mean work. */
  public String describe() {
    return Cells.f(
        "%d cores, policy %s, mix %s, background floor %d thread(s), mean profiled work %.2f ms,"
            + " unit model",
        config.workers(),
        policy,
        mix,
        floors[PriorityClass.BACKGROUND.ordinal()],
        demand.meanSequentialNanos() / 1e6);
  }

  @Override
  public List<Table.Column> columns() {
    return List.of(
        Table.Column.number("util"),
        Table.Column.number("rps"),
        Table.Column.number("interactive P99 ms: alone"),
        Table.Column.number("off"),
        Table.Column.number("on"),
        Table.Column.number("off/alone"),
        Table.Column.number("on/alone"),
        Table.Column.number("background: P99 on ms"),
        Table.Column.number("rps on"),
        Table.Column.number("rps off"));
  }

  @Override
  public List<Double> points() {
    return utilizations;
  }

  @Override
  public List<String> run(Double u) {
    double rps = u * config.workers() * 1e9 / (demand.meanSequentialNanos() * mix.meanScale());
    double interactiveShare = mix.fraction(PriorityClass.INTERACTIVE);
    Simulator.ClassStats alone =
        simulate(rps * interactiveShare, ALONE, true).classStats(PriorityClass.INTERACTIVE);
    Simulator off = simulate(rps, mix, false);
    Simulator on = simulate(rps, mix, true);
    Simulator.ClassStats offI = off.classStats(PriorityClass.INTERACTIVE);
    Simulator.ClassStats onI = on.classStats(PriorityClass.INTERACTIVE);
    Simulator.ClassStats onB = on.classStats(PriorityClass.BACKGROUND);
    return List.of(
        Cells.f("%.2f", u),
        Cells.f("%.1f", rps),
        Cells.f("%.2f", alone.p99Nanos() / 1e6),
        Cells.f("%.2f", offI.p99Nanos() / 1e6),
        Cells.f("%.2f", onI.p99Nanos() / 1e6),
        ratio(offI, alone),
        ratio(onI, alone),
        Cells.f("%.2f", onB.p99Nanos() / 1e6),
        Cells.f("%.1f", onB.throughputRps()),
        Cells.f("%.1f", off.classStats(PriorityClass.BACKGROUND).throughputRps()));
  }

  private static String ratio(Simulator.ClassStats a, Simulator.ClassStats b) {
    return b.p99Nanos() == 0 ? "-" : Cells.f("%.2f", (double) a.p99Nanos() / b.p99Nanos());
  }

  private Simulator simulate(double rps, ClassMix classes, boolean prioritized) {
    try (Policy p = PolicyRegistry.of(policy)) {
      Simulator sim = new Simulator(demand, p, config);
      sim.classes(classes, floors, prioritized);
      sim.run(plan.point(rps, demand.requests().size()), "classes");
      return sim;
    }
  }
}
