package dev.tailor.load.fidelity;

import dev.tailor.core.io.AtomicFiles;
import dev.tailor.load.IndexSegments;
import dev.tailor.load.report.Report;
import dev.tailor.load.report.ReportedWorkload;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

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
   * @param cores simulated threads, or null for the worker count the report's points ran at where
   *     the replay swept worker counts ({@link MeasuredReport#workers}), else the cores the profile
   *     was taken on
   * @param quantumNanos the policies' tick, as the replay's scheduler had it
   * @param targetNanos the latency target, or 0 for none
   * @param calibration the machine's calibration, already checked against the profile, or null
   * @param atRunSpeed whether each point is simulated with the calibration carried to the machine's
   *     speed when it ran ({@link SimulatorFidelity#compare})
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
      boolean atRunSpeed,
      int seeds)
      throws IOException {
    MeasuredReport measured = MeasuredReport.read(reportDir);
    DemandProfile profile = DemandProfile.read(profileFile);
    SimulatorFidelity.requireSameQueries(measured, profileFile, profile);
    int workers =
        cores != null
            ? cores
            : measured.workers() > 0 ? measured.workers() : profile.environment().cores();
    SimulatorFidelity.Comparison comparison =
        SimulatorFidelity.compare(
            measured,
            profile,
            plan,
            workers,
            quantumNanos,
            targetNanos,
            calibration,
            atRunSpeed,
            seeds,
            IndexSegments.ofProfile(profile));
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
            : "\nSimulated with the "
                + calibration
                + ".\n"
                + speedNote(measured, calibration, atRunSpeed));
    for (Simulator.WorkModel model : comparison.models()) {
      md.append('\n').append(CellErrors.markdown(CellErrors.of(comparison, model), model, GOAL));
    }
    md.append('\n').append(RankAgreement.markdown(RankAgreement.of(comparison), TAU_GOAL));
    String table = md.toString();
    Path file = reportDir.resolve(Report.FIDELITY);
    AtomicFiles.writeString(file, table);
    return new Written(comparison, table, file);
  }

  /** What the table says of the machine's speed: whether the calibration was carried to it. */
  static String speedNote(MeasuredReport measured, Calibration calibration, boolean atRunSpeed) {
    List<PointResult> probed = measured.points().stream().filter(p -> p.probe() != null).toList();
    if (probed.isEmpty()) {
      return "The report's runs carry no speed probe: the calibration is used as measured.\n";
    }
    double[] tail = probed.stream().mapToDouble(p -> p.probe().longRatio()).sorted().toArray();
    double[] median = probed.stream().mapToDouble(p -> p.probe().shortRatio()).sorted().toArray();
    String range =
        String.format(
            Locale.ROOT,
            "The machine's speed probe over the report's %d runs: the median queries at x%.2f-x%.2f"
                + " their profiled time, the longest at x%.2f-x%.2f.",
            probed.size(),
            median[0],
            median[median.length - 1],
            tail[0],
            tail[tail.length - 1]);
    if (!atRunSpeed) {
      return range + " The calibration is used as measured (--at-run-speed off).\n";
    }
    if (calibration.probe() == null || calibration.runTimes() == null) {
      return range
          + " The calibration has no speed probe or run-time map, so it is used as measured.\n";
    }
    return range
        + " Each run is simulated with the calibration carried to its own probe's reading, each"
        + " cell to the median of its runs' (Calibration.atSpeed).\n";
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
