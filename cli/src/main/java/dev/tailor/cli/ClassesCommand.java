package dev.tailor.cli;

import dev.tailor.core.Scheduler;
import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.ClassMix;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
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
 * {@code tailor classes}: the priority-class study, simulated. At each utilization it runs the same
 * mix with classes on and off, and the interactive requests alone (no background at all), and
 * prints the interactive P99 of each and the background's P99 and throughput.
 */
@Command(
    name = "classes",
    mixinStandardHelpOptions = true,
    description = {
      "Simulate priority classes: at each utilization, a mix of interactive and background"
          + " requests with classes on (background yields to interactive at unit boundaries,"
          + " keeping its floor of threads) and off (one FIFO class), and the interactive"
          + " requests alone; prints the interactive P99 of each, and the background's P99 and"
          + " throughput."
    })
final class ClassesCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin StudyWorkload workload;

  @Mixin CalibrationOption calibration;

  @Option(
      names = "--mix",
      defaultValue = "interactive:0.9,background:0.1:x10",
      description =
          "CLASS:FRACTION[:xSCALE],...: the share of requests in each class and how many times"
              + " the profiled work they do (default ${DEFAULT-VALUE}).")
  String mix;

  @Option(
      names = "--background-share",
      paramLabel = "S",
      description =
          "The background class's share of the cores: a floor of S x cores threads rounded"
              + " down, at least 1 if S > 0; 0 is strict priority. Default: a floor of 1"
              + " thread.")
  Double backgroundShare;

  @Option(
      names = "--utilizations",
      split = ",",
      defaultValue = "0.3,0.5,0.6,0.7,0.8",
      description =
          "Offered utilizations of the cores by the whole mix (default ${DEFAULT-VALUE}).")
  List<Double> utilizations;

  @Option(
      names = "--policy",
      defaultValue = "fixed:4",
      description = "The policy deciding degrees within a class (default ${DEFAULT-VALUE}).")
  String policy;

  @Option(
      names = "--cores",
      defaultValue = "16",
      description = "Simulated threads (default ${DEFAULT-VALUE}).")
  int cores;

  @Option(
      names = "--requests",
      defaultValue = "20000",
      description = "Requests per point, 10%% of them warm-up (default ${DEFAULT-VALUE}).")
  int requests;

  @Option(
      names = "--seed",
      defaultValue = "1",
      description = "Seed of arrivals, order and classes (default ${DEFAULT-VALUE}).")
  long seed;

  @Override
  public Integer call() throws Exception {
    ClassMix classMix;
    try {
      classMix = ClassMix.parse(mix);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--mix: " + e.getMessage(), e);
    }
    int[] floors = Dispatcher.defaultFloors();
    if (backgroundShare != null) {
      try {
        floors[PriorityClass.BACKGROUND.ordinal()] =
            Dispatcher.floorThreads(backgroundShare, cores);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--background-share: " + e.getMessage());
      }
    }
    for (double u : utilizations) {
      if (!(u > 0)) {
        throw new ParameterException(
            spec.commandLine(), "--utilizations: each must be above 0, got " + u);
      }
    }
    DemandProfile demand = workload.demand(spec.commandLine(), requests, cores, seed);
    double meanNanos = demand.meanSequentialNanos();
    Simulator.Config config =
        new Simulator.Config(
            cores,
            Scheduler.DEFAULT_QUANTUM_NANOS,
            Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
            requests / SweepPlan.COUNTED_WARMUP_DIVISOR,
            Math.max(1_000, requests),
            List.of(),
            Simulator.WorkModel.UNITS,
            calibration.load(demand, spec.commandLine().getErr()));
    SweepPlan plan = SweepPlan.counted("poisson", seed, requests);
    PrintWriter o = spec.commandLine().getOut();
    o.printf(
        Locale.ROOT,
        "%d cores, policy %s, mix %s, background floor %d thread(s), mean profiled work %.2f ms,"
            + " unit model%n",
        cores,
        policy,
        classMix,
        floors[PriorityClass.BACKGROUND.ordinal()],
        meanNanos / 1e6);
    o.println(
        "util      rps | interactive P99 ms: alone     off      on | off/alone on/alone"
            + " | background: P99 on ms  rps on  rps off");
    double interactiveShare = classMix.fraction(PriorityClass.INTERACTIVE);
    ClassMix alone = ClassMix.parse("interactive:1");
    for (double u : utilizations) {
      double rps = u * cores * 1e9 / (meanNanos * classMix.meanScale());
      Simulator.ClassStats aloneI =
          run(demand, config, plan, rps * interactiveShare, alone, floors, true)
              .classStats(PriorityClass.INTERACTIVE);
      Simulator off = run(demand, config, plan, rps, classMix, floors, false);
      Simulator on = run(demand, config, plan, rps, classMix, floors, true);
      Simulator.ClassStats offI = off.classStats(PriorityClass.INTERACTIVE);
      Simulator.ClassStats onI = on.classStats(PriorityClass.INTERACTIVE);
      Simulator.ClassStats offB = off.classStats(PriorityClass.BACKGROUND);
      Simulator.ClassStats onB = on.classStats(PriorityClass.BACKGROUND);
      o.printf(
          Locale.ROOT,
          "%4.2f %8.1f |                %9.2f %7.2f %7.2f | %9s %8s |            %9.2f %7.1f"
              + " %8.1f%n",
          u,
          rps,
          aloneI.p99Nanos() / 1e6,
          offI.p99Nanos() / 1e6,
          onI.p99Nanos() / 1e6,
          ratio(offI, aloneI),
          ratio(onI, aloneI),
          onB.p99Nanos() / 1e6,
          onB.throughputRps(),
          offB.throughputRps());
      o.flush();
    }
    o.println(
        "inter/alone: the interactive P99 over its P99 with no background at all (the"
            + " interactive arrivals alone); the goal is at most 1.10 up to 0.7 utilization.");
    o.flush();
    return 0;
  }

  private static String ratio(Simulator.ClassStats a, Simulator.ClassStats b) {
    return b.p99Nanos() == 0
        ? "-"
        : String.format(Locale.ROOT, "%.2f", (double) a.p99Nanos() / b.p99Nanos());
  }

  private Simulator run(
      DemandProfile demand,
      Simulator.Config config,
      SweepPlan plan,
      double rps,
      ClassMix mix,
      int[] floors,
      boolean prioritized) {
    PointPlan point = plan.point(rps, demand.requests().size());
    try (Policy p = PolicyRegistry.of(policy)) {
      Simulator sim = new Simulator(demand, p, config);
      sim.classes(mix, floors, prioritized);
      sim.run(point, "classes");
      return sim;
    }
  }
}
