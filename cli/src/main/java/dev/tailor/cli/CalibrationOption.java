package dev.tailor.cli;

import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code --calibration FILE} option of the commands that simulate: what a served request costs
 * on the measured machine beyond its profiled time ({@link Calibration}, written by {@code tailor
 * calibrate} or the demo), charged to every simulated request.
 */
final class CalibrationOption {

  @Option(
      names = "--calibration",
      paramLabel = "FILE",
      description =
          "Charge every simulated request what a served one cost beyond its profiled time"
              + " (./tailor calibrate).")
  Path file;

  @Option(
      names = "--scale-calibration",
      description =
          "Use the calibration's machine model on another core count than it was measured on,"
              + " scaled by the documented rules (docs/architecture.md).")
  boolean scale;

  @Option(
      names = "--calibration-machine-only",
      description =
          "Take the calibration's machine part alone (stalls, GC pauses, co-run and warm-start"
              + " factors, wake-up, completion and send-lag delays), as a generated workload does:"
              + " for a measured profile of another trace or index.")
  boolean machineOnly;

  /** Whether {@code --calibration} was given. */
  boolean given() {
    return file != null;
  }

  /**
   * The calibration, checked against {@code profile} and as it takes it (its machine part alone for
   * a generated profile, or with {@code --calibration-machine-only}), scalable to another core
   * count if {@code --scale-calibration} was given, or null if none was given. A warning (older
   * than the profile, or a generated profile that takes the machine part alone) goes to {@code
   * err}.
   *
   * @throws IOException naming the file and field, if it cannot be read or does not fit the profile
   */
  Calibration load(DemandProfile profile, PrintWriter err) throws IOException {
    if (file == null) {
      return null;
    }
    Calibration read = Calibration.read(file);
    if (machineOnly) {
      read = read.machineOnly(); // its workload is then not compared with the profile's
    }
    String warning = read.check(file, profile);
    Calibration c = read.forProfile(profile).withScaling(scale);
    if (warning != null) {
      err.println("warning: " + warning);
    }
    err.println("simulating with the " + c);
    err.flush();
    return c;
  }
}
