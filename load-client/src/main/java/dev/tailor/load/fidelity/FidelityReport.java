package dev.tailor.load.fidelity;

import dev.tailor.core.io.AtomicFiles;
import dev.tailor.load.report.Report;
import dev.tailor.load.report.ReportedWorkload;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The whole fidelity step on a replay's report: read its measured points, refuse a profile of other
 * queries, simulate every point again, and write the table, with the simulated workload's spread,
 * into the report as {@value Report#FIDELITY}, atomically.
 */
public final class FidelityReport {

  /**
   * What was compared and written.
   *
   * @param comparison the measured and simulated points
   * @param table the Markdown table
   * @param file where the table was written
   */
  public record Written(SimulatorFidelity.Comparison comparison, String table, Path file) {}

  private FidelityReport() {}

  /**
   * Compares and writes: the table gives the miss ratio at a latency target, simulated beside
   * measured, where the report's points recorded it, and charges every simulated request what
   * {@code calibration} says a served one costs beyond its profiled time.
   *
   * @param reportDir a replay's report directory
   * @param profileFile the demand profile of the replayed queries
   * @param plan the replay's plan (arrivals, duration, warm-up); each point's seed is its own
   * @param cores simulated threads, or null for the cores the profile was taken on
   * @param quantumNanos the policies' tick, as the replay's scheduler had it
   * @param targetNanos the latency target, or 0 for none
   * @param calibration the machine's calibration, already checked against the profile, or null
   * @param seeds the arrival seeds each cell is simulated with ({@link SimulatorFidelity#compare})
   * @throws IllegalArgumentException naming the files if the report has no measured point, the
   *     profile is of other queries, or the plan's arrivals are not the replay's
   * @throws IOException naming the file if the report or the profile does not read
   */
  public static Written write(
      Path reportDir,
      Path profileFile,
      SweepPlan plan,
      Integer cores,
      long quantumNanos,
      long targetNanos,
      Calibration calibration,
      int seeds)
      throws IOException {
    MeasuredReport measured = MeasuredReport.read(reportDir);
    DemandProfile profile = DemandProfile.read(profileFile);
    SimulatorFidelity.requireSameQueries(measured, profileFile, profile);
    int workers = cores != null ? cores : profile.environment().cores();
    SimulatorFidelity.Comparison comparison =
        SimulatorFidelity.compare(
            measured, profile, plan, workers, quantumNanos, targetNanos, calibration, seeds);
    StringBuilder md =
        new StringBuilder(
            FidelityTable.markdown(
                comparison,
                ReportedWorkload.of("profile " + profileFile.getFileName(), profile),
                measured,
                targetNanos));
    md.append(
        calibration == null
            ? "\nNo calibration: every simulated request costs its profiled time only.\n"
            : "\nSimulated with the " + calibration + ".\n");
    for (Simulator.WorkModel model : comparison.models()) {
      md.append('\n').append(CellErrors.markdown(CellErrors.of(comparison, model), model, GOAL));
    }
    md.append('\n').append(RankAgreement.markdown(RankAgreement.of(comparison), TAU_GOAL));
    String table = md.toString();
    Path file = reportDir.resolve(Report.FIDELITY);
    AtomicFiles.writeString(file, table);
    return new Written(comparison, table, file);
  }

  /**
   * How far beyond the measured interval a cell's simulated P50 and P99 may lie, as a fraction of
   * each end ({@link CellErrors#within}).
   */
  public static final double GOAL = 0.20;

  /** The least rank agreement (Kendall's tau-b over resolved pairs) wanted at every load. */
  public static final double TAU_GOAL = 0.8;

  /**
   * A one-line warning if some simulations counted other requests than the replay (the plan was
   * likely not the replay's), or null if none did.
   */
  public static String mismatchWarning(SimulatorFidelity.Comparison comparison) {
    if (comparison.mismatches().isEmpty()) {
      return null;
    }
    return String.format(
        "warning: %d of %d simulations counted other requests than the replay (first: %s);"
            + " were --duration and --warmup the replay's?",
        comparison.mismatches().size(),
        comparison.rows().size() * comparison.models().size(),
        comparison.mismatches().get(0));
  }
}
