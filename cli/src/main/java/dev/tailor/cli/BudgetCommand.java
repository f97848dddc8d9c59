package dev.tailor.cli;

import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import dev.tailor.studies.BudgetTable;
import dev.tailor.studies.StudyRunner;
import dev.tailor.studies.budget.BudgetStudy;
import dev.tailor.sweep.Workloads;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tailor budget}: the elastic-budget study ({@link BudgetTable}), one table per core count.
 */
@Command(
    name = "budget",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    description =
        "Simulate elastic worker budgets against a static one at each core count and utilization"
            + " (docs/results/elastic-budget.md).")
final class BudgetCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin StudyWorkload workload;

  @Mixin CalibrationOption calibration;

  @Option(
      names = "--cores",
      split = ",",
      defaultValue = "16,64",
      description = "Threads, a table each.")
  List<Integer> cores;

  @Option(
      names = "--utilizations",
      split = ",",
      defaultValue = "0.1,0.3,0.5,0.7,0.9",
      description = "Offered utilizations of all the cores.")
  List<Double> utilizations;

  @Option(
      names = "--budgets",
      split = ",(?=[a-z])",
      defaultValue = "delay-range,utilization-range",
      description = "delay-range[:LO,HI] and/or utilization-range[:LO,HI].")
  List<String> budgets;

  @Option(names = "--policy", defaultValue = "seq", description = "The search policy.")
  String policy;

  @Option(names = "--period", defaultValue = "0.5x", description = "Resize period, or x mean work.")
  String period;

  @Option(names = "--min-threads", defaultValue = "1", description = "The least budget.")
  int minThreads;

  @Option(names = "--tolerance", defaultValue = "5", description = "Equal P99s, within %%.")
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
    long periodNanos = Usage.check(spec, "--period: ", () -> BudgetTable.periodNanos(period, mean));
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
      Usage.check(spec, () -> runner.run(new BudgetTable(study, c, utilizations, budgets)));
    }
    return 0;
  }
}
