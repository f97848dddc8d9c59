package dev.tailor.tables;

import dev.tailor.core.policy.DegreeCap;
import dev.tailor.core.policy.FewToManyPolicy;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TableSource;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sim.model.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Chooses a Few-to-Many table's rule inputs ({@code tables tune}): ρ and qs under the throughput
 * rule, target_p under the paper's. Which inputs suit a workload depends on how its requests queue,
 * which the model behind the tables does not see, so the tuner asks the simulator, and keeps the
 * answer honest by tuning on one part of the profile and checking on another:
 *
 * <ol>
 *   <li>the profile's requests are split in two halves by a seeded shuffle: the tuning half and the
 *       check half;
 *   <li>for every candidate, a table is built from the tuning half and its policy simulated there,
 *       at every load, on arrivals of one seed, beside the baselines on the same arrivals; its
 *       score is its worst ratio of P99 to the best baseline's over the loads (a saturated point
 *       scores infinity), then its mean ratio;
 *   <li>the best candidate's table is simulated on the check half, on arrivals of another seed,
 *       against the baselines there; that score is reported, not optimised;
 *   <li>the final table is built from the whole profile with the chosen inputs, which it records
 *       with both scores.
 * </ol>
 *
 * Every policy, the baselines included, runs under one degree cap, the table's highest degree. The
 * outcome is deterministic for a seed.
 */
public final class FmTableTuner {

  /**
   * What to tune and how to judge it.
   *
   * @param grid the table's grid; its rule is replaced by each candidate
   * @param candidates the rules to try, all of one mode
   * @param policy the policy that reads the table: {@code fm} or {@code fm-wc}
   * @param baselines the baselines' specifications
   * @param rps the loads, requests per second
   * @param simulation the simulator's configuration (cores, model, ...)
   * @param requests requests per simulated point
   * @param seed the split's and the tuning arrivals' seed; the check uses {@code seed + 1}
   */
  public record Plan(
      FmTableBuilder.Options grid,
      List<IntervalTable.Rule> candidates,
      String policy,
      List<String> baselines,
      List<Double> rps,
      Simulator.Config simulation,
      int requests,
      long seed) {

    /** Checks the plan. */
    public Plan {
      candidates = List.copyOf(candidates);
      baselines = List.copyOf(baselines);
      rps = List.copyOf(rps);
      if (candidates.isEmpty() || baselines.isEmpty() || rps.isEmpty()) {
        throw new IllegalArgumentException("tuning needs candidates, baselines and loads");
      }
      if (!policy.equals("fm") && !policy.equals("fm-wc")) {
        throw new IllegalArgumentException("the policy must be fm or fm-wc, got " + policy);
      }
    }
  }

  /**
   * One candidate's outcome on the tuning half.
   *
   * @param rule the candidate
   * @param ratios per load, its P99 over the best baseline's (infinite if saturated)
   */
  public record Trial(IntervalTable.Rule rule, double[] ratios) {
    /** The worst ratio over the loads. */
    public double worst() {
      double w = 0;
      for (double r : ratios) {
        w = Math.max(w, r);
      }
      return w;
    }

    /** The geometric mean of the ratios. */
    public double mean() {
      double sum = 0;
      for (double r : ratios) {
        sum += Math.log(r);
      }
      return Math.exp(sum / ratios.length);
    }

    boolean betterThan(Trial o) {
      int c = Double.compare(worst(), o.worst());
      return c < 0 || (c == 0 && mean() < o.mean());
    }

    /** The ratios in one line. */
    public String describe() {
      StringBuilder out = new StringBuilder();
      for (double r : ratios) {
        out.append(out.isEmpty() ? "" : " ").append(format(r));
      }
      return String.format(
          Locale.ROOT, "%-48s worst %s, mean %s  (%s)", rule, format(worst()), format(mean()), out);
    }
  }

  /**
   * The outcome of a tuning.
   *
   * @param trials every candidate on the tuning half, in the order tried
   * @param chosen the best of them
   * @param check the chosen rule's table on the check half
   * @param table the table from the whole profile with the chosen rule, recording the tuning
   */
  public record Tuned(List<Trial> trials, Trial chosen, Trial check, IntervalTable table) {}

  private final Plan plan;

  /** A tuner for a plan. */
  public FmTableTuner(Plan plan) {
    this.plan = plan;
  }

