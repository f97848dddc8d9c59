package dev.tailor.tables;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.tailor.core.Durations;
import dev.tailor.core.json.JsonFile;
import dev.tailor.core.policy.ProgressPolicy;
import dev.tailor.core.table.TableSource;
import dev.tailor.core.table.TargetTable;
import dev.tailor.core.table.ThresholdTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.DoubleFunction;

/**
 * Chooses the progress-aware policy's table inputs ({@code tables tune progress}): the target
 * table's load metric and the latency target its threshold tables are built for, or none (the
 * policy never serializes). The tuning follows {@link FmTableTuner}'s discipline:
 *
 * <ol>
 *   <li>the profile's requests are split in two halves by a seeded shuffle, as for Few-to-Many: the
 *       tuning half and the check half;
 *   <li>from the tuning half, one target table per load metric ({@link
 *       TpcTableBuilder#forProgress()}, at the tuning loads) and, per serialization target, one
 *       threshold table per load ({@link TcTableBuilder}); each candidate pairs a load metric with
 *       a serialization target, and its {@code progress} policy is simulated on the tuning half at
 *       every load, on arrivals of one seed, beside the baselines; its score is its worst ratio of
 *       P99 to the best baseline's over the loads (a saturated point scores infinity), then its
 *       mean ratio; a tie goes to the candidate tried first;
 *   <li>the best candidate's tables from the tuning half are simulated on the check half, on
 *       arrivals of another seed, against the baselines there; that score is reported, not
 *       optimised;
 *   <li>the final tables are built from the whole profile with the chosen inputs.
 * </ol>
 *
 * A serialization target may be given as a multiple of the tuning half's median sequential time; it
 * is then resolved to a duration of 2 significant figures before any table is built, and the final
 * tables use that duration. Every policy, the baselines included, runs under one degree cap, the
 * target table's highest degree. The outcome is deterministic for a seed, up to the tables' build
 * times.
 */
public final class ProgressTableTuner {

  /** Bins of the threshold tables' work distribution, as {@code tables build tc} by default. */
  private static final int BINS = 1000;

  /**
   * What to tune and how to judge it.
   *
   * @param targets the target tables' build options; their rates are the tuning loads, and their
   *     load metric is replaced by each candidate's
   * @param loadMetrics the load metrics to try, by name ({@code long-threads}, {@code all-threads})
   * @param serializeTargets the serialization targets to try: {@code none}, a duration such as
   *     {@code 50ms}, or a multiple of the tuning half's median sequential time such as {@code 3x}
   * @param baselines the baselines' specifications
   * @param simulation the simulator's configuration (cores, model, ...) for the scoring
   * @param requests requests per scored point
   * @param seed the split's and the tuning arrivals' seed; the check uses {@code seed + 1}
   */
  public record Plan(
      TpcTableBuilder.Options targets,
      List<String> loadMetrics,
      List<String> serializeTargets,
      List<String> baselines,
      Simulator.Config simulation,
      int requests,
      long seed) {

    /**
     * Checks the plan.
     *
     * @throws IllegalArgumentException naming the option of the first bad input
     */
    public Plan {
      loadMetrics = List.copyOf(loadMetrics);
      serializeTargets = List.copyOf(serializeTargets);
      baselines = List.copyOf(baselines);
      if (loadMetrics.isEmpty()) {
        throw new IllegalArgumentException("--load-metrics: no load metric to try");
      }
      for (String m : loadMetrics) {
        if (TargetTable.LoadMetric.of(m) == null) {
          throw new IllegalArgumentException(
              "--load-metrics: expected long-threads or all-threads, got '" + m + "'");
        }
      }
      if (serializeTargets.isEmpty()) {
        throw new IllegalArgumentException("--serialize-targets: no serialization target to try");
      }
      serializeTargets.forEach(SerializeTarget::parse);
      if (baselines.isEmpty()) {
        throw new IllegalArgumentException("--baselines: no baseline to compare with");
      }
      if (requests < 10) {
        throw new IllegalArgumentException("--requests: need at least 10, got " + requests);
      }
      if (simulation.workers() != targets.cores()) {
        throw new IllegalArgumentException(
            "--cores: the scoring simulates "
                + simulation.workers()
                + " threads, the target tables "
                + targets.cores());
      }
    }

    /** The tuning loads, requests per second: the target tables' rates. */
    public List<Double> rps() {
      return targets.ratesRps();
    }
  }

  /**
   * A candidate: the inputs of the policy's tables.
   *
   * @param loadMetric what the target table's rows' loads count
   * @param serializeTargetNanos the latency target the threshold tables are built for, or 0 for
   *     none: no threshold table, the policy never serializes
   */
  public record Candidate(TargetTable.LoadMetric loadMetric, long serializeTargetNanos) {

    /** Whether the policy serializes: whether there are threshold tables. */
    public boolean serializes() {
      return serializeTargetNanos > 0;
    }

