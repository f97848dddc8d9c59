package dev.tailor.core.dispatch;

/**
 * What the elastic budget's policy is told about a period: busy thread time, integrated exactly at
 * every change of the busy count; the queueing delays of the requests admitted; and a running mean
 * of service times. Also the budget's own time integral, for the mean budget of a run. Not
 * thread-safe: the dispatch core calls it under its host's exclusion.
 */
final class BudgetMeter {

  /** Weight of one completion in the mean service time: about the last 32 count. */
  private static final double SERVICE_WEIGHT = 1.0 / 32;

  private final long startNanos;
  private long periodStart;
  private long lastChange;
  private int busy;
  private int budget;
  private long busyNanos; // in the current period
  private double budgetTimeNanos; // since the start
  private long admitted; // in the current period
  private double admittedDelayNanos; // their queueing delays, summed
  private double meanServiceNanos; // 0 until the first completion

  BudgetMeter(long now, int budget) {
    this.startNanos = now;
    this.periodStart = now;
    this.lastChange = now;
    this.budget = budget;
  }

  /** The busy threads or the budget change at {@code now}. */
  void changed(long now, int newBusy, int newBudget) {
    long dt = Math.max(0, now - lastChange);
    busyNanos += (long) busy * dt;
    budgetTimeNanos += (double) budget * dt;
    lastChange = Math.max(lastChange, now);
    busy = newBusy;
    budget = newBudget;
  }

  void admitted(long queueingDelayNanos) {
    admitted++;
    admittedDelayNanos += Math.max(0, queueingDelayNanos);
  }

  void completed(long serviceNanos) {
    double s = Math.max(0, serviceNanos);
    meanServiceNanos =
        meanServiceNanos == 0 ? s : meanServiceNanos + SERVICE_WEIGHT * (s - meanServiceNanos);
  }

  long periodStart() {
    return periodStart;
  }

  /** Busy thread time over budget time since the period began, up to {@code now}. */
  double utilization(long now) {
    changed(now, busy, budget);
    long period = Math.max(1, now - periodStart);
    return busyNanos / ((double) Math.max(1, budget) * period);
  }

  /**
   * The mean queueing delay of the period: the admitted requests' delays and the queued requests'
   * waits so far, {@code queuedWaitNanos} summed over {@code queued} of them.
   */
  double meanQueueingDelay(double queuedWaitNanos, int queued) {
    long n = admitted + queued;
    return n == 0 ? 0 : (admittedDelayNanos + queuedWaitNanos) / n;
  }

  double meanServiceNanos() {
    return meanServiceNanos;
  }

  /** Starts the next period at {@code now}. */
  void nextPeriod(long now) {
    changed(now, busy, budget);
    periodStart = now;
    busyNanos = 0;
    admitted = 0;
    admittedDelayNanos = 0;
  }

  /** The budget integrated over time from the start to {@code now}. */
  double budgetTimeNanos(long now) {
    changed(now, busy, budget);
    return budgetTimeNanos;
  }

  /** The time-weighted mean budget from the start to {@code now}. */
  double meanBudget(long now) {
    changed(now, busy, budget);
    long span = now - startNanos;
    return span <= 0 ? budget : budgetTimeNanos / span;
  }
}
