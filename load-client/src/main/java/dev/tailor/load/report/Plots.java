package dev.tailor.load.report;

import dev.tailor.core.io.AtomicFiles;
import dev.tailor.measure.PointResult;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The report's PNG plots, drawn with XChart. */
final class Plots {

  private static final int WIDTH = 900;
  private static final int HEIGHT = 560;

  private Plots() {}

  /**
   * A percentile of latency against offered load, one line per policy, as the papers plot it: at
   * each load the pooled percentile of the repetitions ({@link Cell#latency}), left out where any
   * repetition saturated or the point has too few requests for it.
   */
  static void latencyAgainstLoad(List<PointResult> points, String percentile, Path file)
      throws IOException {
    XYChart chart =
        chart(
            percentile.toUpperCase(Locale.ROOT)
                + " latency against load — "
                + points.get(0).environment(),
            LOAD_AXIS,
            percentile.toUpperCase(Locale.ROOT) + " latency (ms, log scale)");
    chart.getStyler().setYAxisLogarithmic(true);
    againstLoad(
        chart,
        points,
        c -> c.runs().stream().allMatch(p -> p.latency().containsKey(percentile)),
        c -> c.pooled().percentile(Double.parseDouble(percentile.substring(1))) / 1e6);
    save(chart, file);
  }

  /**
   * The lowest miss ratio the miss plot draws, in percent: a log axis has no zero, so a cell that
   * missed less (none at all, at light load) is drawn on this floor, far below the 1% that matters.
   */
  static final double MISS_FLOOR_PERCENT = 0.01;

  /**
   * The miss ratio at a latency target against offered load, one line per policy: at each load the
   * median over the repetitions, left out where any repetition saturated or did not record the
   * target, with the sustained threshold drawn across. The axis is logarithmic, from {@link
   * #MISS_FLOOR_PERCENT}: near saturation one policy's misses reach tens of percent, and on a
   * linear axis the 0.1-2% band where the threshold lies, and where the policies part, would be
   * flattened against zero.
   */
  static void missAgainstLoad(List<PointResult> points, Misses misses, Path file)
      throws IOException {
    XYChart chart =
        chart(
            "Requests slower than "
                + misses.label()
                + " against load — "
                + points.get(0).environment(),
            LOAD_AXIS,
            "slower than "
                + misses.label()
                + " (%, log scale; below "
                + MISS_FLOOR_PERCENT
                + "% drawn at it)");
    chart.getStyler().setYAxisLogarithmic(true);
    List<Double> loads =
        againstLoad(
            chart,
            points,
            misses::has,
            c -> Math.max(MISS_FLOOR_PERCENT, 100 * c.median(misses.metric())));
    if (!loads.isEmpty()) {
      double threshold = 100 * Misses.SUSTAINED_MISSES;
      across(
          chart,
          String.format(Locale.ROOT, "%.0f%% (sustained)", threshold),
          Collections.min(loads),
          Collections.max(loads),
          threshold);
    }
    save(chart, file);
  }

  /** A dashed grey line across the chart from {@code low} to {@code high} at {@code y}. */
  private static void across(XYChart chart, String name, double low, double high, double y) {
    chart
        .addSeries(name, List.of(low, high), List.of(y, y))
        .setMarker(SeriesMarkers.NONE)
        .setLineStyle(SeriesLines.DASH_DASH)
        .setLineColor(Color.GRAY);
  }

  /**
   * Lines against load on a log axis, one per {@link LoadPlot.Line}, and a dashed line across at
   * {@code threshold} named {@code thresholdName} (none where the name is null).
   */
  static void lines(
      String title,
      String yAxis,
      List<LoadPlot.Line> lines,
      String thresholdName,
      double threshold,
      Path file)
      throws IOException {
    XYChart chart = chart(title, LOAD_AXIS, yAxis);
    chart.getStyler().setYAxisLogarithmic(true);
    List<Double> loads = new ArrayList<>();
    for (LoadPlot.Line line : lines) {
      if (!line.x().isEmpty()) {
        chart.addSeries(line.name(), line.x(), line.y()).setMarker(SeriesMarkers.CIRCLE);
        loads.addAll(line.x());
      }
    }
    if (thresholdName != null && !loads.isEmpty()) {
      across(chart, thresholdName, Collections.min(loads), Collections.max(loads), threshold);
    }
    save(chart, file);
  }

