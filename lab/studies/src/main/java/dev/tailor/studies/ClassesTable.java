package dev.tailor.studies;

import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PooledLatency;
import dev.tailor.sim.ClassMix;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The priority-class study: at each utilization, one mix of classes simulated with classes on and
 * off, and its interactive requests alone; a row gives the interactive P99 of each, their ratios to
 * the P99 alone, and the background's P99 and throughput. Over several seeds (each its own workload
 * draw and arrivals) every P99 is pooled over the seeds' requests with its 95% interval by
 * bootstrap over the seeds ({@link PooledLatency}), a ratio paired by seed; throughputs and the
 * arrival rate are means over the seeds.
 */
public final class ClassesTable implements Study<Double> {

  private static final ClassMix ALONE = ClassMix.parse("interactive:1");

  /**
   * One seed's inputs.
   *
   * @param seed the seed of its arrivals and request order
   * @param demand its workload
   * @param config how to simulate it
   */
  public record Seeded(long seed, DemandProfile demand, Simulator.Config config) {}

  private final List<Seeded> seeds;
  private final List<SweepPlan> plans;
  private final String policy;
  private final ClassMix mix;
  private final int[] floors;
  private final List<Double> utilizations;

  /**
   * The study of {@code mix} under {@code policy}, each seed on its config's cores with {@code
   * requests} Poisson arrivals a point, the background's floor of threads in {@code floors}.
   *
   * @throws IllegalArgumentException if there is no seed
   */
  public ClassesTable(
      List<Seeded> seeds,
      int requests,
      String policy,
      ClassMix mix,
      int[] floors,
      List<Double> utilizations) {
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("the study needs at least one seed");
    }
    this.seeds = List.copyOf(seeds);
    this.plans = seeds.stream().map(x -> SweepPlan.counted("poisson", x.seed(), requests)).toList();
    this.policy = policy;
    this.mix = mix;
    this.floors = floors.clone();
    this.utilizations = List.copyOf(utilizations);
  }

  /**
   * The line that heads the study: cores, policy, mix, the background's floor, the mean work, the
   * seeds.
   */
  public String describe() {
    double[] work =
        seeds.stream().mapToDouble(x -> x.demand().meanSequentialNanos() / 1e6).sorted().toArray();
    String meanWork =
        work.length == 1
            ? Cells.f("%.2f ms", work[0])
            : Cells.f("%.2f-%.2f ms", work[0], work[work.length - 1]);
    String over =
        seeds.size() == 1
            ? "seed " + seeds.get(0).seed()
            : Cells.f(
                "seeds %d-%d, each P99 pooled over them with its 95%% interval by bootstrap over"
                    + " the seeds",
                seeds.get(0).seed(), seeds.get(seeds.size() - 1).seed());
    return Cells.f(
        "%d cores, policy %s, mix %s, background floor %d thread(s), mean profiled work %s, unit"
            + " model, %s",
        seeds.get(0).config().workers(),
        policy,
        mix,
        floors[PriorityClass.BACKGROUND.ordinal()],
        meanWork,
        over);
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
    List<Histogram> alone = new ArrayList<>();
    List<Histogram> off = new ArrayList<>();
    List<Histogram> on = new ArrayList<>();
    List<Histogram> background = new ArrayList<>();
    double rps = 0;
    double onRps = 0;
    double offRps = 0;
    double interactiveShare = mix.fraction(PriorityClass.INTERACTIVE);
    for (int i = 0; i < seeds.size(); i++) {
      Seeded x = seeds.get(i);
      double r =
          u * x.config().workers() * 1e9 / (x.demand().meanSequentialNanos() * mix.meanScale());
      Simulator a = simulate(x, plans.get(i), r * interactiveShare, ALONE, true);
      alone.add(a.classLatency(PriorityClass.INTERACTIVE));
      Simulator mixedOff = simulate(x, plans.get(i), r, mix, false);
      off.add(mixedOff.classLatency(PriorityClass.INTERACTIVE));
      offRps += mixedOff.classStats(PriorityClass.BACKGROUND).throughputRps();
      Simulator mixedOn = simulate(x, plans.get(i), r, mix, true);
      on.add(mixedOn.classLatency(PriorityClass.INTERACTIVE));
      background.add(mixedOn.classLatency(PriorityClass.BACKGROUND));
      onRps += mixedOn.classStats(PriorityClass.BACKGROUND).throughputRps();
      rps += r;
    }
    int n = seeds.size();
    PooledLatency aloneP = PooledLatency.of(alone);
    PooledLatency offP = PooledLatency.of(off);
    PooledLatency onP = PooledLatency.of(on);
    return List.of(
        Cells.f("%.2f", u),
        Cells.f("%.1f", rps / n),
        ms(aloneP),
        ms(offP),
        ms(onP),
        offP.ratioTo(aloneP, 99).format("%.2f"),
        onP.ratioTo(aloneP, 99).format("%.2f"),
        ms(PooledLatency.of(background)),
        Cells.f("%.1f", onRps / n),
        Cells.f("%.1f", offRps / n));
  }

  /** The pooled P99 in milliseconds, with its interval over several seeds. */
  private static String ms(PooledLatency p) {
    return p.at(99).times(1e-6).format("%.2f");
  }

  private Simulator simulate(
      Seeded x, SweepPlan plan, double rps, ClassMix classes, boolean prioritized) {
    try (Policy p = PolicyRegistry.of(policy)) {
      Simulator sim = new Simulator(x.demand(), p, x.config());
      sim.classes(classes, floors, prioritized);
      sim.run(plan.point(rps, x.demand().requests().size()), "classes");
      return sim;
    }
  }
}
