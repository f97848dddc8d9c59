package dev.tailor.core.policy;

import dev.tailor.core.model.SpeedupCurve;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * The one way to name a policy in code: typed factories of the built-in policies, the baselines the
 * papers compare against, the clairvoyant bounds, and the table-driven policies on their table
 * files. Each returns the policy its specification names in the command line and the settings
 * ({@code Policies.fixed(4)} is {@code fixed:4}, {@code Policies.tpc(file)} is {@code tpc:FILE},
 * whatever characters the file's name has), so code never builds a string. Give the policy to
 * {@link dev.tailor.core.Scheduler.Builder#policy} or {@link dev.tailor.core.Scheduler#setPolicy}:
 * the scheduler owns it and closes it when it is replaced or the scheduler is closed.
 */
public final class Policies {

  /**
   * TPC's defaults for {@link #pred}: requests predicted to take 80 ms or more run with 3 threads
   * (Jeon et al., ASPLOS'16, §4.1).
   */
  private static final long PRED_THRESHOLD_NANOS = 80_000_000L;

  static final int PRED_DEGREE = 3;
  private static final int WQ_LINEAR_MAX = 6;

  private Policies() {}

  /** Sequential ({@code seq}): every request runs on one thread. */
  public static Policy seq() {
    return new BaselinePolicies.FixedPolicy(1, "seq");
  }

  /**
   * Fixed(N) ({@code fixed:N}): every request runs with {@code n} threads from admission to
   * completion.
   *
   * @throws IllegalArgumentException if {@code n} is not positive
   */
  public static Policy fixed(int n) {
    return new BaselinePolicies.FixedPolicy(positive(n, "n"), "fixed:" + n);
  }

  /**
   * Steal-first ({@code steal-first}), tail-control's baseline: every request may take every
   * worker, and a free worker helps running requests before it admits a new one.
   */
  public static Policy stealFirst() {
    return new BaselinePolicies.WorkStealingPolicy(WorkerPreference.HELP_FIRST, "steal-first");
  }

  /**
   * Admit-first ({@code admit-first}): every request may take every worker, and a free worker
   * admits a new request before it helps a running one.
   */
  public static Policy admitFirst() {
    return new BaselinePolicies.WorkStealingPolicy(WorkerPreference.ADMIT_FIRST, "admit-first");
  }

  /**
   * Adaptive parallelism ({@code adaptive}) with the average speedup curve of Few-to-Many's Lucene
   * workload: the degree is chosen once at admission from the queue length.
   */
  public static Policy adaptive() {
    return adaptive(BaselinePolicies.LUCENE_AVERAGE);
  }

  /** Adaptive parallelism ({@code adaptive:s1,s2,...}) with the given average speedup curve. */
  public static Policy adaptive(SpeedupCurve curve) {
    return new BaselinePolicies.AdaptivePolicy(Objects.requireNonNull(curve, "curve"));
  }

  /** WQ-Linear ({@code wq-linear}) with TPC's maximum degree of 6. */
  public static Policy wqLinear() {
    return wqLinear(WQ_LINEAR_MAX);
  }

  /**
   * WQ-Linear ({@code wq-linear:MAX}): a degree chosen once at admission, inversely proportional to
   * the queue length, at most {@code max}.
   *
   * @throws IllegalArgumentException if {@code max} is not positive
   */
  public static Policy wqLinear(int max) {
    return new BaselinePolicies.WqLinearPolicy(positive(max, "max"));
  }

  /**
   * Ramp-up ({@code rampup:INTERVAL,MAX}): start with one thread and add one every {@code
   * interval}, up to {@code max}.
   *
   * @throws IllegalArgumentException if {@code interval} or {@code max} is not positive
   */
  public static Policy rampUp(Duration interval, int max) {
    return new BaselinePolicies.RampUpPolicy(positive(interval, "interval"), positive(max, "max"));
  }

  /** TPC's Pred ({@code pred}) with its defaults: 3 threads from a predicted 80 ms. */
  public static Policy pred() {
    return new BaselinePolicies.ThresholdPolicy("pred", false, PRED_THRESHOLD_NANOS, PRED_DEGREE);
  }

  /**
   * TPC's Pred ({@code pred:THRESHOLD,N}): requests predicted to take {@code threshold} or more run
   * with {@code n} threads, the rest with one. Needs a {@link dev.tailor.core.Predictor}.
   *
   * @throws IllegalArgumentException if {@code threshold} or {@code n} is not positive
   */
  public static Policy pred(Duration threshold, int n) {
    return new BaselinePolicies.ThresholdPolicy(
        "pred", false, positive(threshold, "threshold"), positive(n, "n"));
  }

  /**
   * The clairvoyant RC ({@code rc:THRESHOLD,N}): requests whose known sequential time reaches
   * {@code threshold} run with {@code n} threads, the rest with one. Needs each request's true
   * sequential time, so it runs only where that is known (the simulator, a replay of a profile).
   *
   * @throws IllegalArgumentException if {@code threshold} or {@code n} is not positive
   */
  public static Policy clairvoyant(Duration threshold, int n) {
    return new BaselinePolicies.ThresholdPolicy(
        "rc", true, positive(threshold, "threshold"), positive(n, "n"));
  }

  /**
   * The clairvoyant ceiling ({@code oracle:BUDGET}): each request gets the fewest threads that
   * finish it within {@code budget} by its known sequential time and speedup, else its fastest
   * degree.
   *
   * @throws IllegalArgumentException if {@code budget} is negative
   */
  public static Policy oracle(Duration budget) {
    return new BaselinePolicies.OraclePolicy(nonNegative(budget, "budget"), 0);
  }

  /**
   * The clairvoyant ceiling ({@code oracle:BUDGET,N}) with at most {@code n} threads a request.
   *
   * @throws IllegalArgumentException if {@code budget} is negative or {@code n} is not positive
   */
  public static Policy oracle(Duration budget, int n) {
    return new BaselinePolicies.OraclePolicy(nonNegative(budget, "budget"), positive(n, "n"));
  }

  /**
   * Few-to-Many ({@code fm:TABLE.json}) on an interval table file, watched for a new table until
   * the policy is closed.
   *
   * @throws IllegalArgumentException if the file is missing or invalid, naming file, field and
   *     problem
   */
  public static Policy fewToMany(Path table) {
    return FewToManyPolicy.watching(Objects.requireNonNull(table, "table"));
  }

  /**
   * Few-to-Many with work-conserving admission ({@code fm-wc:TABLE.json}) on an interval table
   * file, watched for a new table until the policy is closed.
   *
   * @throws IllegalArgumentException if the file is missing or invalid, naming file, field and
   *     problem
   */
  public static Policy fewToManyWorkConserving(Path table) {
    return FewToManyPolicy.watching(Objects.requireNonNull(table, "table"), true);
  }

  /**
   * TPC ({@code tpc:TABLE.json}, Jeon et al., ASPLOS'16) on a target table file, watched for a new
   * table until the policy is closed: at arrival the fewest threads that meet the load's target by
   * the request's predicted time, more from idle workers once it runs past its target.
   *
   * @throws IllegalArgumentException if the file is missing or invalid, naming file, field and
   *     problem
   */
  public static Policy tpc(Path table) {
    return TpcPolicy.watching(TpcPolicy.Variant.TPC, Objects.requireNonNull(table, "table"));
  }

  /**
   * TPC without its run-time correction ({@code tp:TABLE.json}): the degree chosen at arrival is
   * kept.
   *
   * @throws IllegalArgumentException if the file is missing or invalid, naming file, field and
   *     problem
   */
  public static Policy tp(Path table) {
    return TpcPolicy.watching(TpcPolicy.Variant.TP, Objects.requireNonNull(table, "table"));
  }

  /**
   * TPC told each request's true time ({@code tpc-oracle:TABLE.json}): the perfect predictor, for
   * simulation and replays that know it.
   *
   * @throws IllegalArgumentException if the file is missing or invalid, naming file, field and
   *     problem
   */
  public static Policy tpcOracle(Path table) {
    return TpcPolicy.watching(TpcPolicy.Variant.TPC_ORACLE, Objects.requireNonNull(table, "table"));
  }

  /**
   * Tail-control ({@code tc:TABLE.json}, Li et al., PPoPP'16) on a threshold table file, watched
   * for a new table until the policy is closed: steal-first work sharing that serializes a request
   * once its work passes the load's threshold.
   *
   * @throws IllegalArgumentException if the file is missing or invalid, naming file, field and
   *     problem
   */
  public static Policy tailControl(Path table) {
    return TailControlPolicy.watching(
        TailControlPolicy.Variant.TC, Objects.requireNonNull(table, "table"));
  }

  /**
   * Tail-control told each request's true work ({@code tc-oracle:TABLE.json}), for simulation and
   * replays that know it.
   *
   * @throws IllegalArgumentException if the file is missing or invalid, naming file, field and
   *     problem
   */
  public static Policy tailControlOracle(Path table) {
    return TailControlPolicy.watching(
        TailControlPolicy.Variant.TC_ORACLE, Objects.requireNonNull(table, "table"));
  }

  /**
   * The progress-aware policy ({@code progress:TARGETS.json}) on a target table file, never
   * serializing, the file watched for a new table until the policy is closed.
   *
   * @throws IllegalArgumentException if the file is missing or invalid, naming file, field and
   *     problem
   */
  public static Policy progress(Path targets) {
    return ProgressPolicy.watching(Objects.requireNonNull(targets, "targets"), null);
  }

  /**
   * The progress-aware policy ({@code progress:TARGETS.json+THRESHOLDS.json}) on a target table
   * file and a threshold table file, both watched for a new table until the policy is closed.
   *
   * @throws IllegalArgumentException if a file is missing or invalid, naming file, field and
   *     problem
   */
  public static Policy progress(Path targets, Path thresholds) {
    return ProgressPolicy.watching(
        Objects.requireNonNull(targets, "targets"),
        Objects.requireNonNull(thresholds, "thresholds"));
  }

  /**
   * {@code policy} with its free workers taking work in the order {@code preference}, whatever the
   * policy prefers itself ({@code fixed:2@admit-first}).
   */
  public static Policy withPreference(Policy policy, WorkerPreference preference) {
    Objects.requireNonNull(preference, "preference");
    // A second override replaces the first, as the last suffix of a specification counts.
    Policy inner =
        Objects.requireNonNull(policy, "policy") instanceof PreferenceOverride o
            ? o.policy
            : policy;
    return new PreferenceOverride(inner, preference);
  }

  private static int positive(int value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
    return value;
  }

  private static long positive(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
    return value.toNanos();
  }

  private static long nonNegative(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative, got " + value);
    }
    return value.toNanos();
  }
}
