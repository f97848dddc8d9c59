package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.balance.BalanceStudy;
import dev.tailor.sim.balance.Balancer;
import dev.tailor.sim.balance.ServiceTimes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tailor balance}: the load-balancing study in the simulator, Tailor's single admission
 * queue against per-core queues with random placement and with work stealing (McClure et al.,
 * "Efficient Scheduling Policies for Microsecond-Scale Tasks", NSDI'22, §4.2.1).
 */
@Command(
    name = "balance",
    mixinStandardHelpOptions = true,
    description = {
      "Simulate W cores running sequential requests under a single shared queue (Tailor's"
          + " admission queue, its lock contended), random placement on per-core queues, and"
          + " random placement with work stealing; sweep cores x utilization and say where the"
          + " single queue stops being within a tolerance of the best P99.",
      "Every balancer at a point sees the same Poisson arrivals and the same service times."
    })
final class BalanceCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--workload",
      split = ",(?=[a-z])",
      paramLabel = "SPEC",
      defaultValue = "exponential:1us,exponential:10us,lognormal:1ms,1.3ms,lognormal:10ms,13ms",
      description =
          "Service-time distributions, each swept in turn: exponential:MEAN (the paper's"
              + " microsecond tasks) or lognormal:MEAN,SD (tail-control's synthetic workload)."
              + " Default ${DEFAULT-VALUE}.")
  List<String> workloads;

  @Option(
      names = "--profile",
      paramLabel = "FILE",
      description = "Also sweep a demand profile's sequential times, resampled.")
  Path profile;

  @Option(
      names = "--cores",
      split = ",",
      defaultValue = "2,4,8,16,32,64",
      description = "Core counts (default ${DEFAULT-VALUE}).")
  int[] cores;

  @Option(
      names = "--loads",
      split = ",",
      defaultValue = "0.1,0.3,0.5,0.7,0.8,0.9,0.95",
      description = "Utilizations, each in (0, 1) (default ${DEFAULT-VALUE}).")
  double[] loads;

  @Option(
      names = "--requests",
      defaultValue = "20000",
      description = "Requests per point, 10%% of them warm-up (default ${DEFAULT-VALUE}).")
  int requests;

  @Option(
      names = "--queue-op",
      defaultValue = "100ns",
      description =
          "How long an enqueue or a dequeue holds the single queue's lock: one cross-core"
              + " operation of the paper (default ${DEFAULT-VALUE}; 200 ns a request is its 5M/s"
              + " single-queue ceiling).")
  String queueOp;

  @Option(
      names = "--queue-contention",
      defaultValue = "0ns",
      description =
          "Added to that hold for each operation already waiting on the lock, for a lock whose"
              + " hand-off slows with its waiters (default ${DEFAULT-VALUE}).")
  String queueContention;

  @Option(
      names = "--steal-check",
      defaultValue = "100ns",
      description =
          "Cost of each remote queue check and of the steal itself (the paper's 100 ns; default"
              + " ${DEFAULT-VALUE}).")
  String stealCheck;

  @Option(
      names = "--tolerance",
      defaultValue = "5",
      description =
          "How far, in %% of the best P99, the single queue may lag and still hold (default"
              + " ${DEFAULT-VALUE}).")
  double tolerance;

  @Option(names = "--seed", defaultValue = "1", description = "Seed (default ${DEFAULT-VALUE}).")
  long seed;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    if (!(tolerance >= 0)) {
      throw new ParameterException(
          spec.commandLine(), "--tolerance must be a percentage >= 0, got " + tolerance);
    }
    List<ServiceTimes> services = new ArrayList<>();
    try {
      for (String w : workloads) {
        services.add(ServiceTimes.parse(w));
      }
      if (profile != null) {
        services.add(ServiceTimes.resampled(DemandProfile.read(profile), profile.toString()));
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    List<Balancer> balancers =
        List.of(
            Balancer.singleQueue(
                nanos("--queue-op", queueOp), nanos("--queue-contention", queueContention)),
            Balancer.randomPlacement(),
            Balancer.workStealing(nanos("--steal-check", stealCheck)));
    out.printf(
        Locale.ROOT,
        "single queue: %s per enqueue or dequeue + %s per waiter; work stealing: %s per check and"
            + " per steal; %d requests a point (10%% warm-up), seed %d%n",
        queueOp,
        queueContention,
        stealCheck,
        requests,
        seed);
    for (ServiceTimes service : services) {
      List<BalanceStudy.Cell> cells;
      try {
        cells = BalanceStudy.sweep(service, cores, loads, requests, seed, balancers);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage(), e);
      }
      out.printf(Locale.ROOT, "%n## %s%n%n", service);
      StringBuilder head = new StringBuilder("| cores | load | requests/s |");
      StringBuilder rule = new StringBuilder("|---:|---:|---:|");
      for (Balancer b : balancers) {
        head.append(' ').append(b.name()).append(" P50 / P99 |");
        rule.append("---:|");
      }
      out.println(head.append(" best P99 | single vs best |"));
      out.println(rule.append("---|---:|"));
      for (BalanceStudy.Cell cell : cells) {
        StringBuilder row =
            new StringBuilder(
                String.format(
                    Locale.ROOT,
                    "| %d | %.2f | %,.0f |",
                    cell.cores(),
                    cell.load(),
                    cell.ratePerSecond()));
        for (BalanceStudy.Result r : cell.results()) {
          row.append(' ')
              .append(latency(r.p50Nanos()))
              .append(" / ")
              .append(latency(r.p99Nanos()))
              .append(" |");
        }
        double lag =
            (double) cell.result(BalanceStudy.SINGLE_QUEUE).p99Nanos() / cell.winner().p99Nanos()
                - 1;
        row.append(' ')
            .append(cell.winner().balancer())
            .append(String.format(Locale.ROOT, " | %+.1f%% |", lag * 100));
        out.println(row);
      }
      out.printf(
          Locale.ROOT,
          "%n%s: %s.%n",
          service,
          BalanceStudy.Summary.of(cells, tolerance / 100).sentence());
      out.flush();
    }
    return 0;
  }

  private long nanos(String option, String value) {
    try {
      long n = Durations.parseNanos(value);
      if (n < 0) {
        throw new IllegalArgumentException("negative");
      }
      return n;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(),
          option + " must be a duration >= 0 such as 100ns or 1us, got '" + value + "'",
          e);
    }
  }

  /** A latency in the unit that keeps three significant digits readable. */
  static String latency(long nanos) {
    if (nanos >= 1_000_000) {
      return String.format(Locale.ROOT, "%.2fms", nanos / 1e6);
    }
    if (nanos >= 1_000) {
      return String.format(Locale.ROOT, "%.2fus", nanos / 1e3);
    }
    return nanos + "ns";
  }
}