    @Override
    public String toString() {
      return loadMetric.label()
          + ", "
          + (serializes() ? "serialize at " + Durations.format(serializeTargetNanos) : "none");
    }
  }

  /**
   * One candidate's outcome.
   *
   * @param candidate the candidate
   * @param ratios per load, its P99 over the best baseline's (infinite if saturated)
   */
  public record Trial(Candidate candidate, double[] ratios) {
    /** The worst ratio over the loads. */
    @JsonProperty
    public double worst() {
      return BaselineComparison.worst(ratios);
    }

    /** The geometric mean of the ratios. */
    @JsonProperty
    public double mean() {
      return BaselineComparison.mean(ratios);
    }

    boolean betterThan(Trial o) {
      return BaselineComparison.better(ratios, o.ratios);
    }

    /** The candidate and its ratios in one line. */
    public String describe() {
      return BaselineComparison.describe(candidate, ratios);
    }
  }

  /**
   * What a tuning chose and why, written beside the tables ({@link Tuned#write}).
   *
   * @param profile the profile's file
   * @param profileDigest its SHA-256
   * @param tuningRequests the tuning half's requests
   * @param checkRequests the check half's requests
   * @param seed the split's and the tuning arrivals' seed
   * @param checkSeed the check arrivals' seed
   * @param rps the loads
   * @param baselines the baselines' specifications
   * @param medianNanos the tuning half's median sequential time, which multiples resolve against
   * @param trials every candidate on the tuning half, in the order tried
   * @param chosen the best of them
   * @param check the chosen candidate's tuning-half tables on the check half
   */
  public record Tuning(
      String profile,
      String profileDigest,
      int tuningRequests,
      int checkRequests,
      long seed,
      long checkSeed,
      List<Double> rps,
      List<String> baselines,
      long medianNanos,
      List<Trial> trials,
      Trial chosen,
      Trial check) {}

  /**
   * The outcome of a tuning.
   *
   * @param tuning what was tried and chosen, with the scores
   * @param targets the target table from the whole profile with the chosen load metric
   * @param thresholds the threshold tables from the whole profile at the chosen target, one per
   *     load in the plan's order; empty if the choice is none
   */
  public record Tuned(Tuning tuning, TargetTable targets, List<ThresholdTable> thresholds) {

    /** Copies the list. */
    public Tuned {
      thresholds = List.copyOf(thresholds);
    }

    /**
     * Writes the target table, each load's threshold table (none if the choice is none) and the
     * tuning record, each atomically.
     *
     * @param targetsFile the target table's file
     * @param thresholdsFile the threshold table's file for a load
     * @param tuningFile the tuning record's file
     */
    public void write(Path targetsFile, DoubleFunction<Path> thresholdsFile, Path tuningFile)
        throws IOException {
      targets.write(targetsFile);
      for (int i = 0; i < thresholds.size(); i++) {
        thresholds.get(i).write(thresholdsFile.apply(tuning.rps().get(i)));
      }
      JsonFile.writeAtomically(tuningFile, tuning);
    }
  }

  private final Plan plan;

  /** A tuner for a plan. */
  public ProgressTableTuner(Plan plan) {
    this.plan = plan;
  }

  /**
   * Tunes, reporting each trial as it finishes.
   *
   * @param sources the profile's and the model's files, recorded in the tables
   * @throws IllegalArgumentException if the profile lacks the predictions the target tables'
   *     variant needs, or a load overloads the cores for a threshold table
   */
  public Tuned tune(
      DemandProfile profile, TpcTableBuilder.Sources sources, Consumer<Trial> onTrial) {
    BaselineComparison.Halves halves = BaselineComparison.split(profile, plan.seed());
    DemandProfile tuning = halves.tuning();
    DemandProfile check = halves.check();
    long median = medianSequentialNanos(tuning);
    BaselineComparison comparison =
        new BaselineComparison(
            plan.baselines(),
            plan.rps(),
            plan.simulation(),
            plan.requests(),
            plan.targets().maxDegree());
    // A threshold table does not depend on the load metric: one set per target serves every
    // metric. They are built first, so that a load they cannot serve fails before any simulation.
    Map<Long, List<ThresholdTable>> thresholdTables = new HashMap<>();
    for (String target : plan.serializeTargets()) {
      thresholdTables.computeIfAbsent(
          SerializeTarget.parse(target).nanos(median), t -> buildThresholds(tuning, sources, t));
    }
    double[] tuningBaseline = comparison.bestBaselines(tuning, plan.seed());
    Map<TargetTable.LoadMetric, TargetTable> targetTables = new HashMap<>();
    List<Trial> trials = new ArrayList<>();
    Trial chosen = null;
    for (String metricName : plan.loadMetrics()) {
      TargetTable.LoadMetric metric = TargetTable.LoadMetric.of(metricName);
      TargetTable targets = buildTargets(tuning, sources, metric);
      targetTables.put(metric, targets);
      for (String target : plan.serializeTargets()) {
        Candidate c = new Candidate(metric, SerializeTarget.parse(target).nanos(median));
        List<ThresholdTable> thresholds = thresholdTables.get(c.serializeTargetNanos());
        Trial trial =
            new Trial(
                c, ratios(comparison, targets, thresholds, tuning, plan.seed(), tuningBaseline));
        trials.add(trial);
        onTrial.accept(trial);
        if (chosen == null || trial.betterThan(chosen)) {
          chosen = trial;
        }
      }
    }
    Candidate best = chosen.candidate();
    long checkSeed = plan.seed() + 1;
    Trial checked =
        new Trial(
            best,
            ratios(
                comparison,
                targetTables.get(best.loadMetric()),
                thresholdTables.get(best.serializeTargetNanos()),
                check,
                checkSeed,
                comparison.bestBaselines(check, checkSeed)));
    Tuning record =
        new Tuning(
            sources.profile(),
            sources.profileDigest(),
            tuning.requests().size(),
            check.requests().size(),
            plan.seed(),
            checkSeed,
            plan.rps(),
            plan.baselines(),
            median,
            List.copyOf(trials),
            chosen,
            checked);
    return new Tuned(
        record,
        buildTargets(profile, sources, best.loadMetric()),
        buildThresholds(profile, sources, best.serializeTargetNanos()));
  }

