package dev.tailor.tables;

import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.ProgressPolicy;
import dev.tailor.core.policy.TpcPolicy;
import dev.tailor.core.table.TargetTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.Simulator;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
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
 *       simulated over the given seeds (mean). A saturated point counts {@value
 *       MeasureTail#SATURATED_NANOS} ns plus its tail, so that a table that saturates a rate loses
 *       to one that does not, yet two saturating tables still compare.
 * </ul>
 *
 * <p>What the policy is told: with {@link TpcPolicy.Variant#TPC} the profile's predictions ({@link
 * DemandProfile#predictions()}), which the profile must carry; with {@link
 * TpcPolicy.Variant#TPC_ORACLE} the true times, a table for the perfect predictor.
 *
 * <p>This class runs the steps in order; each lives apart: {@link TpcGroups}, {@link
 * TpcSearchStart}, {@link MeasureTail}, and the options' checks in {@link TpcOptionsCheck}.
 */
public final class TpcTableBuilder {

  /**
   * How to build: made by {@link #builder()}, whose setters name each option and whose defaults are
   * {@code tables build tpc}'s; {@link Builder#build()} checks them.
   */
  public static final class Options {

    private final int cores;
    private final int maxDegree;
    private final List<Double> ratesRps;
    private final List<Double> weights;
    private final String quantile;
    private final long stepNanos;
    private final int loads;
    private final int requests;
    private final int seeds;
    private final long seed;
    private final Simulator.WorkModel model;
    private final long quantumNanos;
    private final long mediumFromNanos;
    private final long longFromNanos;
    private final int maxIterations;
    private final int stepDoublings;
    private final int threads;
    private final TpcPolicy.Variant variant;
    private final TargetTable.LoadMetric loadMetric;

    private Options(Builder b) {
      this.cores = b.cores;
      this.maxDegree = b.maxDegree;
      this.ratesRps = b.ratesRps;
      this.weights = b.weights;
      this.quantile = b.quantile;
      this.stepNanos = b.stepNanos;
      this.loads = b.loads;
      this.requests = b.requests;
      this.seeds = b.seeds;
      this.seed = b.seed;
      this.model = b.model;
      this.quantumNanos = b.quantumNanos;
      this.mediumFromNanos = b.mediumFromNanos;
      this.longFromNanos = b.longFromNanos;
      this.maxIterations = b.maxIterations;
      this.stepDoublings = b.stepDoublings;
      this.threads = b.threads;
      this.variant = b.variant;
      this.loadMetric = b.loadMetric;
    }

    /** A builder with the defaults of {@code tables build tpc} and no arrival rate yet. */
    public static Builder builder() {
      return new Builder();
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
      Builder b = new Builder();
      b.cores = cores;
      b.maxDegree = maxDegree;
      b.ratesRps = ratesRps;
      b.weights = weights;
      b.quantile = quantile;
      b.stepNanos = stepNanos;
      b.loads = loads;
      b.requests = requests;
      b.seeds = seeds;
      b.seed = seed;
      b.model = model;
      b.quantumNanos = quantumNanos;
      b.mediumFromNanos = mediumFromNanos;
      b.longFromNanos = longFromNanos;
      b.maxIterations = maxIterations;
      b.stepDoublings = stepDoublings;
      b.threads = threads;
      b.variant = variant;
      b.loadMetric = loadMetric;
      return b;
    }

    /** The simulated server's threads. */
    public int cores() {
      return cores;
    }

    /** P, the highest degree. */
    public int maxDegree() {
      return maxDegree;
    }

    /** The production load range, as arrival rates. */
    public List<Double> ratesRps() {
      return ratesRps;
    }

    /** Each rate's weight, or null for equal weights. */
    public List<Double> weights() {
      return weights;
    }

    /** The tail: {@code p99} or {@code p99.9}. */
    public String quantile() {
      return quantile;
    }

    /** δ, or 0 for {@code longFrom / 80}. */
    public long stepNanos() {
      return stepNanos;
    }

    /** The rows below ∞: LongT {@code 0..loads-1}. */
    public int loads() {
      return loads;
    }

    /** Requests per simulated point. */
    public int requests() {
      return requests;
    }

    /** Seeds per rate, from {@link #seed()}. */
    public int seeds() {
      return seeds;
    }

    /** The first seed of arrivals and request order. */
    public long seed() {
      return seed;
    }

    /** The simulator's work model. */
    public Simulator.WorkModel model() {
      return model;
    }

    /** The runtime's tick. */
    public long quantumNanos() {
      return quantumNanos;
    }

    /** The medium group's threshold, or 0 for 30/80 of the long one. */
    public long mediumFromNanos() {
      return mediumFromNanos;
    }

    /** The long group's threshold, or 0 for the profile's 96th percentile. */
    public long longFromNanos() {
      return longFromNanos;
    }

    /** A bound on the search's steps. */
    public int maxIterations() {
      return maxIterations;
    }

    /**
     * How often the step may double when no step helps (see {@link TargetSearch}); 0 for the
     * paper's search.
     */
    public int stepDoublings() {
      return stepDoublings;
    }

    /** Threads measuring a round's tables. */
    public int threads() {
      return threads;
    }

    /** {@code TPC} (the profile's predictions) or {@code TPC_ORACLE} (the truth). */
    public TpcPolicy.Variant variant() {
      return variant;
    }

    /** What the rows' loads count. */
    public TargetTable.LoadMetric loadMetric() {
      return loadMetric;
    }

    double quantileValue() {
      return quantile.equals("p99") ? 0.99 : 0.999;
    }

    /** Each rate's weight, 1 for every rate where none were given. */
    double[] weightValues() {
      double[] w = new double[ratesRps.size()];
      for (int i = 0; i < w.length; i++) {
        w[i] = weights == null ? 1 : weights.get(i);
      }
      return w;
    }

    /**
     * Sets the options one by one by name; every one but the arrival rates has a default, that of
     * {@code tables build tpc}.
     */
    public static final class Builder {

      private int cores = 16;
      private int maxDegree = 6;
      private List<Double> ratesRps = List.of();
      private List<Double> weights;
      private String quantile = "p99";
      private long stepNanos;
      private int loads = 9;
      private int requests = 4000;
      private int seeds = 1;
      private long seed = 1;
      private Simulator.WorkModel model = Simulator.WorkModel.FLUID;
      private long quantumNanos = Scheduler.DEFAULT_QUANTUM_NANOS;
      private long mediumFromNanos;
      private long longFromNanos;
      private int maxIterations = 2000;
      private int stepDoublings = 6;
      private int threads = 1;
      private TpcPolicy.Variant variant = TpcPolicy.Variant.TPC;
      private TargetTable.LoadMetric loadMetric = TargetTable.LoadMetric.LONG_THREADS;

      private Builder() {}

      /** The simulated server's threads (default 16). */
      public Builder cores(int cores) {
        this.cores = cores;
        return this;
      }

      /** P, the highest degree, at most the cores (default 6, the paper's). */
      public Builder maxDegree(int maxDegree) {
        this.maxDegree = maxDegree;
        return this;
      }

      /** The production load range as arrival rates, each above 0; required. */
      public Builder ratesRps(List<Double> ratesRps) {
        this.ratesRps = List.copyOf(ratesRps);
        return this;
      }

      /** Each rate's weight in the weighted tail, one per rate, or null for equal (the default). */
      public Builder weights(List<Double> weights) {
        this.weights = weights == null ? null : List.copyOf(weights);
        return this;
      }

      /** The tail, {@code p99} or {@code p99.9} (default {@code p99}). */
      public Builder quantile(String quantile) {
        this.quantile = quantile;
        return this;
      }

      /** δ, the search's step, or 0 for the long threshold / 80 (the default). */
      public Builder stepNanos(long stepNanos) {
        this.stepNanos = stepNanos;
        return this;
      }

      /** The rows below ∞, LongT {@code 0..loads-1} (default 9). */
      public Builder loads(int loads) {
        this.loads = loads;
        return this;
      }

      /** Requests per simulated point, at least 10 (default 4000). */
      public Builder requests(int requests) {
        this.requests = requests;
        return this;
      }

      /** Seeds per rate, their tails averaged (default 1). */
      public Builder seeds(int seeds) {
        this.seeds = seeds;
        return this;
      }

      /** The first seed of arrivals and request order (default 1). */
      public Builder seed(long seed) {
        this.seed = seed;
        return this;
      }

      /** The simulator's work model (default fluid). */
      public Builder model(Simulator.WorkModel model) {
        this.model = model;
        return this;
      }

      /** The runtime's tick (default {@link Scheduler#DEFAULT_QUANTUM_NANOS}). */
      public Builder quantumNanos(long quantumNanos) {
        this.quantumNanos = quantumNanos;
        return this;
      }

      /** The medium group's threshold, or 0 for 30/80 of the long one (the default). */
      public Builder mediumFromNanos(long mediumFromNanos) {
        this.mediumFromNanos = mediumFromNanos;
        return this;
      }

      /** The long group's threshold, or 0 for the profile's 96th percentile (the default). */
      public Builder longFromNanos(long longFromNanos) {
        this.longFromNanos = longFromNanos;
        return this;
      }

      /** A bound on the search's steps (default 2000). */
      public Builder maxIterations(int maxIterations) {
        this.maxIterations = maxIterations;
        return this;
      }

      /**
       * How often the step may double when no step helps, 0 to 20; 0 for the paper's search
       * (default 6).
       */
      public Builder stepDoublings(int stepDoublings) {
        this.stepDoublings = stepDoublings;
        return this;
      }

      /** Threads measuring a round's tables (default 1). */
      public Builder threads(int threads) {
        this.threads = threads;
        return this;
      }

      /**
       * {@code TPC}, told the profile's predictions, or {@code TPC_ORACLE}, told the true times
       * (default {@code TPC}); {@code TP} reads TPC's table and is refused.
       */
      public Builder variant(TpcPolicy.Variant variant) {
        this.variant = variant;
        return this;
      }

      /** What the rows' loads count (default the threads on long requests). */
      public Builder loadMetric(TargetTable.LoadMetric loadMetric) {
        this.loadMetric = loadMetric;
        return this;
      }

      /**
       * Checks the options and makes them.
       *
       * @throws IllegalArgumentException naming the first bad option, what it was and what it needs
       */
      public Options build() {
        Options options = new Options(this);
        TpcOptionsCheck.check(options);
        return options;
      }
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
  private final MeasureTail measureTail;

  /** A builder with these options, simulating nothing beyond the profile. */
  public TpcTableBuilder(Options options) {
    this(options, (Calibration) null);
  }

  /**
   * A builder with these options whose simulations charge every request what {@code calibration}
   * says a served one costs beyond its profiled time (null for nothing).
   */
  public TpcTableBuilder(Options options, Calibration calibration) {
    this(options, new MeasureTail(options, calibration, false));
  }

  private TpcTableBuilder(Options options, MeasureTail measureTail) {
    this.options = options;
    this.measureTail = measureTail;
  }

  /**
   * The same builder, but the table is searched for the progress-aware policy ({@link
   * ProgressPolicy}, without serialization) rather than for TPC: MeasureTail simulates the policy
   * that will read the table, and the two spend a target differently (TPC grants a late request
   * only the workers idle at the moment; the progress-aware policy grants a request projected late
   * the whole degree it needs), so a target that suits one does not suit the other.
   */
  public TpcTableBuilder forProgress() {
    return new TpcTableBuilder(options, measureTail.forProgress());
  }

  /**
   * Builds the table.
   *
   * @throws IllegalArgumentException if the variant needs predictions and the profile has none
   */
  public TargetTable build(DemandProfile profile, Sources sources) {
    long started = System.nanoTime();
    TpcOptionsCheck.checkPredictions(options, profile);
    TargetTable.Groups groups =
        TpcGroups.of(
            profile, options.maxDegree(), options.mediumFromNanos(), options.longFromNanos());
    long step =
        options.stepNanos() > 0
            ? options.stepNanos()
            : Math.max(1_000, groups.longFromNanos() / 80);
    TargetTable initial = TpcSearchStart.table(options, profile, sources, groups, step);
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

  /**
   * MeasureTail: the table's weighted tail on {@code profile} at this builder's rates and seeds, as
   * the search measures it ({@link MeasureTail}). The guard compares a new table and the current
   * one by it.
   *
   * @throws IllegalArgumentException if the variant needs predictions and the profile has none
   */
  public double weightedTail(TargetTable table, DemandProfile profile) {
    TpcOptionsCheck.checkPredictions(options, profile);
    return measureTail.of(table, profile);
  }
}
