package dev.tailor.tables;

import dev.tailor.core.policy.FewToManyPolicy;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TableSource;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.model.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
      return BaselineComparison.worst(ratios);
    }

    /** The geometric mean of the ratios. */
    public double mean() {
      return BaselineComparison.mean(ratios);
    }

    boolean betterThan(Trial o) {
      return BaselineComparison.better(ratios, o.ratios);
    }

    /** The ratios in one line. */
    public String describe() {
      return BaselineComparison.describe(rule, ratios);
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
    BaselineComparison.Halves halves = BaselineComparison.split(profile, plan.seed());
    DemandProfile tuning = halves.tuning();
    DemandProfile check = halves.check();
    FmTableBuilder builder = new FmTableBuilder(plan.grid());
    FmTableBuilder.Prepared prepared = builder.prepare(Workload.of(tuning));
    BaselineComparison comparison =
        new BaselineComparison(
            plan.baselines(),
            plan.rps(),
            plan.simulation(),
            plan.requests(),
            plan.grid().maxDegree());
    double[] tuningBaseline = comparison.bestBaselines(tuning, plan.seed());
    List<Trial> trials = new ArrayList<>();
    Trial chosen = null;
    for (IntervalTable.Rule rule : plan.candidates()) {
      IntervalTable table = prepared.table(rule, profileName, profileDigest, null);
      Trial t = new Trial(rule, ratios(comparison, table, tuning, plan.seed(), tuningBaseline));
      trials.add(t);
      onTrial.accept(t);
      if (chosen == null || t.betterThan(chosen)) {
        chosen = t;
      }
    }
    IntervalTable chosenTable = prepared.table(chosen.rule(), profileName, profileDigest, null);
    long checkSeed = plan.seed() + 1;
    double[] checkBaseline = comparison.bestBaselines(check, checkSeed);
    Trial checked =
        new Trial(chosen.rule(), ratios(comparison, chosenTable, check, checkSeed, checkBaseline));
    String record =
        String.format(
            Locale.ROOT,
            "tables tune: best of %d candidates on half the profile (%d requests, seed %d) at %s"
                + " rps, P99 over the best of %s: worst %s, mean %s; on the other half (%d"
                + " requests, seed %d): worst %s, mean %s",
            trials.size(),
            tuning.requests().size(),
            plan.seed(),
            String.join(",", plan.rps().stream().map(BaselineComparison::rate).toList()),
            String.join(" ", plan.baselines()),
            BaselineComparison.format(chosen.worst()),
            BaselineComparison.format(chosen.mean()),
            check.requests().size(),
            checkSeed,
            BaselineComparison.format(checked.worst()),
            BaselineComparison.format(checked.mean()));
    IntervalTable table =
        builder
            .prepare(Workload.of(profile))
            .table(chosen.rule(), profileName, profileDigest, record);
    return new Tuned(List.copyOf(trials), chosen, checked, table);
  }

  private double[] ratios(
      BaselineComparison comparison,
      IntervalTable table,
      DemandProfile profile,
      long seed,
      double[] best) {
    try (TableSource<IntervalTable> source = TableSource.fixed(table)) {
      return comparison.ratios(
          load ->
              plan.policy().equals("fm")
                  ? FewToManyPolicy.of(source)
                  : FewToManyPolicy.workConserving(source),
          profile,
          seed,
          best);
    }
  }
}
