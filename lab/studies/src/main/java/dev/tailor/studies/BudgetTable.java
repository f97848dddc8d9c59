package dev.tailor.studies;

import dev.tailor.core.Durations;
import dev.tailor.studies.budget.BudgetStudy;
import java.util.ArrayList;
import java.util.List;

/**
 * The elastic-budget study at one core count ({@link BudgetStudy}): a row per utilization with the
 * static budget's P99, each elastic budget's mean threads and P99 (and its ratio to the static
 * one), and the least static budget within the tolerance. A P99 ends in {@code !} where the point
 * saturated.
 */
public final class BudgetTable implements Study<Double> {

  private final BudgetStudy study;
  private final int cores;
  private final List<Double> utilizations;
  private final List<String> budgets;

  /** The rows of {@code study} at {@code cores} threads, one per utilization. */
  public BudgetTable(
      BudgetStudy study, int cores, List<Double> utilizations, List<String> budgets) {
    this.study = study;
    this.cores = cores;
    this.utilizations = List.copyOf(utilizations);
    this.budgets = List.copyOf(budgets);
  }

  /**
   * How often a budget is resized: {@code text} a duration such as {@code 5ms}, or a multiple of
   * the mean request work such as {@code 0.5x}, as McClure et al.'s 5 us interval is of their 10 us
   * tasks.
   *
   * @throws IllegalArgumentException if it is neither, or not positive
   */
  public static long periodNanos(String text, double meanWork) {
    String p = text.trim();
    try {
      long n =
          p.endsWith("x")
              ? Math.round(Double.parseDouble(p.substring(0, p.length() - 1)) * meanWork)
              : Durations.parseNanos(p);
      if (n >= 1) {
        return n;
      }
    } catch (IllegalArgumentException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "expected a positive duration such as 5ms or a multiple of the mean work such as 0.5x,"
            + " got '"
            + text
            + "'");
  }

  @Override
  public String title() {
    return cores + " cores";
  }

  @Override
  public List<Table.Column> columns() {
    List<Table.Column> out = new ArrayList<>();
    out.add(Table.Column.number("util"));
    out.add(Table.Column.number("req/s"));
    out.add(Table.Column.number("static P99 ms"));
    for (String b : budgets) {
      out.add(Table.Column.number(b + ": threads, P99 ms (x static)"));
    }
    out.add(Table.Column.number("least static within tolerance: threads, P99 ms"));
    return out;
  }

  @Override
  public List<Double> points() {
    return utilizations;
  }

  @Override
  public List<String> run(Double utilization) {
    BudgetStudy.Cell cell = study.run(cores, utilization, budgets);
    BudgetStudy.Row full = cell.row(BudgetStudy.STATIC);
    List<String> row = new ArrayList<>();
    row.add(Cells.f("%.2f", utilization));
    row.add(Cells.f("%,.0f", cell.ratePerSecond()));
    row.add(ms(full));
    for (BudgetStudy.Row r : cell.rows()) {
      if (r != full && !r.budget().equals(BudgetStudy.STATIC_LEAST)) {
        row.add(Cells.f("%.1f, %s (%.2f)", r.meanThreads(), ms(r), r.p99Ratio()));
      }
    }
    BudgetStudy.Row least = cell.row(BudgetStudy.STATIC_LEAST);
    row.add(Cells.f("%.0f, %s", least.meanThreads(), ms(least)));
    return row;
  }

  private static String ms(BudgetStudy.Row r) {
    return Cells.f("%.1f%s", r.p99Nanos() / 1e6, r.saturated() ? "!" : "");
  }
}
