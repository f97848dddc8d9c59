package dev.tailor.load.report;

import dev.tailor.core.io.AtomicFiles;
import dev.tailor.core.metrics.PointResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes a sweep's report into a directory: a JSON and an HdrHistogram {@code .hgrm} per point, one
 * CSV of every point (a column per {@link Metric}), a Markdown summary (rows are loads, columns
 * policies, each cell the {@link #SUMMARY_METRIC} and its ratio to the best baseline at that load)
 * and PNG plots (P99 and P99.9 against load, the latency CDF at one load). Real runs and
 * simulations write the same report. Every file is written to a hidden sibling and moved into
 * place, so a reader never sees half of one. Every summary states the workload's spread ({@link
 * ReportedWorkload}): whether parallelism can matter depends on it.
 */
public final class Report {

  /** Policies the papers compare against; a cell's ratio is to the best of these at its load. */
  static final Set<String> BASELINES =
      Set.of("seq", "fixed", "adaptive", "wq-linear", "rampup", "rc");

  /** The CSV of every point, one column per {@link Metric}. */
  public static final String RESULTS = "results.csv";

  /** The Markdown summary. */
  public static final String SUMMARY = "summary.md";

  /** The simulator-fidelity table that {@code tailor fidelity} adds to a report. */
  public static final String FIDELITY = "fidelity.md";

  /** The figure the summary compares policies by. */
  static final Metric SUMMARY_METRIC = Metric.P99;

  private Report() {}

  /**
   * Writes every file of a simulation's report. A report directory holds one sweep: the points of
   * an earlier report there are replaced (the whole {@code points} directory at once) and its
   * fidelity table and trace record removed.
   *
   * @param cdfRps the load whose latency CDF is plotted, or NaN for the highest unsaturated one
   * @param workload the requests' workload, which the summary states and {@value
   *     ReportedWorkload#FILE} records
   * @return the Markdown summary
   */
  public static String write(
      Path dir, List<PointResult> points, double cdfRps, ReportedWorkload workload)
      throws IOException {
    return write(dir, points, cdfRps, workload, null);
  }

  /**
   * Writes every file of the report, as {@link #write(Path, List, double, ReportedWorkload)} does,
   * and records which queries a replay sent.
   *
   * @param trace the replayed trace, or null for a simulation's report
   * @return the Markdown summary
   */
  public static String write(
      Path dir,
      List<PointResult> points,
      double cdfRps,
      ReportedWorkload workload,
      ReplayedTrace trace)
      throws IOException {
    // A report holds one sweep: its points replace a previous report's rather than mix with them,
    // and the fidelity table made from those goes with them.
    Files.createDirectories(dir);
    Path pointsDir = AtomicFiles.siblingDirectory(dir.resolve("points"), "writing");
    for (PointResult p : points) {
      String name = fileName(p);
      p.write(pointsDir.resolve(name + ".json"));
      Path hgrm = pointsDir.resolve(name + ".hgrm");
      try (PrintStream out =
          new PrintStream(Files.newOutputStream(hgrm), false, StandardCharsets.UTF_8)) {
        p.decodeLatency().outputPercentileDistribution(out, 1e6); // milliseconds
      }
    }
    AtomicFiles.replaceDirectory(pointsDir, dir.resolve("points"));
    Files.deleteIfExists(dir.resolve(FIDELITY));
    Files.deleteIfExists(dir.resolve(ReplayedTrace.FILE));
    if (trace != null) {
      trace.write(dir);
    }
    workload.write(dir);
    AtomicFiles.writeString(dir.resolve(RESULTS), ResultsCsv.of(points));
    String summary = summary(points, workload);
    AtomicFiles.writeString(dir.resolve(SUMMARY), summary);
    Plots.latencyAgainstLoad(points, "p99", dir.resolve("p99.png"));
    Plots.latencyAgainstLoad(points, "p99.9", dir.resolve("p999.png"));
    double load = Double.isNaN(cdfRps) ? highestUnsaturated(points) : cdfRps;
    Plots.cdf(points, load, dir.resolve("cdf.png"));
    return summary;
  }