  private TargetTable buildTargets(
      DemandProfile profile, TpcTableBuilder.Sources sources, TargetTable.LoadMetric metric) {
    TpcTableBuilder.Options options = plan.targets().toBuilder().loadMetric(metric).build();
    return new TpcTableBuilder(options, plan.simulation().calibration())
        .forProgress()
        .build(profile, sources);
  }

  /** One threshold table per load for the target, or none for 0. */
  private List<ThresholdTable> buildThresholds(
      DemandProfile profile, TpcTableBuilder.Sources sources, long targetNanos) {
    if (targetNanos == 0) {
      return List.of();
    }
    WorkDistribution distribution = WorkDistribution.of(TcTableBuilder.works(profile), BINS);
    TcTableBuilder.Source source =
        new TcTableBuilder.Source(sources.profile(), sources.profileDigest());
    List<ThresholdTable> out = new ArrayList<>();
    for (double rps : plan.rps()) {
      out.add(
          TcTableBuilder.build(distribution, source, targetNanos, rps, plan.targets().cores(), 0));
    }
    return out;
  }

  private static double[] ratios(
      BaselineComparison comparison,
      TargetTable targets,
      List<ThresholdTable> thresholds,
      DemandProfile profile,
      long seed,
      double[] best) {
    try (TableSource<TargetTable> t = TableSource.fixed(targets)) {
      return comparison.ratios(
          load -> {
            if (thresholds.isEmpty()) {
              return ProgressPolicy.of(t, null);
            }
            // The policy does not close its sources; a fixed source holds nothing to release.
            return ProgressPolicy.of(t, TableSource.fixed(thresholds.get(load)));
          },
          profile,
          seed,
          best);
    }
  }

  /** The median of the profile's sequential times. */
  static long medianSequentialNanos(DemandProfile profile) {
    long[] times = TcTableBuilder.works(profile);
    Arrays.sort(times);
    return times[times.length / 2];
  }

  /**
   * A serialization target as a plan gives it.
   *
   * @param nanos a duration, or 0
   * @param timesMedian a multiple of the tuning half's median sequential time, or 0; both 0 for
   *     none
   */
  record SerializeTarget(long nanos, double timesMedian) {

    static final SerializeTarget NONE = new SerializeTarget(0, 0);

    /**
     * Parses {@code none}, a duration or a multiple such as {@code 3x}.
     *
     * @throws IllegalArgumentException naming {@code --serialize-targets} unless it is one of
     *     those, positive
     */
    static SerializeTarget parse(String text) {
      String t = text.trim();
      if (t.equals("none")) {
        return NONE;
      }
      try {
        SerializeTarget s =
            t.endsWith("x")
                ? new SerializeTarget(0, Double.parseDouble(t.substring(0, t.length() - 1)))
                : new SerializeTarget(Durations.parseNanos(t), 0);
        if (s.nanos > 0 || (s.timesMedian > 0 && Double.isFinite(s.timesMedian))) {
          return s;
        }
      } catch (IllegalArgumentException e) {
        // reported below
      }
      throw new IllegalArgumentException(
          "--serialize-targets: expected none, a positive duration such as 50ms or a positive"
              + " multiple of the median sequential time such as 3x, got '"
              + text
              + "'");
    }

    /** The target in nanoseconds, or 0 for none; a multiple rounded to 2 significant figures. */
    long nanos(long medianNanos) {
      if (timesMedian == 0) {
        return nanos;
      }
      return Math.max(
          1, new BigDecimal(timesMedian * medianNanos).round(new MathContext(2)).longValue());
    }
  }
}
