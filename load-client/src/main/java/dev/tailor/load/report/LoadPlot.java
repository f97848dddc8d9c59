package dev.tailor.load.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A plot of figures against offered load in the report's style (XChart, the report's size and
 * colours, a log axis for latency, a dashed line across for a threshold), for what is not a sweep's
 * points, such as a plan's predictions ({@code tailor plan}).
 */
public final class LoadPlot {

  /**
   * One line of the plot.
   *
   * @param name its legend
   * @param x the loads, requests/s
   * @param y the figure at each load
   */
  public record Line(String name, List<Double> x, List<Double> y) {

    /** Copies the lists, which must be as long as each other. */
    public Line {
      x = List.copyOf(x);
      y = List.copyOf(y);
      if (x.size() != y.size()) {
        throw new IllegalArgumentException("a line needs as many loads as figures");
      }
    }
  }

  private LoadPlot() {}

  /**
   * Writes the plot as a PNG, atomically: the lines against load on a log axis named {@code yAxis},
   * and a dashed line across at {@code threshold} named {@code thresholdName} (none where it is
   * null).
   */
  public static void write(
      String title,
      String yAxis,
      List<Line> lines,
      String thresholdName,
      double threshold,
      Path file)
      throws IOException {
    Plots.lines(title, yAxis, lines, thresholdName, threshold, file);
  }
}
