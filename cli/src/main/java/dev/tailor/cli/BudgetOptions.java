package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.profiler.IndexingBeside;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.lucene.analysis.Analyzer;
import picocli.CommandLine.Option;

/**
 * The elastic worker budget's options of {@code serve}, with {@code --index-beside}: indexing that
 * takes the cores the budget returns ({@link IndexingBeside}).
 */
final class BudgetOptions {

  @Option(
      names = "--budget",
      paramLabel = "SPEC",
      description =
          "An elastic worker budget: static, delay-range[:LO,HI] or utilization-range[:LO,HI]."
              + " Default: every worker, always.")
  String budget;

  @Option(
      names = "--budget-min",
      paramLabel = "N",
      defaultValue = "1",
      description = "The least budget (default ${DEFAULT-VALUE}).")
  int budgetMin;

  @Option(
      names = "--budget-period",
      paramLabel = "DURATION",
      defaultValue = "1ms",
      description = "How often the budget is resized (default ${DEFAULT-VALUE}).")
  String budgetPeriod;

  @Option(
      names = "--index-beside",
      paramLabel = "FILE",
      description = "Line documents to index on the cores the budget returns; needs --budget.")
  Path indexBeside;

  /**
   * Sets the budget on {@code builder}.
   *
   * @throws IllegalArgumentException naming the option if a value is bad
   */
  void apply(Scheduler.Builder builder) {
    if (budget == null) {
      if (indexBeside != null) {
        throw new IllegalArgumentException(
            "--index-beside needs --budget: a static budget returns no core to index on");
      }
      return;
    }
    BudgetPolicy policy;
    try {
      policy = BudgetPolicy.of(budget);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--budget: " + e.getMessage(), e);
    }
    try {
      Duration period = Duration.ofNanos(Durations.parseNanos(budgetPeriod));
      SchedulerInternals.elasticBudget(builder, policy, budgetMin, period);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--budget-min/--budget-period: " + e.getMessage(), e);
    }
    if (indexBeside != null && !Files.isRegularFile(indexBeside)) {
      throw new IllegalArgumentException("--index-beside: " + indexBeside + " is not a file");
    }
  }

  /**
   * Starts indexing {@code --index-beside}'s documents on the cores the budget returns, or returns
   * null if the option is not given.
   */
  IndexingBeside startBeside(Scheduler scheduler, Analyzer analyzer, PrintWriter err)
      throws IOException {
    return indexBeside == null
        ? null
        : IndexingBeside.start(
            indexBeside, scheduler, analyzer, line -> err.printf("%s%n", line).flush());
  }
}
