package dev.tailor.core.budget;

/** Every thread, always (McClure et al., NSDI'22, Section 3.2.2, "Static"). */
final class StaticBudget implements BudgetPolicy {

  static final StaticBudget INSTANCE = new StaticBudget();

  private StaticBudget() {}

  @Override
  public int resize(BudgetSample last) {
    return last.maxBudget();
  }

  @Override
  public String spec() {
    return "static";
  }

  @Override
  public String toString() {
    return spec();
  }
}
