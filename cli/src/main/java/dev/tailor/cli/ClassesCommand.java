package dev.tailor.cli;

import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.ClassMix;
import dev.tailor.studies.ClassesTable;
import dev.tailor.studies.StudyRunner;
import dev.tailor.sweep.Workloads;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tailor classes}: the priority-class study ({@link ClassesTable}). */
@Command(
    name = "classes",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    description =
        "Simulate a mix of interactive and background requests with priority classes on and off,"
            + " and the interactive requests alone (docs/results/priority-classes.md).")
final class ClassesCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin StudyWorkload workload;

  @Mixin CalibrationOption calibration;

  @Option(
      names = "--mix",
      defaultValue = "interactive:0.9,background:0.1:x10",
      description = "CLASS:FRACTION[:xSCALE],...: each class's share and work.")
  String mix;

  @Option(
      names = "--background-share",
      paramLabel = "S",
      description = "The background's floor: S x cores threads, 0 for strict priority (default 1).")
  Double backgroundShare;

  @Option(
      names = "--utilizations",
      split = ",",
      defaultValue = "0.3,0.5,0.6,0.7,0.8",
      description = "Offered utilizations of the cores by the whole mix.")
  List<Double> utilizations;

  @Option(
      names = "--policy",
      defaultValue = "fixed:4",
      description = "The policy deciding degrees within a class.")
  String policy;

  @Option(
      names = "--seeds",
      paramLabel = "N",
      defaultValue = "1",
      description =
          "Seeds --seed, --seed + 1, ...: each its own workload draw and arrivals; every P99 is"
              + " pooled over them with its 95% interval by bootstrap over the seeds.")
  int seeds;

  @Mixin SimulatedCores simulated;

  @Mixin SimulatedPoints points;

  @Mixin TableOutput output;

  @Override
  public Integer call() throws Exception {
    int cores = simulated.cores;
    ClassMix classMix = Usage.check(spec, "--mix: ", () -> ClassMix.parse(mix));
    int[] floors = Dispatcher.defaultFloors();
    if (backgroundShare != null) {
      floors[PriorityClass.BACKGROUND.ordinal()] =
          Usage.check(
              spec, "--background-share: ", () -> Dispatcher.floorThreads(backgroundShare, cores));
    }
    for (double u : utilizations) {
      Usage.require(spec, u > 0, "--utilizations: each must be above 0, got " + u);
    }
    Usage.require(spec, seeds >= 1, "--seeds: must be at least 1, got " + seeds);
    List<ClassesTable.Seeded> inputs = new ArrayList<>();
    Calibration c = null;
    for (long s = points.seed; s < points.seed + seeds; s++) {
      DemandProfile demand = workload.demand(spec.commandLine(), points.requests, cores, s);
      if (s == points.seed) {
        c = calibration.load(demand, spec.commandLine().getErr()); // checked once, said once
      }
      inputs.add(
          new ClassesTable.Seeded(s, demand, Workloads.countedUnits(cores, points.requests, c)));
    }
    ClassesTable table =
        new ClassesTable(inputs, points.requests, policy, classMix, floors, utilizations);
    StudyRunner runner = output.runner(spec);
    runner.line(table.describe());
    runner.run(table);
    return 0;
  }
}
