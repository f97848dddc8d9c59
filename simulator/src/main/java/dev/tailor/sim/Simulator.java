package dev.tailor.sim;

import dev.tailor.core.Scheduler;
import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.metrics.RequestGroups;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.UnitWork;
import dev.tailor.sim.arrival.PointPlan;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * A discrete-event simulation of {@code workers} threads running requests from a demand profile,
 * driving the very same {@link Policy} objects as the runtime on a virtual clock: the same FIFO
 * admission with delays and waits for an exit, the same degree questions every quantum, the same
 * help-or-admit choice when a thread is free. It is what lets a 2-core machine speak about a
 * 16-core server.
 *
 * <p>Two work models say how a request's threads progress ({@link WorkModel}). {@code FLUID} is
 * Few-to-Many's, the one its interval tables are built with: the request's sequential time is its
 * work, done {@code s(t)} times as fast on {@code t} threads, and its threads stay until it ends.
 * {@code UNITS} is the runtime's: a serial part, then units taken one at a time by the request's
 * threads, a helper leaving as soon as no unit is left; it needs a profile with unit times. In both
 * a higher degree takes effect as soon as threads are free.
 *
 * <p>What a policy is told before a request runs: a {@linkplain Policy#clairvoyant() clairvoyant}
 * policy, the request's true sequential time and speedup curve from the profile; any other, the
 * prediction the profile carries ({@link DemandProfile#predictions()}, attached by {@code tailor
 * predictor predict}), or nothing.
 *
 * <p>Priority classes ({@link #classes(ClassMix, int[])}): each arrival's class is drawn from the
 * mix and the point's seed, the dispatch core gives slots to the highest class with work, and a
 * lower-class helper yields at its next boundary when a higher class waits: under the unit model at
 * its next unit boundary, under the fluid model at the next tick. {@link #classStats} reports each
 * class's latency and throughput for the last run.
 *
 * <p>The elastic budget ({@link #elasticBudget}): the dispatch core resizes the budget of threads
 * at the end of every period, as the runtime's reevaluator has it do, and helpers above a budget
 * that shrank leave at their next boundary (under the fluid model, at the next tick). {@link
 * #meanBudget()} reports the threads the budget gave search over the measured window.
 *
 * <p>The machine ({@link MachineModel}, from a calibration that has one): stalls and GC pauses stop
 * every thread of the simulated server for their length (each running request's next boundaries
 * move on by it, and arrivals meanwhile wait), and the co-run slowdown stretches what is left of
 * every running claim or fluid work whenever the count of working threads changes. Without a model
 * none of this happens and the simulation is the one without a calibration's machine part.
 *
 * <p>Single-threaded and deterministic: the same inputs give the same result.
 */
public final class Simulator {

  /**
   * How to simulate.
   *
   * @param workers the threads of the simulated server
   * @param quantumNanos how often running requests are re-evaluated (the runtime's tick)
   * @param longThresholdNanos work or prediction from which a request counts as long, unless the
   *     policy states its own ({@link Policy#longThresholdNanos()})
   * @param warmupRequests the first requests, simulated but not counted, where the arrivals are
   *     given bare; a {@link PointPlan} brings its own
   * @param maxBacklog queued requests beyond which the point stops as saturated
   * @param targetsNanos latency targets for the miss ratios
   * @param model how requests' threads progress through their work
   * @param calibration what a served request costs on the measured machine beyond its profiled time
   *     ({@link Calibration}), charged to every simulated request; null for nothing beyond the
   *     profile
   * @param promptAdmission whether arrivals are admitted promptly, as the runtime's {@code
   *     Scheduler.Builder.promptAdmission} says (on by default, as there)
   * @param slack how many threads helpers may hold beyond the cores under prompt admission, as the
   *     runtime's {@code Scheduler.Builder.slack} says (its default unless given), time-sliced over
   *     the cores
   */
  public record Config(
      int workers,
      long quantumNanos,
      long longThresholdNanos,
      int warmupRequests,
      int maxBacklog,
      List<Long> targetsNanos,
      WorkModel model,
      Calibration calibration,
      boolean promptAdmission,
      int slack) {

    /** Checks the configuration. */
    public Config {
      if (workers < 1 || quantumNanos < 1 || warmupRequests < 0 || maxBacklog < 1) {
        throw new IllegalArgumentException(
            "need workers >= 1, quantum > 0, warmupRequests >= 0, maxBacklog >= 1");
      }
      if (slack < 0 || slack > workers) {
        throw new IllegalArgumentException(
            "slack must be in [0, " + workers + "] (the workers), got " + slack);
      }
      targetsNanos = List.copyOf(targetsNanos);
      if (model == null) {
        throw new IllegalArgumentException("need a work model");
      }
    }

    /** A configuration with the runtime's default slack. */
    public Config(
        int workers,
        long quantumNanos,
        long longThresholdNanos,
        int warmupRequests,
        int maxBacklog,
        List<Long> targetsNanos,
        WorkModel model,
        Calibration calibration,
        boolean promptAdmission) {
      this(
          workers,
          quantumNanos,
          longThresholdNanos,
          warmupRequests,
          maxBacklog,
          targetsNanos,
          model,
          calibration,
          promptAdmission,
          Math.min(workers, dev.tailor.core.Scheduler.DEFAULT_SLACK));
    }

    /** A configuration charging {@code calibration}, admitting arrivals promptly. */
    public Config(
        int workers,
        long quantumNanos,
        long longThresholdNanos,
        int warmupRequests,
        int maxBacklog,
        List<Long> targetsNanos,
        WorkModel model,
        Calibration calibration) {
      this(
          workers,
          quantumNanos,
          longThresholdNanos,
          warmupRequests,
          maxBacklog,
          targetsNanos,
          model,
          calibration,
          true);
    }

    /** A configuration that charges nothing beyond the profile, admitting arrivals promptly. */
    public Config(
        int workers,
        long quantumNanos,
        long longThresholdNanos,
        int warmupRequests,
        int maxBacklog,
        List<Long> targetsNanos,
        WorkModel model) {
      this(
          workers,
          quantumNanos,
          longThresholdNanos,
          warmupRequests,
          maxBacklog,
          targetsNanos,
          model,
          null);
    }

    /** This configuration, charging {@code c} (null for nothing beyond the profile). */
    public Config withCalibration(Calibration c) {
      return new Config(
          workers,
          quantumNanos,
          longThresholdNanos,
          warmupRequests,
          maxBacklog,
          targetsNanos,
          model,
          c,
          promptAdmission,
          slack);
    }

    /**
     * This configuration with prompt admission on or off, as the runtime's {@code
     * Scheduler.Builder.promptAdmission} (on by default, as there).
     */
    public Config withPromptAdmission(boolean on) {
      return new Config(
          workers,
          quantumNanos,
          longThresholdNanos,
          warmupRequests,
          maxBacklog,
          targetsNanos,
          model,
          calibration,
          on,
          slack);
    }

    /**
     * This configuration lending {@code threads} of slack beyond the cores, as the runtime's {@code
     * Scheduler.Builder.slack}.
     *
     * @throws IllegalArgumentException if {@code threads} is below 0 or above the workers
     */
    public Config withSlack(int threads) {
      return new Config(
          workers,
          quantumNanos,
          longThresholdNanos,
          warmupRequests,
          maxBacklog,
          targetsNanos,
          model,
          calibration,
          promptAdmission,
          threads);
    }

    /**
     * 5 ms quantum, the runtime's default long threshold, 10% warm-up, backlog 100,000, fluid work.
     */
    public static Config of(int workers, int requests) {
      return new Config(
          workers,
          Scheduler.DEFAULT_QUANTUM_NANOS,
          Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
          requests / 10,
          100_000,
          List.of(),
          WorkModel.FLUID);
    }
  }

  /** How a request's threads progress through its work. */
  public enum WorkModel {
    /**
     * Few-to-Many's model: sequential work done {@code s(t)} times as fast on {@code t} threads,
     * every thread staying until the request ends or the degree falls (then they leave at the next
     * tick).
     */
    FLUID,
    /**
     * The runtime's: a serial part, then units taken one at a time, with the profile's measured
     * hand-off overhead; helpers leave at unit boundaries. Needs unit times in the profile.
     */
    UNITS
  }

  /**
   * One class's figures over the measured requests of the last run.
   *
   * @param completed measured requests of the class that completed
   * @param p50Nanos their median latency, or 0 if none
   * @param p99Nanos their 99th-percentile latency (nearest rank), or 0 if none
   * @param throughputRps completed requests per second of the measured window
   */
  public record ClassStats(long completed, long p50Nanos, long p99Nanos, double throughputRps) {}

  /**
   * The labels of the point, for its result.
   *
   * @param offeredRps the arrival rate
   * @param arrivals the arrival process's description
   * @param seed the seed of arrivals and request order
   * @param corpus the profile's source label
   */
  public record Labels(double offeredRps, String arrivals, long seed, String corpus) {}

  final DemandProfile profile;
  final SpeedupCurve[] curves;
  final UnitWork[] units;
  final Policy policy;
  final boolean clairvoyant;

  /** The policy watches progress: the own threads' claims start at one unit, as in the runtime. */
  final boolean probesProgress;

  final Config config;

  /** The machine model the calibration gives for these workers, or null for none. */
  final MachineModel machine;

  final RequestGroups classes;
  Dispatcher.DecisionListener decisions;
  boolean promptAdmission;
  int slack;
  CompletionListener completions;
  ClassMix mix;
  boolean prioritized = true;
  PriorityClass[] fixedKinds; // for tests: each arrival's class, scale 1
  int[] floors = Dispatcher.defaultFloors();
  BudgetPolicy budgetPolicy; // null: every thread, always
  int minBudget = 1;
  long budgetPeriodNanos;

  private SimRun last; // the last run, for its figures

  /**
   * A simulator of {@code profile}'s requests under {@code policy}.
   *
   * @throws IllegalArgumentException if the profile is empty, or the unit model is asked for and a
   *     request has no unit times
   */
  public Simulator(DemandProfile profile, Policy policy, Config config) {
    if (profile.requests().isEmpty()) {
      throw new IllegalArgumentException("the profile has no request");
    }
    Calibration c = config.calibration();
    // Refused here, naming the field, for another core count unless scaling was asked for.
    this.machine = c == null ? null : c.modelFor(config.workers());
    // A served request runs longer than its profiled time (the calibration's run scale); what a
    // predictor says is of the profiled time, as it is in a real run, so predictions stay.
    this.profile = c == null ? profile : c.served(profile);
    this.policy = policy;
    this.clairvoyant = policy.clairvoyant();
    this.probesProgress = policy.watchesProgress();
    this.config = config;
    this.promptAdmission = config.promptAdmission();
    this.slack = config.slack();
    // Table 2's classes (Jeon et al., ASPLOS'16), scaled to this workload's times.
    this.classes =
        RequestGroups.tpcScaled(
            profile.requests().stream()
                .mapToLong(DemandProfile.Request::sequentialNanos)
                .toArray());
    profile = this.profile; // from here on, the profile as served
    int n = profile.requests().size();
    this.curves = new SpeedupCurve[n];
    this.units = config.model() == WorkModel.UNITS ? new UnitWork[n] : null;
    for (int i = 0; i < n; i++) {
      DemandProfile.Request r = profile.requests().get(i);
      curves[i] = r.speedupCurve();
      if (units != null) {
        units[i] = r.unitWork();
        if (units[i] == null) {
          throw new IllegalArgumentException(
              "request "
                  + r.id()
                  + " of the profile has no unit times; the unit model needs a profile measured"
                  + " by ./tailor profile");
        }
      }
    }
  }

  /**
   * Simulates one point.
   *
   * @param arrivalsNanos arrival times from the start, ascending
   * @param order the profile request each arrival is
   */
  public PointResult run(long[] arrivalsNanos, int[] order, Labels labels) {
    return run(arrivalsNanos, order, config.warmupRequests(), labels);
  }

  /**
   * Simulates one point of a sweep plan, its warm-up the plan's rather than the configuration's.
   *
   * @param corpus the profile's source label
   */
  public PointResult run(PointPlan point, String corpus) {
    return run(
        point.offsetsNanos(),
        point.order(),
        point.warmupRequests(),
        new Labels(point.offeredRps(), point.arrivals(), point.seed(), corpus));
  }

  private PointResult run(long[] arrivalsNanos, int[] order, int warmupRequests, Labels labels) {
    last = new SimRun(this);
    return last.run(arrivalsNanos, order, warmupRequests, labels);
  }

  /**
   * Whether later runs admit arrivals promptly, as the runtime's {@code
   * Scheduler.Builder.promptAdmission} says; default on, as in the runtime.
   */
  public void promptAdmission(boolean on) {
    this.promptAdmission = on;
  }

  /**
   * How many threads later runs lend helpers beyond the cores under prompt admission, as the
   * runtime's {@code Scheduler.Builder.slack} says (default {@value
   * dev.tailor.core.Scheduler#DEFAULT_SLACK}, as there). More working threads than cores share the
   * cores: each runs at the cores over the working threads of its speed.
   *
   * @throws IllegalArgumentException if {@code threads} is below 0 or above the workers
   */
  public void slack(int threads) {
    if (threads < 0 || threads > config.workers()) {
      throw new IllegalArgumentException(
          "slack must be in [0, " + config.workers() + "] (the workers), got " + threads);
    }
    this.slack = threads;
  }

  /**
   * Reports every decision of later runs to {@code listener}, as the runtime's {@code
   * Scheduler.Builder.decisionListener} does: the same scenario gives the same decisions in both.
   */
  public void decisionListener(Dispatcher.DecisionListener listener) {
    this.decisions = listener;
  }

  /**
   * Hears a request of a run complete: request {@code requestId} (the index of its arrival in the
   * run) arrived at {@code arrivalNanos} and completed at {@code endNanos}, on the virtual clock.
   */
  @FunctionalInterface
  public interface CompletionListener {
    /** Request {@code requestId} completed; warm-up requests are heard too. */
    void completed(long requestId, long arrivalNanos, long endNanos);
  }

  /**
   * Reports every request of later runs to {@code listener} as it completes, warm-up included, so
   * that a caller can pair each request's latency with another run's (the partition-aggregate model
   * takes the slowest of a query's shards); null for none.
   */
  public void completionListener(CompletionListener listener) {
    this.completions = listener;
  }

  /**
   * Runs later points with a mix of priority classes and the classes' floors of threads ({@link
   * Dispatcher#floorThreads(double, int)} gives the rule from a share); a null mix puts every
   * request in the default class, as without this call.
   *
   * @param floorThreads for each {@link PriorityClass}, by ordinal, its floor of threads
   */
  public void classes(ClassMix mix, int[] floorThreads) {
    classes(mix, floorThreads, true);
  }

  /**
   * As {@link #classes(ClassMix, int[])}, or, if {@code prioritized} is false, with the mix's
   * requests and work but every request dispatched in the default class: classes off, for
   * comparison, each request still reported in its class of the mix.
   */
  public void classes(ClassMix mix, int[] floorThreads, boolean prioritized) {
    this.prioritized = prioritized;
    if (floorThreads.length != PriorityClass.values().length) {
      throw new IllegalArgumentException(
          "need one floor per priority class, got " + floorThreads.length);
    }
    this.mix = mix;
    this.floors = floorThreads.clone();
  }

  /**
   * Runs later points with an elastic budget: it starts at every thread, and at the end of every
   * {@code periodNanos} {@code policy} resizes it within [{@code minBudget}, workers], as the
   * runtime's {@code Scheduler.Builder.elasticBudget} does. A null policy restores the static
   * budget of every thread.
   *
   * @throws IllegalArgumentException if {@code minBudget} is not in [1, workers] or the period is
   *     not positive
   */
  public void elasticBudget(BudgetPolicy policy, int minBudget, long periodNanos) {
    if (policy != null && (minBudget < 1 || minBudget > config.workers() || periodNanos < 1)) {
      throw new IllegalArgumentException(
          "need 1 <= minBudget <= "
              + config.workers()
              + " and a positive period, got "
              + minBudget
              + " and "
              + periodNanos
              + " ns");
    }
    this.budgetPolicy = policy;
    this.minBudget = minBudget;
    this.budgetPeriodNanos = periodNanos;
  }

  /**
   * The threads the budget gave search in the last run, averaged over its measured window (from the
   * first measured arrival to the end): the workers for a static budget.
   */
  public double meanBudget() {
    return last == null ? 0 : last.meanBudget;
  }

  /** For tests: the class of each arrival of later runs, every class at its profiled work. */
  void classesPerArrival(PriorityClass[] perArrival, int[] floorThreads) {
    classes(ClassMix.parse("interactive:1"), floorThreads);
    this.fixedKinds = perArrival.clone();
  }

  /**
   * Class {@code c}'s latencies over the measured requests of the last run, for pooling runs
   * ({@code PooledLatency}); a new histogram each call.
   */
  public Histogram classLatency(PriorityClass c) {
    return last.classLatency(c);
  }

  /** Class {@code c}'s figures over the measured requests of the last run. */
  public ClassStats classStats(PriorityClass c) {
    return last.classStats(c);
  }
}
