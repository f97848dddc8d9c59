package dev.tailor.cli;

import dev.tailor.measure.DemandProfile;
import dev.tailor.studies.BalanceTable;
import dev.tailor.studies.StudyRunner;
import dev.tailor.studies.balance.Balancer;
import dev.tailor.studies.balance.ServiceTimes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tailor balance}: the load-balancing study ({@link BalanceTable}), Tailor's single
 * admission queue against per-core queues with random placement and with work stealing.
 */
@Command(
    name = "balance",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    description =
        "Simulate W cores under a single shared queue, random placement on per-core queues and"
            + " work stealing, over cores x utilization (docs/results/load-balancing.md).")
final class BalanceCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--workload",
      split = ",(?=[a-z])",
      paramLabel = "SPEC",
      defaultValue = "exponential:1us,exponential:10us,lognormal:1ms,1.3ms,lognormal:10ms,13ms",
      description = "Service times, each swept: exponential:MEAN or lognormal:MEAN,SD.")
  List<String> workloads;

  @Option(names = "--profile", paramLabel = "FILE", description = "Also a profile's times.")
  Path profile;

  @Option(names = "--cores", split = ",", defaultValue = "2,4,8,16,32,64", description = "Cores.")
  int[] cores;

  @Option(
      names = "--loads",
      split = ",",
      defaultValue = "0.1,0.3,0.5,0.7,0.8,0.9,0.95",
      description = "Utilizations, each in (0, 1).")
  double[] loads;

  @Option(names = "--queue-op", defaultValue = "100ns", description = "Single queue's lock hold.")
  String queueOp;

  @Option(names = "--queue-contention", defaultValue = "0ns", description = "Added per waiter.")
  String queueContention;

  @Option(names = "--steal-check", defaultValue = "100ns", description = "Cost of a steal check.")
  String stealCheck;

  @Option(names = "--tolerance", defaultValue = "5", description = "Allowed lag, %% of best P99.")
  double tolerance;

  @Mixin SimulatedPoints points;

  @Mixin TableOutput output;

  @Override
  public Integer call() throws Exception {
    Usage.require(spec, tolerance >= 0, "--tolerance must be a percentage >= 0, got " + tolerance);
    List<ServiceTimes> services = new ArrayList<>();
    for (String w : workloads) {
      services.add(Usage.check(spec, () -> ServiceTimes.parse(w)));
    }
    if (profile != null) {
      DemandProfile demand = DemandProfile.read(profile);
      services.add(Usage.check(spec, () -> ServiceTimes.resampled(demand, profile.toString())));
    }
    List<Balancer> balancers =
        List.of(
            Balancer.singleQueue(
                Usage.nonNegative(spec, "--queue-op", queueOp),
                Usage.nonNegative(spec, "--queue-contention", queueContention)),
            Balancer.randomPlacement(),
            Balancer.workStealing(Usage.nonNegative(spec, "--steal-check", stealCheck)));
    StudyRunner runner = output.runner(spec);
    runner.line(
        String.format(
            Locale.ROOT,
            "single queue: %s per enqueue or dequeue + %s per waiter; work stealing: %s per check"
                + " and per steal; %d requests a point (10%% warm-up), seed %d",
            queueOp,
            queueContention,
            stealCheck,
            points.requests,
            points.seed));
    for (ServiceTimes service : services) {
      BalanceTable table =
          new BalanceTable(service, balancers, cores, loads, points.requests, points.seed);
      Usage.check(spec, () -> runner.run(table));
      runner.line("");
      runner.line(table.verdict(tolerance / 100));
    }
    return 0;
  }
}
