package dev.tailor.tables;

import dev.tailor.core.metrics.RequestGroups;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.ProgressPolicy;
import dev.tailor.core.policy.TpcPolicy;
import dev.tailor.core.table.TableSource;
import dev.tailor.core.table.TargetTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Builds a TPC target table (Jeon et al., ASPLOS'16, §3.3) from a demand profile: the groups and
 * their speedup profiles from the profile's measured times, then Algorithm 1 ({@link TargetSearch})
 * with MeasureTail the simulator driving the very {@link TpcPolicy} that serves the table online,
 * at every arrival rate of the production range.
 *
 * <ul>
 *   <li><b>Groups</b> (§3.1): short, medium, long by sequential time. The paper's are 30 and 80 ms
 *       on a workload where 4% of the queries are long (§2.5); a workload of other sizes gets them
 *       scaled, unless given: long from the profile's 96th percentile, medium from 30/80 of that.
 *       Each group's speedup profile is the mean of its requests' measured (and derived) speedups,
 *       grouped by their true times; an empty group takes the whole profile's mean.
 *   <li><b>Rows</b>: LongT {@code 0, 1, ..., loads - 1} and {@code ∞}, the paper's {@code 0..d̂,
 *       ∞}.
 *   <li><b>Initial targets</b>: the paper starts from the unloaded latency with every request on
 *       all cores, "the smallest target we may ever achieve"; here the median over the profile of
 *       {@code T / S(P)}, for every row.
 *   <li><b>δ</b>: the paper's 1 ms at its 80 ms long threshold, so {@code longFrom / 80} unless
 *       given; when no step of δ helps, steps of 2δ, 4δ, ... are tried before the search stops
 *       ({@link TargetSearch}), unless {@code stepDoublings} is 0.
 *   <li><b>MeasureTail</b>: the weighted sum over the rates of the tail quantile, each rate
 *       simulated over the given seeds (mean). A saturated point counts {@value #SATURATED_NANOS}
 *       ns plus its tail, so that a table that saturates a rate loses to one that does not, yet two
 *       saturating tables still compare.
 * </ul>
 *
 * <p>What the policy is told: with {@link TpcPolicy.Variant#TPC} the profile's predictions ({@link
 * DemandProfile#predictions()}), which the profile must carry; with {@link
 * TpcPolicy.Variant#TPC_ORACLE} the true times, a table for the perfect predictor.
 */
public final class TpcTableBuilder {

  /** What a saturated point adds to the weighted tail, in nanoseconds: 1000 s. */
  static final double SATURATED_NANOS = 1e12;

  /**
   * How to build.
   *
   * @param cores the simulated server's threads
   * @param maxDegree P
   * @param ratesRps the production load range, as arrival rates
   * @param weights each rate's weight, or null for equal weights
   * @param quantile the tail: {@code p99} or {@code p99.9}
   * @param stepNanos δ, or 0 for {@code longFrom / 80}
   * @param loads the rows below ∞: LongT {@code 0..loads-1}
   * @param requests requests per simulated point
   * @param seeds seeds per rate, from {@code seed}
   * @param seed the first seed of arrivals and request order
   * @param model the simulator's work model
   * @param quantumNanos the runtime's tick
   * @param mediumFromNanos the medium group's threshold, or 0 for 30/80 of the long one
   * @param longFromNanos the long group's threshold, or 0 for the profile's 96th percentile
   * @param maxIterations a bound on the search's steps
   * @param stepDoublings how often the step may double when no step helps (see {@link
   *     TargetSearch}); 0 for the paper's search
   * @param threads threads measuring a round's tables
   * @param variant {@code TPC} (the profile's predictions) or {@code TPC_ORACLE} (the truth)
   * @param loadMetric what the rows' loads count
   */
  public record Options(
      int cores,
      int maxDegree,
      List<Double> ratesRps,
      List<Double> weights,
      String quantile,
      long stepNanos,
      int loads,
      int requests,
      int seeds,
      long seed,
      Simulator.WorkModel model,
      long quantumNanos,
      long mediumFromNanos,
      long longFromNanos,
      int maxIterations,
      int stepDoublings,
      int threads,
      TpcPolicy.Variant variant,
      TargetTable.LoadMetric loadMetric) {

    /**
     * Checks the options.
     *
     * @throws IllegalArgumentException naming the first bad option
     */
    public Options {
      ratesRps = List.copyOf(ratesRps);
      weights = weights == null ? null : List.copyOf(weights);
      if (cores < 1 || maxDegree < 1 || maxDegree > cores) {
        throw new IllegalArgumentException("need 1 <= max degree <= cores");
      }
      if (ratesRps.isEmpty() || ratesRps.stream().anyMatch(r -> !(r > 0))) {
        throw new IllegalArgumentException("need at least one arrival rate, each > 0");
      }
      if (weights != null
          && (weights.size() != ratesRps.size() || weights.stream().anyMatch(w -> !(w >= 0)))) {
        throw new IllegalArgumentException("need one weight >= 0 per rate");
      }
      if (!quantile.equals("p99") && !quantile.equals("p99.9")) {
        throw new IllegalArgumentException("the tail is p99 or p99.9, got " + quantile);
      }
      if (stepNanos < 0 || loads < 1 || requests < 10 || seeds < 1 || maxIterations < 0) {
        throw new IllegalArgumentException(
            "need step >= 0, loads >= 1, requests >= 10, seeds >= 1, iterations >= 0");
      }
      if (stepDoublings < 0 || stepDoublings > 20) {
        throw new IllegalArgumentException("need 0 <= step doublings <= 20, got " + stepDoublings);
      }
      if (mediumFromNanos < 0 || longFromNanos < 0) {
        throw new IllegalArgumentException("group thresholds must be >= 0 (0 for scaled)");
      }
      if (variant == TpcPolicy.Variant.TP) {
        throw new IllegalArgumentException("tp reads tpc's table: build it for tpc");
      }
    }

    double quantileValue() {
      return quantile.equals("p99") ? 0.99 : 0.999;
    }
  }

  /**
   * Where the profile and the model came from, for the table's record.
   *
   * @param profile the profile's file name
   * @param profileDigest its SHA-256
   * @param model the model file whose predictions the profile carries, or null
   * @param modelDigest its SHA-256, or null
   */
  public record Sources(String profile, String profileDigest, String model, String modelDigest) {}

  private final Options options;
  private final Calibration calibration;
  private final boolean forProgress;

  /** A builder with these options, simulating nothing beyond the profile. */
  public TpcTableBuilder(Options options) {
    this(options, null);
  }

  /**
   * A builder with these options whose simulations charge every request what {@code calibration}
   * says a served one costs beyond its profiled time (null for nothing).
   */
  public TpcTableBuilder(Options options, Calibration calibration) {
    this(options, calibration, false);
  }

  private TpcTableBuilder(Options options, Calibration calibration, boolean forProgress) {
    this.options = options;
    this.calibration = calibration;
    this.forProgress = forProgress;
  }

  /**
   * The same builder, but the table is searched for the progress-aware policy ({@link
   * ProgressPolicy}, without serialization) rather than for TPC: MeasureTail simulates the policy
   * that will read the table, and the two spend a target differently (TPC grants a late request
   * only the workers idle at the moment; the progress-aware policy grants a request projected late
   * the whole degree it needs), so a target that suits one does not suit the other.
   */
  public TpcTableBuilder forProgress() {
    return new TpcTableBuilder(options, calibration, true);
  }

  /**
   * Builds the table.
   *
   * @throws IllegalArgumentException if the variant needs predictions and the profile has none
   */
  public TargetTable build(DemandProfile profile, Sources sources) {
    long started = System.nanoTime();
    checkPredictions(profile);
    TargetTable.Groups groups =
        groups(profile, options.maxDegree(), options.mediumFromNanos(), options.longFromNanos());
    long step =
        options.stepNanos() > 0
            ? options.stepNanos()
            : Math.max(1_000, groups.longFromNanos() / 80);
    TargetTable initial = initial(profile, sources, groups, step);
    TargetSearch.Result r;
    ExecutorService executor =
        options.threads() > 1 ? Executors.newFixedThreadPool(options.threads()) : null;
    try {
      r =
          TargetSearch.run(
              initial.targetsNanos(),
              step,
              step << options.stepDoublings(),
              options.maxIterations(),
              targets -> weightedTail(initial.withTargets(targets), profile),
              executor);
    } finally {
      if (executor != null) {
        executor.shutdownNow();
      }
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    return initial
        .withTargets(r.targetsNanos())
        .built(
            Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
            seconds,
            new TargetTable.Search(
                r.iterations(), r.measurements(), r.initialTail(), r.finalTail()));
  }

  private void checkPredictions(DemandProfile profile) {
    if (options.variant() == TpcPolicy.Variant.TPC && profile.predictions() == null) {
      throw new IllegalArgumentException(
          "the profile carries no predictions: attach a model's with tailor predictor predict (or"
              + " give --model), or build for the perfect predictor (tpc-oracle)");
    }
  }

  private TargetTable initial(
      DemandProfile profile, Sources sources, TargetTable.Groups groups, long step) {
    double[] alone = new double[profile.requests().size()];
    for (int i = 0; i < alone.length; i++) {
      DemandProfile.Request r = profile.requests().get(i);
      alone[i] = r.sequentialNanos() / r.speedupCurve().at(options.maxDegree());
    }
    Arrays.sort(alone);
    long start = Math.max(1, Math.round(alone[alone.length / 2]));
    List<TargetTable.Row> rows = new ArrayList<>();
    for (int load = 0; load < options.loads(); load++) {
      rows.add(new TargetTable.Row(load, start));
    }
    rows.add(new TargetTable.Row(TargetTable.INFINITE, start));
    TargetTable.Inputs inputs =
        new TargetTable.Inputs(
            sources.profile(),
            sources.profileDigest(),
            profile.requests().size(),
            sources.model(),
            sources.modelDigest(),
            options.variant() == TpcPolicy.Variant.TPC_ORACLE
                ? "known"
                : profile.predictions().method(),
            options.cores(),
            options.maxDegree(),
            options.ratesRps().stream().mapToDouble(Double::doubleValue).toArray(),
            weights(),
            options.quantileValue(),
            step,
            options.seeds(),
            options.model().name().toLowerCase(Locale.ROOT),
            options.loadMetric());
    return new TargetTable(inputs, groups, rows, "", 0, new TargetTable.Search(0, 0, 0, 0));
  }

  private double[] weights() {
    double[] w = new double[options.ratesRps().size()];
    for (int i = 0; i < w.length; i++) {
      w[i] = options.weights() == null ? 1 : options.weights().get(i);
    }
    return w;
  }

  /**
   * MeasureTail: the table's weighted tail on {@code profile} at this builder's rates and seeds, as
   * the search measures it. The guard compares a new table and the current one by it.
   *
   * @throws IllegalArgumentException if the variant needs predictions and the profile has none
   */
  public double weightedTail(TargetTable table, DemandProfile profile) {
    checkPredictions(profile);
    double[] w = weights();
    double sum = 0;
    try (TableSource<TargetTable> source = TableSource.fixed(table)) {
      for (int i = 0; i < w.length; i++) {
        if (w[i] == 0) {
          continue;
        }
        double tail = 0;
        for (int s = 0; s < options.seeds(); s++) {
          PointResult r = simulate(source, profile, options.ratesRps().get(i), options.seed() + s);
          double q = r.latencyAt(options.quantile());
          tail += (r.saturated() ? SATURATED_NANOS : 0) + (Double.isNaN(q) ? 0 : q);
        }
        sum += w[i] * tail / options.seeds();
      }
    }
    return sum;
  }

  private PointResult simulate(
      TableSource<TargetTable> source, DemandProfile profile, double rps, long seed) {
    SweepPlan sweep = SweepPlan.counted("poisson", seed, options.requests());
    PointPlan point = sweep.point(rps, profile.requests().size());
    Simulator.Config config =
        new Simulator.Config(
            options.cores(),
            options.quantumNanos(),
            source.current().longThresholdNanos(),
            point.warmupRequests(),
            Math.max(1_000, options.requests()),
            List.of(),
            options.model(),
            calibration);
    try (Policy policy =
        forProgress ? ProgressPolicy.of(source, null) : TpcPolicy.of(options.variant(), source)) {
      return new Simulator(profile, policy, config).run(point, "tpc-build");
    }
  }

  /**
   * The groups and their speedup profiles up to {@code maxDegree}.
   *
   * @param mediumFromNanos the medium threshold, or 0 for 30/80 of the long one
   * @param longFromNanos the long threshold, or 0 for the profile's 96th percentile
   */
  static TargetTable.Groups groups(
      DemandProfile profile, int maxDegree, long mediumFromNanos, long longFromNanos) {
    List<DemandProfile.Request> requests = profile.requests();
    long[] times = requests.stream().mapToLong(DemandProfile.Request::sequentialNanos).toArray();
    long longFrom = longFromNanos > 0 ? longFromNanos : RequestGroups.longFromNanos(times);
    long mediumFrom =
        mediumFromNanos > 0 ? mediumFromNanos : RequestGroups.mediumFromNanos(longFrom);
    if (mediumFrom > longFrom) {
      throw new IllegalArgumentException(
          "the medium threshold " + mediumFrom + " ns is above the long one " + longFrom + " ns");
    }
    double[][] sums = new double[4][maxDegree];
    int[] counts = new int[4];
    for (DemandProfile.Request r : requests) {
      long t = r.sequentialNanos();
      int group = t >= longFrom ? 2 : t >= mediumFrom ? 1 : 0;
      SpeedupCurve c = r.speedupCurve();
      for (int d = 1; d <= maxDegree; d++) {
        sums[group][d - 1] += c.at(d);
        sums[3][d - 1] += c.at(d);
      }
      counts[group]++;
      counts[3]++;
    }
    SpeedupCurve all = mean(sums[3], counts[3]);
    return new TargetTable.Groups(
        mediumFrom,
        longFrom,
        counts[0] == 0 ? all : mean(sums[0], counts[0]),
        counts[1] == 0 ? all : mean(sums[1], counts[1]),
        counts[2] == 0 ? all : mean(sums[2], counts[2]));
  }

  private static SpeedupCurve mean(double[] sums, int count) {
    double[] s = new double[sums.length];
    for (int d = 0; d < s.length; d++) {
      s[d] = Math.max(1.0, sums[d] / count);
    }
    s[0] = 1.0;
    return SpeedupCurve.of(s);
  }
}