  /**
   * The points of cells where a run had failures, drawn over the policies' lines as red crosses: a
   * figure there is of the answered requests only, or counts failures as misses, and the summary
   * lists the failures.
   */
  private static final class Failed {
    private final List<Double> x = new ArrayList<>();
    private final List<Double> y = new ArrayList<>();

    void addIfFailed(Cell c, double drawnAt) {
      if (c.failedRuns() > 0) {
        x.add(c.load());
        y.add(drawnAt);
      }
    }

    void mark(XYChart chart) {
      if (x.isEmpty()) {
        return;
      }
      XYSeries s = chart.addSeries(FAILED_SERIES, x, y);
      s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
      s.setMarker(SeriesMarkers.CROSS);
      s.setMarkerColor(Color.RED);
    }
  }

  /** The legend's name of the crosses that mark points with failures. */
  static final String FAILED_SERIES = "x: a run had failures (summary.md)";

  /**
   * The latency CDF of every policy at one load: its median repetition's (by P99), as a share of
   * every request sent, so that a policy whose requests failed levels off below 1 by their share (a
   * failed request is answered within no latency); its legend names the failures.
   */
  static void cdf(List<PointResult> points, double load, Path file) throws IOException {
    XYChart chart =
        chart(
            String.format(
                Locale.ROOT,
                "Latency CDF at %.0f requests/s — %s",
                load,
                points.get(0).environment()),
            "latency (ms)",
            "fraction of requests answered at or below (failed ones never are)");
    chart.getStyler().setXAxisLogarithmic(true);
    for (Cell c : Cell.of(points)) {
      if (c.load() != load) {
        continue;
      }
      PointResult p = c.medianRun();
      Histogram h = p.decodeLatency();
      if (h.getTotalCount() == 0) {
        continue;
      }
      // A version 1 point's histogram may hold its failures already: it is drawn as it is.
      double answered =
          p.latencyMayHoldFailures()
              ? 1
              : (double) h.getTotalCount() / (h.getTotalCount() + p.failed());
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (HistogramIterationValue v : h.percentiles(5)) {
        x.add(Math.max(1e-3, v.getValueIteratedTo() / 1e6));
        y.add(answered * v.getPercentileLevelIteratedTo() / 100.0);
      }
      String name = Report.displayName(p.policy());
      if (p.failed() > 0) {
        name +=
            " (" + p.failed() + " failed, " + Misses.percent((double) p.failed() / p.sent()) + ")";
      }
      chart.addSeries(name, x, y).setMarker(SeriesMarkers.NONE);
    }
    save(chart, file);
  }

  /** The x axis of the plots against load. */
  private static final String LOAD_AXIS = "offered load (requests/s)";

  /** An empty chart of the report's size and style. */
  private static XYChart chart(String title, String xAxis, String yAxis) {
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(title)
            .xAxisTitle(xAxis)
            .yAxisTitle(yAxis)
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    return chart;
  }

  /**
   * Draws one line per policy against load: at each load where its cell did not saturate and is
   * {@code drawn}, the cell's {@code value}; then crosses where a run had failures. Returns the
   * loads of every point drawn.
   */
  private static List<Double> againstLoad(
      XYChart chart,
      List<PointResult> points,
      Predicate<Cell> drawn,
      ToDoubleFunction<Cell> value) {
    List<Cell> cells = Cell.of(points);
    List<Double> loads = new ArrayList<>();
    Failed failed = new Failed();
    for (String policy : Report.policies(points)) {
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (Cell c : cells) {
        if (c.policy().equals(policy) && !c.saturated() && drawn.test(c)) {
          double v = value.applyAsDouble(c);
          x.add(c.load());
          y.add(v);
          failed.addIfFailed(c, v);
        }
      }
      if (!x.isEmpty()) {
        chart.addSeries(Report.displayName(policy), x, y).setMarker(SeriesMarkers.CIRCLE);
      }
      loads.addAll(x);
    }
    failed.mark(chart);
    return loads;
  }

  /** Writes the chart as a PNG, atomically: a reader never sees half a plot. */
  private static void save(XYChart chart, Path file) throws IOException {
    byte[] png = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    AtomicFiles.write(file, out -> out.write(png));
  }
}
