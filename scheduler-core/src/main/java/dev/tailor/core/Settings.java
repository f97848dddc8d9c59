package dev.tailor.core;

import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.metrics.RequestGroups;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * A scheduler's configuration as its {@link Scheduler.Builder} collects it, the defaults included:
 * each option checked when it is set, and set once (with two calls, one of them is a mistake, and
 * letting the last win would hide which); the options checked against each other when the scheduler
 * is built ({@link #check}). The {@link WorkerPool} is made from it.
 */
final class Settings {

  /**
   * The most workers a scheduler takes: a request's threads (at most twice the workers, with the
   * largest slack) must fit its control word ({@link Request#MAX_THREADS}).
   */
  static final int MAX_WORKERS = 4096;

  Policy policy = PolicyRegistry.of(Scheduler.DEFAULT_POLICY);
  int workers = Runtime.getRuntime().availableProcessors();
  Tuning tuning = Tuning.defaults();
  RequestGroups groups = RequestGroups.tpcDefault();
  SchedulerListener listener;
  Dispatcher.DecisionListener decisions;
  ThreadFactory threadFactory = Worker.DEFAULT_FACTORY;
  LongSupplier clock = System::nanoTime;
  BudgetPolicy budgetPolicy; // null: the budget is every worker, always
  int minBudget = 1;
  long budgetPeriodNanos = Scheduler.DEFAULT_BUDGET_PERIOD_NANOS;
  private final Set<String> given = new HashSet<>();

  /** Notes that {@code option} is being set, and refuses a second time. */
  void once(String option) {
    if (!given.add(option)) {
      throw new IllegalStateException(
          option + " is already set; set each option of the builder once");
    }
  }

  void policy(Policy policy) {
    once("policy");
    this.policy = Objects.requireNonNull(policy, "policy");
  }

  void workers(int workers) {
    if (workers < 1 || workers > MAX_WORKERS) {
      throw new IllegalArgumentException(
          "workers must be in [1, " + MAX_WORKERS + "], got " + workers);
    }
    once("workers");
    this.workers = workers;
  }

  void tuning(Tuning tuning) {
    Objects.requireNonNull(tuning, "tuning");
    once("tuning");
    this.tuning = tuning;
  }

  /**
   * Changes one knob of the tuning, for this package's tests, which set knobs one at a time: set
   * once, like every option, and checked by the tuning as it is set.
   */
  void knob(String option, UnaryOperator<Tuning> change) {
    Tuning changed = change.apply(tuning);
    once(option);
    this.tuning = changed;
  }

  /** The floors of threads per class, by ordinal, for {@code workers} threads. */
  int[] classFloors() {
    return tuning.classFloors(workers);
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
    this.budgetPeriodNanos = Tuning.saturatedNanos(period);
  }

  /** Checks the options against each other. */
  void check() {
    if (tuning.slack > workers) {
      throw new IllegalStateException(
          "slack ("
              + tuning.slack
              + ") exceeds workers ("
              + workers
              + "): lower slack or raise workers");
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
}