  /**
   * Tunes, reporting each trial as it finishes.
   *
   * @param profileName the profile's file, recorded in the table
   * @param profileDigest the profile's digest, recorded in the table
   */
  public Tuned tune(
      DemandProfile profile, String profileName, String profileDigest, Consumer<Trial> onTrial) {
    DemandProfile[] halves = split(profile, plan.seed());
    DemandProfile tuning = halves[0];
    DemandProfile check = halves[1];
    FmTableBuilder builder = new FmTableBuilder(plan.grid());
    FmTableBuilder.Prepared prepared = builder.prepare(Workload.of(tuning));
    double[] tuningBaseline = bestBaselines(tuning, plan.seed());
    List<Trial> trials = new ArrayList<>();
    Trial chosen = null;
    for (IntervalTable.Rule rule : plan.candidates()) {
      IntervalTable table = prepared.table(rule, profileName, profileDigest, null);
      Trial t = new Trial(rule, ratios(table, tuning, plan.seed(), tuningBaseline));
      trials.add(t);
      onTrial.accept(t);
      if (chosen == null || t.betterThan(chosen)) {
        chosen = t;
      }
    }
    IntervalTable chosenTable = prepared.table(chosen.rule(), profileName, profileDigest, null);
    double[] checkBaseline = bestBaselines(check, plan.seed() + 1);
    Trial checked =
        new Trial(chosen.rule(), ratios(chosenTable, check, plan.seed() + 1, checkBaseline));
    String record =
        String.format(
            Locale.ROOT,
            "tables tune: best of %d candidates on half the profile (%d requests, seed %d) at %s"
                + " rps, P99 over the best of %s: worst %s, mean %s; on the other half (%d"
                + " requests, seed %d): worst %s, mean %s",
            trials.size(),
            tuning.requests().size(),
            plan.seed(),
            String.join(",", plan.rps().stream().map(FmTableTuner::rate).toList()),
            String.join(" ", plan.baselines()),
            format(chosen.worst()),
            format(chosen.mean()),
            check.requests().size(),
            plan.seed() + 1,
            format(checked.worst()),
            format(checked.mean()));
    IntervalTable table =
        builder
            .prepare(Workload.of(profile))
            .table(chosen.rule(), profileName, profileDigest, record);
    return new Tuned(List.copyOf(trials), chosen, checked, table);
  }

  /** The profile's requests in two halves, by a shuffle of the given seed. */
  static DemandProfile[] split(DemandProfile profile, long seed) {
    List<DemandProfile.Request> all = new ArrayList<>(profile.requests());
    if (all.size() < 2) {
      throw new IllegalArgumentException("tuning needs a profile of at least 2 requests");
    }
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = all.size() - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      DemandProfile.Request t = all.get(i);
      all.set(i, all.get(j));
      all.set(j, t);
    }
    int half = all.size() / 2;
    return new DemandProfile[] {
      withRequests(profile, all.subList(0, half)),
      withRequests(profile, all.subList(half, all.size()))
    };
  }

  private static DemandProfile withRequests(DemandProfile p, List<DemandProfile.Request> requests) {
    return DemandProfile.of(p.environment(), p.settings(), p.complete(), p.conditions(), requests);
  }

  /** Per load, the lowest P99 of the baselines (infinite if every one saturated). */
  private double[] bestBaselines(DemandProfile profile, long seed) {
    double[] best = new double[plan.rps().size()];
    for (int i = 0; i < best.length; i++) {
      best[i] = Double.POSITIVE_INFINITY;
      for (String spec : plan.baselines()) {
        try (Policy p = DegreeCap.of(PolicyRegistry.of(spec), plan.grid().maxDegree())) {
          best[i] = Math.min(best[i], p99(simulate(p, profile, seed, i)));
        }
      }
    }
    return best;
  }

  private double[] ratios(IntervalTable table, DemandProfile profile, long seed, double[] best) {
    double[] ratios = new double[best.length];
    try (TableSource<IntervalTable> source = TableSource.fixed(table)) {
      for (int i = 0; i < ratios.length; i++) {
        Policy fm =
            plan.policy().equals("fm")
                ? FewToManyPolicy.of(source)
                : FewToManyPolicy.workConserving(source);
        try (Policy capped = DegreeCap.of(fm, plan.grid().maxDegree())) {
          double p99 = p99(simulate(capped, profile, seed, i));
          // A load every baseline saturates at says nothing about the inputs: neutral.
          ratios[i] = Double.isInfinite(best[i]) ? 1 : p99 / best[i];
        }
      }
    }
    return ratios;
  }

  private PointResult simulate(Policy policy, DemandProfile profile, long seed, int load) {
    SweepPlan sweep = SweepPlan.counted("poisson", seed, plan.requests());
    return new Simulator(profile, policy, plan.simulation())
        .run(sweep.point(plan.rps().get(load), profile.requests().size()), "tuning");
  }

  private static double p99(PointResult r) {
    return r.saturated() ? Double.POSITIVE_INFINITY : r.latencyAt("p99");
  }

  private static String rate(double rps) {
    return rps == Math.rint(rps) ? Long.toString((long) rps) : Double.toString(rps);
  }

  private static String format(double v) {
    return Double.isInfinite(v) ? "sat." : String.format(Locale.ROOT, "%.3g", v);
  }
}
