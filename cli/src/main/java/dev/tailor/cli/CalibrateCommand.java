package dev.tailor.cli;

import dev.tailor.load.fidelity.MeasuredReport;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.CalibrationFit;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tailor calibrate}: the machine's {@link Calibration} from a replay's report ({@link
 * CalibrationFit}): what its {@code seq} requests (and its {@code fixed:d} ones, for the run time
 * at each degree) cost beyond their profiled time, the stalls and GC pauses its noise meter saw,
 * and how much slower requests ran beside others.
 */
@Command(
    name = "calibrate",
    mixinStandardHelpOptions = true,
    description = {
      "Derive the simulator's calibration (--calibration FILE) from a replay's report that ran seq"
          + " in process with --profile at a light load and at one where as many requests as the"
          + " machine has cores often run together; fixed:N runs at the light load (N up to the"
          + " cores) give the served run time at N threads too (--policies seq,fixed:2 --loads"
          + " 0.05,0.8)."
    })
final class CalibrateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ReplayedRun replayed;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "FILE",
      description = "Where to write the calibration (JSON, written atomically).")
  Path out;

  @Override
  public Integer call() throws Exception {
    DemandProfile demand = DemandProfile.read(replayed.profile);
    Calibration c;
    try {
      c = CalibrationFit.fromReport(MeasuredReport.read(replayed.report).runs(), demand);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    // Refused here, naming the field, if the profile is of another machine than the points.
    String warning = c.check(out, demand);
    c.write(out);
    PrintWriter o = spec.commandLine().getOut();
    if (warning != null) {
      spec.commandLine().getErr().println("warning: " + warning);
    }
    o.println(c);
    o.println("written to " + out);
    o.flush();
    return 0;
  }
}
