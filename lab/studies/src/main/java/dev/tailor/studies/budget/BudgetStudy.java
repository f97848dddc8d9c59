package dev.tailor.studies.budget;

import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The sweep of the elastic-budget study. At each core count and utilization the same arrivals run
 * with a static budget of every thread, with each elastic budget policy, and with the least static
 * budget whose P99 is within the tolerance of the full one (the point of the static curve an
 * operator who knew the load in advance would provision, McClure et al., NSDI'22, Section 4.3). A
 * row gives the threads search was given on average and the P99 it got.
 */
public final class BudgetStudy {

  /** The name of the static budget of every thread in the rows. */
  public static final String STATIC = "static";

  /** The name of the least static budget within the tolerance, in the rows. */
  public static final String STATIC_LEAST = "static-least";

  private final DemandProfile demand;
  private final String policy;
  private final Simulator.Config base;
  private final long periodNanos;
  private final int minBudget;
  private final int requests;
  private final long seed;
  private final double tolerance;
  private final double meanNanos;

  /**
   * A study of {@code demand} under the search policy {@code policy}.
   *
   * @param base the simulator's configuration; its workers are replaced by each core count
   * @param periodNanos the elastic budgets' period
   * @param minBudget the elastic budgets' least threads
   * @param requests arrivals per point, a tenth of them warm-up
   * @param tolerance how much above the static P99 (0.05: 5%) still counts as equal
   * @throws IllegalArgumentException if a figure is out of range or the policy is unknown
   */
  public BudgetStudy(
      DemandProfile demand,
      String policy,
      Simulator.Config base,
      long periodNanos,
      int minBudget,
      int requests,
      long seed,
      double tolerance) {
    this.demand = Objects.requireNonNull(demand, "demand");
    PolicyRegistry.of(policy).close(); // fails early on a bad specification
    this.policy = policy;
    this.base = base;
    if (periodNanos < 1 || minBudget < 1 || requests < 10 || !(tolerance >= 0)) {
      throw new IllegalArgumentException(
          "need a positive period, minBudget >= 1, requests >= 10 and tolerance >= 0");
    }
    this.periodNanos = periodNanos;
    this.minBudget = minBudget;
    this.requests = requests;
    this.seed = seed;
    this.tolerance = tolerance;
    this.meanNanos = demand.meanSequentialNanos();
  }

  /** The mean sequential work of a request, which a utilization is of. */
  public double meanNanos() {
    return meanNanos;
  }

  /**
   * One budget at one point.
   *
   * @param budget {@link #STATIC}, {@link #STATIC_LEAST} or an elastic policy's specification
   * @param meanThreads the threads the budget gave search, averaged over the measured window
   * @param p99Nanos the P99 latency of the measured requests
   * @param p99Ratio that P99 over the static budget's
   * @param saturated whether the queue grew without bound (the P99 then means nothing)
   */
  public record Row(
      String budget, double meanThreads, double p99Nanos, double p99Ratio, boolean saturated) {}

  /** One core count and utilization, and every budget's row there. */
  public record Cell(int cores, double utilization, double ratePerSecond, List<Row> rows) {

    /** The row of the named budget, or null. */
    public Row row(String budget) {
      for (Row r : rows) {
        if (r.budget().equals(budget)) {
          return r;
        }
      }
      return null;
    }

    /** The share of the cores a budget returned: 1 - its mean threads / cores. */
    public double returned(String budget) {
      return 1 - row(budget).meanThreads() / cores;
    }
  }

  /**
   * Runs one point.
   *
   * @param budgets elastic budget specifications ({@link BudgetPolicy#of})
   * @throws IllegalArgumentException if a utilization is not in (0, 1), cores below 1, or a budget
   *     specification is bad
   */
  public Cell run(int cores, double utilization, List<String> budgets) {
    if (cores < 1 || !(utilization > 0 && utilization < 1)) {
      throw new IllegalArgumentException(
          "need cores >= 1 and a utilization in (0, 1), got " + cores + " and " + utilization);
    }
    List<BudgetPolicy> policies = budgets.stream().map(BudgetPolicy::of).toList();
    double rps = utilization * cores * 1e9 / meanNanos;
    PointPlan point =
        SweepPlan.counted("poisson", seed, requests).point(rps, demand.requests().size());
    List<Row> rows = new ArrayList<>();
    Outcome full = simulate(cores, null, point);
    double staticP99 = full.p99();
    rows.add(new Row(STATIC, cores, staticP99, 1, full.result().saturated()));
    for (BudgetPolicy budget : policies) {
      Outcome o = simulate(cores, budget, point);
      rows.add(
          new Row(
              budget.spec(), o.meanBudget(), o.p99(), o.p99() / staticP99, o.result().saturated()));
    }
    rows.add(leastStatic(cores, point, staticP99));
    return new Cell(cores, utilization, rps, rows);
  }

  /**
   * The least static budget k (threads 1..cores, by bisection) whose P99 is within the tolerance of
   * every thread's. The P99 falls as threads are added except for noise, so the bisection is exact
   * for a monotone curve and close otherwise.
   */
  private Row leastStatic(int cores, PointPlan point, double staticP99) {
    int lo = 1;
    int hi = cores;
    double hiP99 = staticP99;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      Outcome o = simulate(mid, null, point);
      if (!o.result().saturated() && o.p99() <= (1 + tolerance) * staticP99) {
        hi = mid;
        hiP99 = o.p99();
      } else {
        lo = mid + 1;
      }
    }
    return new Row(STATIC_LEAST, hi, hiP99, hiP99 / staticP99, false);
  }

  private record Outcome(PointResult result, double meanBudget) {
    double p99() {
      return result.latencyAt("p99");
    }
  }

  /** A run on {@code workers} threads, with an elastic budget unless {@code budget} is null. */
  private Outcome simulate(int workers, BudgetPolicy budget, PointPlan point) {
    // The policy is built afresh per run: a policy may keep state across requests.
    try (Policy p = PolicyRegistry.of(policy)) {
      Simulator sim = new Simulator(demand, p, config(workers));
      if (budget != null) {
        sim.elasticBudget(budget, Math.min(minBudget, workers), periodNanos);
      }
      PointResult r = sim.run(point, "budget");
      return new Outcome(r, sim.meanBudget());
    }
  }

  private Simulator.Config config(int workers) {
    return new Simulator.Config(
        workers,
        base.quantumNanos(),
        base.longThresholdNanos(),
        base.warmupRequests(),
        base.maxBacklog(),
        base.targetsNanos(),
        base.model(),
        base.calibration());
  }
}