  static String fileName(PointResult p) {
    return p.policy().replaceAll("[^A-Za-z0-9.,-]", "_")
        + "@"
        + Metric.load(p.offeredRps())
        + "rps";
  }

  private static double highestUnsaturated(List<PointResult> points) {
    double best = points.isEmpty() ? 0 : points.get(0).offeredRps();
    for (PointResult p : points) {
      if (!p.saturated() && p.offeredRps() > best) {
        best = p.offeredRps();
      }
    }
    return best;
  }

  /**
   * The Markdown summary: the workload's spread, then P99 per load and policy, with the ratio to
   * the best baseline.
   */
  public static String summary(List<PointResult> points, ReportedWorkload workload) {
    Set<String> policies = new LinkedHashSet<>();
    Set<Double> loads = new TreeSet<>();
    for (PointResult p : points) {
      policies.add(p.policy());
      loads.add(p.offeredRps());
    }
    StringBuilder md = new StringBuilder();
    PointResult first = points.isEmpty() ? null : points.get(0);
    md.append("# ")
        .append(SUMMARY_METRIC.name().toUpperCase(Locale.ROOT))
        .append(" latency by load and policy\n\n");
    if (first != null) {
      md.append(first.environment())
          .append("; corpus: ")
          .append(first.corpus())
          .append("; arrivals: ")
          .append(first.arrivals().replaceAll("\\(.*", ""))
          .append(", seed ")
          .append(first.seed())
          .append(".\n\n");
    }
    md.append(workload.summaryLine()).append("\n\n");
    md.append(
        "Each cell: "
            + SUMMARY_METRIC.name().toUpperCase(Locale.ROOT)
            + " in "
            + SUMMARY_METRIC.unit()
            + ", and in brackets its ratio to the best baseline at that load"
            + " (baselines: seq, fixed, adaptive, wq-linear, rampup, rc). \"sat.\" marks a point whose"
            + " backlog grew without bound.\n\n");
    md.append("| load (rps) |");
    for (String p : policies) {
      md.append(' ').append(displayName(p)).append(" |");
    }
    md.append("\n|---|");
    md.append("---|".repeat(policies.size()));
    md.append('\n');
    for (double load : loads) {
      double best = Double.NaN;
      for (PointResult p : points) {
        if (p.offeredRps() == load && !p.saturated() && isBaseline(p.policy())) {
          double v = SUMMARY_METRIC.value(p);
          if (Double.isNaN(best) || v < best) {
            best = v;
          }
        }
      }
      md.append("| ").append(Metric.load(load)).append(" |");
      for (String policy : policies) {
        PointResult p = find(points, policy, load);
        md.append(' ');
        if (p == null) {
          md.append('-');
        } else if (p.saturated()) {
          md.append("sat.");
        } else {
          double v = SUMMARY_METRIC.value(p);
          md.append(String.format(Locale.ROOT, "%.1f", v));
          if (!Double.isNaN(best) && best > 0) {
            md.append(String.format(Locale.ROOT, " (%.2f)", v / best));
          }
        }
        md.append(" |");
      }
      md.append('\n');
    }
    return md.toString();
  }

  /**
   * A policy's name for tables and legends: its specification with any file path shortened to the
   * file's name ({@code fm:/long/path/table.json} becomes {@code fm:table.json}).
   */
  public static String displayName(String spec) {
    return spec.replaceAll("(?<=:)[^,]*/([^/,]+)", "$1");
  }

  static boolean isBaseline(String spec) {
    int colon = spec.indexOf(':');
    return BASELINES.contains(colon < 0 ? spec : spec.substring(0, colon));
  }

  static PointResult find(List<PointResult> points, String policy, double load) {
    for (PointResult p : points) {
      if (p.policy().equals(policy) && p.offeredRps() == load) {
        return p;
      }
    }
    return null;
  }

  /** The points' policies in order of first appearance. */
  static List<String> policies(List<PointResult> points) {
    Set<String> out = new LinkedHashSet<>();
    for (PointResult p : points) {
      out.add(p.policy());
    }
    return new ArrayList<>(out);
  }
}
