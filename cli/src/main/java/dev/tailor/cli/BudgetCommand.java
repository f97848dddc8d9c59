package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.budget.BudgetStudy;
import dev.tailor.studies.BudgetTable;
import dev.tailor.studies.StudyRunner;
import dev.tailor.studies.Workloads;
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
      "Simulate elastic worker budgets against a static one at each core count and utilization"
          + " (docs/results/elastic-budget.md)."
    })
final class BudgetCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin StudyWorkload workload;

  @Mixin CalibrationOption calibration;

  @Option(
      names = "--cores",
      split = ",",
      defaultValue = "16,64",
      description = "Simulated threads, each a table (default ${DEFAULT-VALUE}).")
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
          "delay-range[:LO,HI] and/or utilization-range[:LO,HI] (default ${DEFAULT-VALUE}).")
  List<String> budgets;

  @Option(
      names = "--policy",
      defaultValue = "seq",
      description = "The search policy deciding degrees (default ${DEFAULT-VALUE}).")
  String policy;

  @Option(
      names = "--period",
      defaultValue = "0.5x",
      description = "How often the budget is resized: a duration or a multiple of the mean work.")
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
          "How far above the static P99, in %%, is the same P99 (default ${DEFAULT-VALUE}).")
  double tolerance;

  @Mixin SimulatedPoints points;

  @Mixin TableOutput output;

  @Override
  public Integer call() throws Exception {
    int maxCores = cores.stream().mapToInt(Integer::intValue).max().orElse(1);
    DemandProfile demand =
        workload.demand(spec.commandLine(), points.requests, maxCores, points.seed);
    Calibration charged = calibration.load(demand, spec.commandLine().getErr());
    double mean = demand.meanSequentialNanos();
    long periodNanos = periodNanos(mean);
    BudgetStudy study =
        Usage.check(
            spec,
            () ->
                new BudgetStudy(
                    demand,
                    policy,
                    Workloads.countedUnits(1, points.requests, charged),
                    periodNanos,
                    minThreads,
                    points.requests,
                    points.seed,
                    tolerance / 100));
    StudyRunner runner = output.runner(spec);
    runner.line(
        String.format(
            Locale.ROOT,
            "search policy %s, mean work %.2f ms, budget period %.2f ms, least budget %d, %d"
                + " requests a point (10%% warm-up), seed %d, unit model",
            policy,
            mean / 1e6,
            periodNanos / 1e6,
            minThreads,
            points.requests,
            points.seed));
    for (int c : cores) {
      runner.title(c + " cores");
      Usage.check(spec, () -> runner.run(new BudgetTable(study, c, utilizations, budgets)));
    }
    return 0;
  }

  private long periodNanos(double meanWork) {
    String p = period.trim();
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
    throw new ParameterException(
        spec.commandLine(),
        "--period: expected a positive duration such as 5ms or a multiple of the mean work such as"
            + " 0.5x, got '"
            + period
            + "'");
  }
}
