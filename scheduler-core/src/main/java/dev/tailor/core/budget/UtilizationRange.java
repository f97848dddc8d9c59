package dev.tailor.core.budget;

/**
 * Keeps the utilization of the budget (busy thread time over budget time) within [lo, hi], one
 * thread at a time (McClure et al., NSDI'22, Section 4.1, "utilization range").
 *
 * <p>A request that runs through the whole period counts as busy for all of it: the scheduler
 * integrates the busy threads exactly, so the paper's caveat for a runtime that sees only task
 * starts and ends (Section 5) does not arise.
 */
final class UtilizationRange implements BudgetPolicy {

  private final double lo;
  private final double hi;

  UtilizationRange(double lo, double hi) {
    if (!(lo >= 0 && lo <= hi && hi <= 1)) {
      throw new IllegalArgumentException(
          "utilization range needs 0 <= LO <= HI <= 1, got " + lo + "," + hi);
    }
    this.lo = lo;
    this.hi = hi;
  }

  @Override
  public int resize(BudgetSample last) {
    return BudgetSpecs.step(last.budget(), last.utilization(), lo, hi);
  }

  @Override
  public String spec() {
    return "utilization-range:" + BudgetSpecs.number(lo) + "," + BudgetSpecs.number(hi);
  }

  @Override
  public String toString() {
    return spec();
  }
}
