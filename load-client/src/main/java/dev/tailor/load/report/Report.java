package dev.tailor.load.report;

import dev.tailor.core.io.AtomicFiles;
import dev.tailor.core.metrics.PointResult;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
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
 * CSV of every point, a Markdown summary (rows are loads, columns policies, each cell the P99 and
 * its ratio to the best baseline at that load) and PNG plots (P99 and P99.9 against load, the
 * latency CDF at one load). Real runs and simulations write the same report.
 */
public final class Report {

  /** Policies the papers compare against; a cell's ratio is to the best of these at its load. */
  static final Set<String> BASELINES =
      Set.of("seq", "fixed", "adaptive", "wq-linear", "rampup", "rc");

  /** The simulator-fidelity table that {@code tailor fidelity} adds to a report. */
  public static final String FIDELITY = "fidelity.md";

  private Report() {}

  /**
   * Writes every file of the report. A report directory holds one sweep: the points of an earlier
   * report there are replaced (the whole {@code points} directory at once) and its fidelity table
   * removed.
   *
   * @param cdfRps the load whose latency CDF is plotted, or NaN for the highest unsaturated one
   * @return the Markdown summary
   */
  public static String write(Path dir, List<PointResult> points, double cdfRps) throws IOException {
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
    writeCsv(dir.resolve("results.csv"), points);
    String summary = summary(points);
    Files.writeString(dir.resolve("summary.md"), summary);
    Plots.latencyAgainstLoad(points, "p99", dir.resolve("p99.png"));
    Plots.latencyAgainstLoad(points, "p99.9", dir.resolve("p999.png"));
    double load = Double.isNaN(cdfRps) ? highestUnsaturated(points) : cdfRps;
    Plots.cdf(points, load, dir.resolve("cdf.png"));
    return summary;
  }

  static String fileName(PointResult p) {
    return p.policy().replaceAll("[^A-Za-z0-9.,-]", "_") + "@" + format(p.offeredRps()) + "rps";
  }

  private static String format(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
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

  private static void writeCsv(Path file, List<PointResult> points) throws IOException {
    Set<String> targets = new TreeSet<>();
    for (PointResult p : points) {
      targets.addAll(p.missRatio().keySet());
    }
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
      List<String> header =
          new ArrayList<>(
              List.of(
                  "policy",
                  "offered_rps",
                  "achieved_rps",
                  "sent",
                  "completed",
                  "failed",
                  "saturated",
                  "mean_ms",
                  "p50_ms",
                  "p90_ms",
                  "p99_ms",
                  "p99.9_ms",
                  "max_ms",
                  "queue_p99_ms",
                  "send_lag_p99_ms",
                  "cpu_s"));
      for (String t : targets) {
        header.add("miss_" + t);
      }
      header.add("environment");
      header.add("corpus");
      out.println(String.join(",", header));
      for (PointResult p : points) {
        List<String> row = new ArrayList<>();
        row.add(csv(p.policy()));
        row.add(format(p.offeredRps()));
        row.add(String.format(Locale.ROOT, "%.2f", p.achievedRps()));
        row.add(Long.toString(p.sent()));
        row.add(Long.toString(p.completed()));
        row.add(Long.toString(p.failed()));
        row.add(Boolean.toString(p.saturated()));
        for (String q : List.of("mean", "p50", "p90", "p99", "p99.9", "max")) {
          row.add(ms(p.latency().get(q)));
        }
        row.add(p.queueing() == null ? "" : ms(p.queueing().get("p99")));
        row.add(p.sendLag() == null ? "" : ms(p.sendLag().get("p99")));
        row.add(p.cpuNanos() < 0 ? "" : String.format(Locale.ROOT, "%.3f", p.cpuNanos() / 1e9));
        for (String t : targets) {
          Double m = p.missRatio().get(t);
          row.add(m == null ? "" : String.format(Locale.ROOT, "%.5f", m));
        }
        row.add(csv(p.environment()));
        row.add(csv(p.corpus()));
        out.println(String.join(",", row));
      }
    }
  }

  private static String ms(Double nanos) {
    return nanos == null ? "" : String.format(Locale.ROOT, "%.3f", nanos / 1e6);
  }

  private static String csv(String s) {
    if (s == null) {
      return "";
    }
    return s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s;
  }

  /** The Markdown summary: P99 per load and policy, with the ratio to the best baseline. */
  public static String summary(List<PointResult> points) {
    Set<String> policies = new LinkedHashSet<>();
    Set<Double> loads = new TreeSet<>();
    for (PointResult p : points) {
      policies.add(p.policy());
      loads.add(p.offeredRps());
    }
    StringBuilder md = new StringBuilder();
    PointResult first = points.isEmpty() ? null : points.get(0);
    md.append("# P99 latency by load and policy\n\n");
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
    md.append(
        "Each cell: P99 in ms, and in brackets its ratio to the best baseline at that load"
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
          double v = p.latencyAt("p99");
          if (Double.isNaN(best) || v < best) {
            best = v;
          }
        }
      }
      md.append("| ").append(format(load)).append(" |");
      for (String policy : policies) {
        PointResult p = find(points, policy, load);
        md.append(' ');
        if (p == null) {
          md.append('-');
        } else if (p.saturated()) {
          md.append("sat.");
        } else {
          double v = p.latencyAt("p99");
          md.append(String.format(Locale.ROOT, "%.1f", v / 1e6));
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
