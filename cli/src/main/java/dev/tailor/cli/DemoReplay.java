package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.corpora.trace.IndexedTrace;
import dev.tailor.load.InProcessSweep;
import dev.tailor.load.OracleResolver;
import dev.tailor.load.ProfiledTrace;
import dev.tailor.load.Sweep;
import dev.tailor.load.report.ReplayedTrace;
import dev.tailor.load.report.Report;
import dev.tailor.lucene.Windowing;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.MachineNoise;
import dev.tailor.measure.NoiseMeter;
import dev.tailor.measure.PointResult;
import dev.tailor.predictor.ModelPredictor;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;

/**
 * The demo's runs measured on this machine ({@link DemoCommand}'s steps 6 and 7): an open-loop
 * sweep of the profiled queries in this process, as {@code tailor replay} runs it with its
 * defaults, and the machine's idle noise to read it against.
 *
 * <p>Apart from the command because every other step runs another tailor command or builds a table,
 * while this one drives the load client's {@link InProcessSweep} directly, with the demo's index,
 * profile, cores and target fixed once the profile is read; the command keeps its options and the
 * order of the steps.
 *
 * @param index the demo's index
 * @param trace the real queries' trace
 * @param queries the trace's queries replayed, its first ones
 * @param totalHits how far each search counts its hits, as the profile counted them
 * @param profile the profile's file
 * @param demand the profile as read from it
 * @param cores the server's threads, one a core
 * @param cap the degree cap of Tailor's policies
 * @param targetNanos the latency target whose misses the report gives
 * @param out where the reports' summaries are printed
 * @param err where each point and the oracle's tuning are logged
 */
record DemoReplay(
    Path index,
    Path trace,
    int queries,
    int totalHits,
    Path profile,
    DemandProfile demand,
    int cores,
    int cap,
    long targetNanos,
    PrintWriter out,
    PrintWriter err) {

  /**
   * An open-loop sweep of the profiled queries in this process, as {@code tailor replay} runs it
   * with its defaults, {@code repetitions} runs of every point, its report written to {@code
   * report}, its misses at the target given, the oracle tuned in the simulator charged with {@code
   * calibration} (null for none); the calibration's run ({@link DemoCommand#CALIBRATION_RUN})
   * prints no summary.
   */
  List<PointResult> sweep(
      List<String> policies,
      List<Double> loads,
      Path report,
      Path model,
      Calibration calibration,
      int repetitions,
      SweepPlan pointPlan)
      throws IOException, InterruptedException {
    IndexAndTrace input = new IndexAndTrace();
    input.index = index;
    input.trace = trace;
    input.limit = queries;
    Sweep.Plan sweep =
        new Sweep.Plan(
            policies,
            loads,
            pointPlan,
            ReplayCommand.DEFAULT_MAX_BACKLOG,
            ReplayCommand.drainNanos(pointPlan.expectedNanos(Collections.min(loads))),
            LatencyTarget.withTarget(
                List.of(Durations.parseNanos("5ms"), Durations.parseNanos("20ms")), targetNanos));
    sweep = sweep.withRepetitions(repetitions);
    try (IndexedTrace opened = input.open();
        ModelPredictor predictor =
            model == null ? null : ModelPredictor.watch(opened.reader(), model)) {
      ProfiledTrace profiled = ReplayCommand.profiled(opened, demand, profile);
      // The oracle's budget is tuned per load in the simulator on the replay's own arrivals, then
      // run for real: the ceiling every other policy is placed against.
      sweep =
          sweep.withResolver(
              OracleResolver.of(
                  profiled.inTraceOrder(),
                  sweep,
                  cores,
                  cap,
                  opened.manifest().sourceLabel(),
                  calibration,
                  err));
      List<PointResult> points =
          InProcessSweep.run(
              opened.reader(),
              profiled.entries(),
              sweep,
              new InProcessSweep.Server(
                  cores,
                  ReplayCommand.DEFAULT_QUEUE,
                  Windowing.DEFAULT_WINDOWS_PER_THREAD * cores,
                  cap,
                  predictor,
                  totalHits),
              "measured on this machine (" + cores + " cores)",
              opened.manifest().sourceLabel(),
              ReplayCommand.pointPrinter(err, sweep.size()));
      String summary =
          Report.write(
              report,
              points,
              Double.NaN,
              profiled.workload(),
              ReplayedTrace.of(trace, opened.queries().size()),
              new Report.Conditions(cap, Sweep.ORDER).withTarget(targetNanos));
      if (!report.getFileName().toString().equals(DemoCommand.CALIBRATION_RUN)) {
        out.println(summary);
      }
      out.flush();
      return points;
    }
  }

  /**
   * Measures the machine's noise idle for a few seconds and prints it, so that the sweep's figures
   * can be read against what the machine does on its own (each point also carries its own).
   */
  static void printIdleNoise(PrintWriter out) throws InterruptedException {
    Duration idle = Duration.ofSeconds(5);
    MachineNoise noise = NoiseMeter.measure(idle);
    out.printf("   machine noise (%d s idle): %s%n", idle.toSeconds(), noise.describe());
    if (noise.stallsExceed(MachineNoise.DEFAULT_STALL_BOUND_NANOS)) {
      out.println("   (a noisy machine: its stalls alone move the sweep's tail latencies)");
    }
    out.flush();
  }
}
