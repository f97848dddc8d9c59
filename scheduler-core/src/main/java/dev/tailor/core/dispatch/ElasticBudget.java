package dev.tailor.core.dispatch;

import dev.tailor.core.FailureLog;
import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.core.budget.BudgetSample;
import java.util.Objects;

/**
 * The elastic budget: the slots are a budget of at most {@code workers} threads that a {@link
 * BudgetPolicy} resizes at the end of every period, from the period's utilization and queueing
 * delay (McClure et al., "Efficient Scheduling Policies for Microsecond-Scale Tasks", NSDI'22,
 * Section 4.1). This class keeps the period, measures it ({@link BudgetMeter}) and asks the policy,
 * guarded; the {@link Dispatcher} applies the answer: a budget that grows frees slots at once, one
 * that shrinks below the busy threads takes no thread away mid-unit (helpers {@linkplain
 * HelperRules#yields yield} at their next boundary meanwhile). The budget never falls below one
 * thread, so no request is stranded.
 *
 * <p>Not thread-safe, as the dispatch core; {@link #nextCheck()} may be read without the host's
 * exclusion.
 */
final class ElasticBudget {

  private final BudgetPolicy policy;
  private final int minBudget;
  private final int workers;
  private final long periodNanos;
  final BudgetMeter meter;
  private volatile long nextCheck;

  /**
   * @throws IllegalArgumentException if {@code minBudget} is not in [1, workers] or the period is
   *     not positive
   */
  ElasticBudget(BudgetPolicy policy, int minBudget, int workers, long periodNanos, long now) {
    this.policy = Objects.requireNonNull(policy, "policy");
    if (minBudget < 1 || minBudget > workers) {
      throw new IllegalArgumentException(
          "the least budget must be in [1, " + workers + "] threads, got " + minBudget);
    }
    if (periodNanos < 1) {
      throw new IllegalArgumentException(
          "the budget's period must be positive, got " + periodNanos + " ns");
    }
    this.minBudget = minBudget;
    this.workers = workers;
    this.periodNanos = periodNanos;
    this.meter = new BudgetMeter(now, workers);
    this.nextCheck = now + periodNanos;
  }

  /** When the period ends, on the host's clock. */
  long nextCheck() {
    return nextCheck;
  }

  /**
   * Ends the period at {@code now} and asks the policy for the next budget, clamped to [minBudget,
   * workers]; {@code budget} again if the policy failed.
   *
   * @param queuedWaitNanos the waits so far of the {@code queued} requests still queued, summed
   */
  int resize(long now, int budget, double queuedWaitNanos, int queued, FailureLog failures) {
    BudgetSample sample =
        new BudgetSample(
            Math.max(1, now - meter.periodStart()),
            budget,
            minBudget,
            workers,
            meter.utilization(now),
            meter.meanQueueingDelay(queuedWaitNanos, queued),
            meter.meanServiceNanos(),
            queued);
    meter.nextPeriod(now);
    nextCheck = now + periodNanos;
    int next;
    try {
      next = policy.resize(sample);
    } catch (Throwable e) {
      failures.report("budgetPolicy.resize", "the budget is kept", e);
      return budget;
    }
    return Math.max(minBudget, Math.min(workers, next));
  }
}
