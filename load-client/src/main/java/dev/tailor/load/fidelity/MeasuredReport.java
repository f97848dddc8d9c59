package dev.tailor.load.fidelity;

import dev.tailor.load.report.ReplayedTrace;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.CalibrationFit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A replay's report as the fidelity comparison reads it: its measured points (simulated ones left
 * out), by load, policy and repetition, and the trace it replayed where the report records it. The
 * tuned {@code oracle}'s points do not record the setting chosen at their load; the comparison
 * tunes it again in the simulator, as the replay did.
 *
 * @param dir the report directory
 * @param points the measured points, by load then policy
 * @param trace the replayed trace, or null if the report does not record it
 */
public record MeasuredReport(Path dir, List<PointResult> points, ReplayedTrace trace) {

  /** Copies the list. */
  public MeasuredReport {
    points = List.copyOf(points);
  }

  /**
   * Reads a report directory.
   *
   * @throws IllegalArgumentException naming the directory if it has no points or no measured one
   * @throws IOException naming the file if a point or the trace record does not read
   */
  public static MeasuredReport read(Path dir) throws IOException {
    Path points = dir.resolve("points");
    if (!Files.isDirectory(points)) {
      throw new IllegalArgumentException(
          points + ": not a directory; is " + dir + " a replay's report?");
    }
    List<PointResult> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(points)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        PointResult p = PointResult.read(f);
        if (!p.environment().startsWith("simulated")) {
          out.add(p);
        }
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(points + ": no measured point to compare");
    }
    out.sort(
        Comparator.comparingDouble(PointResult::offeredRps)
            .thenComparing(PointResult::policy)
            .thenComparingInt(PointResult::repetition));
    return new MeasuredReport(dir, out, ReplayedTrace.read(dir));
  }

  /**
   * The worker count every point ran at where the replay swept worker counts ({@link
   * PointResult#workers}), or 0 where a point names none or the points name different ones.
   */
  public int workers() {
    int first = points.get(0).workers();
    for (PointResult p : points) {
      if (p.workers() != first) {
        return 0;
      }
    }
    return first;
  }

  /** The measured runs as the calibration fit reads them. */
  public CalibrationFit.Runs runs() {
    return new CalibrationFit.Runs(dir, points);
  }
}
