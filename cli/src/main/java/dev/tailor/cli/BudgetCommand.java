package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.Scheduler;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sim.budget.BudgetStudy;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tailor budget}: the elastic-budget study, simulated. At each core count and utilization,
 * the threads each elastic budget policy gave search and the P99 it got, against a static budget of
 * every thread and the least static budget within the tolerance of its P99.
 */
@Command(
    name = "budget",
    mixinStandardHelpOptions = true,
    description = {
      "Simulate the elastic worker budget: at each core count and utilization, the threads the"
          + " delay-range and utilization-range policies (McClure et al., NSDI'22) gave search and"
          + " the P99 it got, against a static budget of every thread and the least static"
          + " budget within the tolerance of that P99."
    })
final class BudgetCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin StudyWorkload workload;

  @Mixin CalibrationOption calibration;

  @Option(
      names = "--cores",
      split = ",",
      defaultValue = "16,64",
      description = "Simulated threads (default ${DEFAULT-VALUE}).")
  List<Integer> cores;

  @Option(
      names = "--utilizations",
      split = ",",
      defaultValue = "0.1,0.3,0.5,0.7,0.9",
      description = "Offered utilizations of all the cores (default ${DEFAULT-VALUE}).")
  List<Double> utilizations;

  @Option(
      names = "--budgets",
      split = ",(?=[a-z])",
      defaultValue = "delay-range,utilization-range",
      description =
          "Elastic budget policies: delay-range[:LO,HI], utilization-range[:LO,HI] (default"
              + " ${DEFAULT-VALUE}).")
  List<String> budgets;

  @Option(
      names = "--policy",
      defaultValue = "seq",
      description = "The search policy deciding degrees (default ${DEFAULT-VALUE}).")
  String policy;

  @Option(
      names = "--period",
      defaultValue = "0.5x",
      description =
          "How often the budget is resized: a duration, or a multiple of the mean request work"
              + " such as 0.5x, as McClure et al.'s 5 us interval is of their 10 us tasks"
              + " (default ${DEFAULT-VALUE}).")
  String period;

  @Option(
      names = "--min-threads",
      defaultValue = "1",
      description = "The least budget (default ${DEFAULT-VALUE}).")
  int minThreads;

  @Option(
      names = "--tolerance",
      defaultValue = "5",
      description =
          "How far above the static P99, in %%, still counts as the same P99 (default"
              + " ${DEFAULT-VALUE}).")
  double tolerance;

  @Option(
      names = "--requests",
      defaultValue = "20000",
      description = "Requests per point, 10%% of them warm-up (default ${DEFAULT-VALUE}).")
  int requests;

  @Option(names = "--seed", defaultValue = "1", description = "Seed (default ${DEFAULT-VALUE}).")
  long seed;

  @Override
  public Integer call() throws Exception {
    int maxCores = cores.stream().mapToInt(Integer::intValue).max().orElse(1);
    DemandProfile demand = workload.demand(spec.commandLine(), requests, maxCores, seed);
    Simulator.Config base =
        new Simulator.Config(
            1,
            Scheduler.DEFAULT_QUANTUM_NANOS,
            Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
            requests / SweepPlan.COUNTED_WARMUP_DIVISOR,
            Math.max(1_000, requests),
            List.of(),
            Simulator.WorkModel.UNITS,
            calibration.load(demand, spec.commandLine().getErr()));
    double mean = demand.meanSequentialNanos();
    long periodNanos = periodNanos(mean);
    BudgetStudy study;
    try {
      study =
          new BudgetStudy(
              demand, policy, base, periodNanos, minThreads, requests, seed, tolerance / 100);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    PrintWriter o = spec.commandLine().getOut();
    o.printf(
        Locale.ROOT,
        "search policy %s, mean work %.2f ms, budget period %.2f ms, least budget %d, %d requests"
            + " a point (10%% warm-up), seed %d, unit model%n",
        policy,
        mean / 1e6,
        periodNanos / 1e6,
        minThreads,
        requests,
        seed);
    for (int c : cores) {
      o.printf(Locale.ROOT, "%n## %d cores%n%n", c);
      StringBuilder head = new StringBuilder("| util | req/s | static P99 ms |");
      StringBuilder rule = new StringBuilder("|---:|---:|---:|");
      for (String b : budgets) {
        head.append(' ').append(b).append(": threads, P99 ms (x static) |");
        rule.append("---:|");
      }
      o.println(head.append(" least static within tolerance: threads, P99 ms |"));
      o.println(rule.append("---:|"));
      for (double u : utilizations) {
        BudgetStudy.Cell cell;
        try {
          cell = study.run(c, u, budgets);
        } catch (IllegalArgumentException e) {
          throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        BudgetStudy.Row full = cell.row(BudgetStudy.STATIC);
        StringBuilder row =
            new StringBuilder(
                String.format(
                    Locale.ROOT, "| %.2f | %,.0f | %s |", u, cell.ratePerSecond(), ms(full)));
        for (BudgetStudy.Row r : cell.rows()) {
          if (r != full && !r.budget().equals(BudgetStudy.STATIC_LEAST)) {
            row.append(
                String.format(
                    Locale.ROOT, " %.1f, %s (%.2f) |", r.meanThreads(), ms(r), r.p99Ratio()));
          }
        }
        BudgetStudy.Row least = cell.row(BudgetStudy.STATIC_LEAST);
        row.append(String.format(Locale.ROOT, " %.0f, %s |", least.meanThreads(), ms(least)));
        o.println(row);
        o.flush();
      }
    }
    o.printf(
        Locale.ROOT,
        "%nthreads: the budget averaged over the measured window; (x static): P99 over the static"
            + " budget's; '!' marks a saturated point. Equal P99: within %.0f%%.%n",
        tolerance);
    o.flush();
    return 0;
  }

  private static String ms(BudgetStudy.Row r) {
    return String.format(Locale.ROOT, "%.1f%s", r.p99Nanos() / 1e6, r.saturated() ? "!" : "");
  }

  private long periodNanos(double meanWork) {
    String p = period.trim();
    try {
      long n =
          p.endsWith("x")
              ? Math.round(Double.parseDouble(p.substring(0, p.length() - 1)) * meanWork)
              : Durations.parseNanos(p);
      if (n < 1) {
        throw new IllegalArgumentException("not positive");
      }
      return n;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(),
          "--period: expected a positive duration such as 5ms or a multiple of the mean work such"
              + " as 0.5x, got '"
              + period
              + "'");
    }
  }
}
