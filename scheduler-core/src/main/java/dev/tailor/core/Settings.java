package dev.tailor.core;

import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.metrics.RequestGroups;
import dev.tailor.core.model.GuidedClaims;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.PriorityClass;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.function.LongSupplier;

/**
 * A scheduler's configuration as its {@link Scheduler.Builder} collects it, the defaults included:
 * each option checked when it is set, and set once (with two calls, one of them is a mistake, and
 * letting the last win would hide which); the options checked against each other when the scheduler
 * is built ({@link #check}). The {@link WorkerPool} is made from it.
 */
final class Settings {

  /** How long idle threads spin before they park unless configured: 20 µs (0 on one core). */
  static final long DEFAULT_SPIN_NANOS = 20_000L;

  Policy policy = PolicyRegistry.of(Scheduler.DEFAULT_POLICY);
  boolean ownsPolicy = true;
  int workers = Runtime.getRuntime().availableProcessors();
  int queueCapacity = 10_000;
  long quantumNanos = Scheduler.DEFAULT_QUANTUM_NANOS;
  long spinNanos = Runtime.getRuntime().availableProcessors() > 1 ? DEFAULT_SPIN_NANOS : 0;
  boolean promptAdmission = true;
  int slack = Scheduler.DEFAULT_SLACK;
  long promptBoundNanos = GuidedClaims.PROMPT_NANOS;
  long longThresholdNanos = Scheduler.DEFAULT_LONG_THRESHOLD_NANOS;
  RequestGroups groups = RequestGroups.tpcDefault();
  SchedulerListener listener;
  Dispatcher.DecisionListener decisions;
  ThreadFactory threadFactory = Worker.DEFAULT_FACTORY;
  LongSupplier clock = System::nanoTime;
  BudgetPolicy budgetPolicy; // null: the budget is every worker, always
  int minBudget = 1;
  long budgetPeriodNanos = Scheduler.DEFAULT_BUDGET_PERIOD_NANOS;
  private double[] classShares; // by class ordinal; null or NaN: the default floor
  private final Set<String> given = new HashSet<>();

  /** Notes that {@code option} is being set, and refuses a second time. */
  void once(String option) {
    if (!given.add(option)) {
      throw new IllegalStateException(
          option + " is already set; set each option of the builder once");
    }
  }

  void policy(Policy policy, boolean owned) {
    once("policy");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.ownsPolicy = owned;
  }

  void workers(int workers) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be >= 1, got " + workers);
    }
    once("workers");
    this.workers = workers;
  }

  void queueCapacity(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("queueCapacity must be >= 1, got " + capacity);
    }
    once("queueCapacity");
    this.queueCapacity = capacity;
  }

  void quantum(Duration quantum) {
    once("quantum", quantum);
    this.quantumNanos = saturatedNanos(quantum);
  }

  void spinBeforePark(Duration spin) {
    Objects.requireNonNull(spin, "spin");
    if (spin.isNegative()) {
      throw new IllegalArgumentException(
          "spinBeforePark must be zero (no spinning) or positive, got " + spin);
    }
    once("spinBeforePark");
    this.spinNanos = saturatedNanos(spin); // the longest: spin until there is work
  }

  void promptAdmission(boolean on) {
    once("promptAdmission");
    this.promptAdmission = on;
  }

  void slack(int threads) {
    if (threads < 0) {
      throw new IllegalArgumentException("slack must be >= 0, got " + threads);
    }
    once("slack");
    this.slack = threads;
  }

  void promptBound(Duration bound) {
    Objects.requireNonNull(bound, "promptBound");
    if (bound.isZero() || bound.isNegative() || bound.compareTo(MAX_PROMPT_BOUND) > 0) {
      throw new IllegalArgumentException(
          "promptBound must be positive and at most " + MAX_PROMPT_BOUND + ", got " + bound);
    }
    once("promptBound");
    this.promptBoundNanos = bound.toNanos();
  }

  /** The longest prompt bound: longer, a helper's claim would be no prompt bound at all. */
  static final Duration MAX_PROMPT_BOUND = Duration.ofMinutes(1);

  void longRequestThreshold(Duration threshold) {
    Objects.requireNonNull(threshold, "threshold");
    once("longRequestThreshold", threshold);
    this.longThresholdNanos = saturatedNanos(threshold);
  }

  /** Checks that {@code d}, the value of {@code option}, is positive, then notes the option set. */
  private void once(String option, Duration d) {
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(option + " must be positive, got " + d);
    }
    once(option);
  }

  void classShare(PriorityClass priorityClass, double share) {
    Objects.requireNonNull(priorityClass, "priorityClass");
    if (priorityClass.ordinal() == 0) {
      throw new IllegalArgumentException(
          "class " + priorityClass.label() + " is the highest class; it takes no share");
    }
    Dispatcher.floorThreads(share, 1); // checks the share
    once("classShare(" + priorityClass.label() + ")");
    if (classShares == null) {
      classShares = new double[PriorityClass.values().length];
      Arrays.fill(classShares, Double.NaN); // NaN: the default floor
    }
    classShares[priorityClass.ordinal()] = share;
  }

  /** The floors of threads per class, by ordinal, for {@code workers} threads. */
  int[] classFloors() {
    int[] floors = Dispatcher.defaultFloors();
    if (classShares != null) {
      for (int c = 1; c < floors.length; c++) {
        if (!Double.isNaN(classShares[c])) {
          floors[c] = Dispatcher.floorThreads(classShares[c], workers);
        }
      }
    }
    for (int c = 1; c < floors.length; c++) {
      floors[c] = Math.min(floors[c], workers);
    }
    return floors;
  }

  void elasticBudget(BudgetPolicy policy, int minWorkers, Duration period) {
    Objects.requireNonNull(policy, "policy");
    if (minWorkers < 1) {
      throw new IllegalArgumentException(
          "the elastic budget's minWorkers must be >= 1, got " + minWorkers);
    }
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException(
          "the elastic budget's period must be positive, got " + period);
    }
    once("elasticBudget");
    this.budgetPolicy = policy;
    this.minBudget = minWorkers;
    this.budgetPeriodNanos = saturatedNanos(period);
  }

  /** Checks the options against each other. */
  void check() {
    if (slack > workers) {
      throw new IllegalStateException(
          "slack (" + slack + ") exceeds workers (" + workers + "): lower slack or raise workers");
    }
    if (budgetPolicy != null && minBudget > workers) {
      throw new IllegalStateException(
          "the elastic budget's minWorkers ("
              + minBudget
              + ") exceeds workers ("
              + workers
              + "): lower minWorkers or raise workers");
    }
  }

  /** The duration in nanoseconds, or {@link Long#MAX_VALUE} for one too long to say so. */
  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }
}
