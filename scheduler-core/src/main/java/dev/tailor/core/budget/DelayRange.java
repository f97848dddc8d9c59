package dev.tailor.core.budget;

/**
 * Keeps the mean queueing delay within [lo, hi] times the mean service time, one thread at a time
 * (McClure et al., NSDI'22, Section 4.1, "delay range"). The paper states the range in microseconds
 * for its microsecond tasks (Table 2: 0.5-1 µs); stated relative to the service time, the same
 * policy fits requests of milliseconds.
 *
 * <p>Before any request has completed there is no service time to compare with: then any delay at
 * all adds a thread, and none (nothing waited) revokes one.
 */
final class DelayRange implements BudgetPolicy {

  private final double lo;
  private final double hi;

  DelayRange(double lo, double hi) {
    if (!(lo >= 0 && lo <= hi && Double.isFinite(hi))) {
      throw new IllegalArgumentException(
          "delay range needs 0 <= LO <= HI, finite, got " + lo + "," + hi);
    }
    this.lo = lo;
    this.hi = hi;
  }

  @Override
  public int resize(BudgetSample last) {
    double delay = last.meanQueueingDelayNanos();
    double service = last.meanServiceNanos();
    if (service <= 0) {
      return delay > 0 ? last.budget() + 1 : last.budget() - 1;
    }
    return BudgetSpecs.step(last.budget(), delay / service, lo, hi);
  }

  @Override
  public String spec() {
    return "delay-range:" + BudgetSpecs.number(lo) + "," + BudgetSpecs.number(hi);
  }

  @Override
  public String toString() {
    return spec();
  }
}
