package dev.tailor.load.report;

import dev.tailor.core.io.AtomicFiles;
import dev.tailor.core.policy.PolicySpec;
import dev.tailor.load.LuceneTarget;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Peer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes a sweep's report into a directory: a JSON and an HdrHistogram {@code .hgrm} per point (a
 * repetition beyond the first named so), one CSV of every point (a column per {@link Metric}), one
 * CSV of every cell (a policy at a load over its repetitions, with the summary's comparisons), the
 * regret CSV ({@value #REGRET}), a Markdown summary (rows are loads, columns policies, each cell
 * the pooled {@link #SUMMARY_METRIC} of its repetitions with its 95% interval by bootstrap over
 * runs, and its ratio to plain Lucene's, or {@code seq}'s, at that load with the ratio's interval;
 * the pooled P50 and P99.9, the requests behind each point, the machine's noise, the regret table,
 * the headroom to an oracle where the sweep has one, and the verdict) and PNG plots (pooled P99 and
 * P99.9 against load, the latency CDF at one load). Given a latency target, the summary, the cells'
 * CSV and a plot also give each cell's share of requests that missed it, and {@value #SUSTAINED}
 * the load each policy sustains with at most 1% missing: tail-control's objective (Li et al.,
 * PPoPP'16, §5). Real runs and simulations write the same report. Every file is written to a hidden
 * sibling and moved into place, so a reader never sees half of one. Every summary states the
 * workload's spread ({@link ReportedWorkload}): whether parallelism can matter depends on it.
 *
 * <p>Every figure of latency is of the requests answered with a result. Requests that got none
 * (rejected, another HTTP status, an error, unanswered) are counted apart by kind, in the CSV's
 * {@code failed*} columns and the cells' CSV; each counts as a miss of the latency target; a table
 * cell where any run had them is marked {@code !} and the summary lists each such point ("point had
 * N failures (x% of M sent)" with the kinds); the plots mark those points with a red cross, and the
 * CDF of a point with failures levels off below 1 by their share.
 */
public final class Report {

  /**
   * Policies the papers compare against; a cell's ratio is to the best of these at its load. {@code
   * steal-first} and {@code admit-first} are tail-control's (Li et al., PPoPP'16, §5).
   */
  static final Set<String> BASELINES =
      Set.of(
          LuceneTarget.PLAIN,
          LuceneTarget.EXECUTOR,
          LuceneTarget.ELASTICSEARCH,
          Peer.OPENSEARCH,
          "seq",
          "fixed",
          "adaptive",
          "wq-linear",
          "rampup",
          "pred",
          "rc",
          "steal-first",
          "admit-first");

  /** The CSV of every point, one column per {@link Metric}. */
  public static final String RESULTS = "results.csv";

  /**
   * The CSV of every cell (a policy at a load over its repetitions) with the comparisons the
   * summary makes of it.
   */
  public static final String CELLS = "cells.csv";

  /** The Markdown summary. */
  public static final String SUMMARY = "summary.md";

  /**
   * The CSV of every policy's ratio to the best non-clairvoyant policy at each load, and its worst
   * across loads ({@code policy, offered_rps, best, ratio, ratio_low, ratio_high}; a row {@code
   * worst} per policy).
   */
  public static final String REGRET = "regret.csv";

  /**
   * The CSV of the load each policy sustains at the latency target ({@code policy, target,
   * sustained_rps, crossing_rps}), written only where the report has a target.
   */
  public static final String SUSTAINED = "sustained.csv";

  /** The plot of the miss ratio at the latency target against load, only with a target. */
  public static final String MISS_PLOT = "miss.png";

  /** The simulator-fidelity table that {@code tailor fidelity} adds to a report. */
  public static final String FIDELITY = "fidelity.md";

  /** The figure the summary compares policies by. */
  static final Metric SUMMARY_METRIC = Metric.P99;

  /** {@link #SUMMARY_METRIC} as a percentile. */
  static final double SUMMARY_PERCENTILE = 99;

  /**
   * Policies that are told each request's time before it runs: ceilings a deployment cannot have,
   * never a configuration to recommend.
   */
  static final Set<String> CLAIRVOYANT = Set.of("oracle", "rc", "tpc-oracle", "tc-oracle");

  private Report() {}

  /**
   * How a sweep's points ran, which its summary states.
   *
   * @param maxDegree the degree cap every policy ran under, or 0 for none
   * @param order how the repetitions were ordered (e.g. {@link dev.tailor.load.Sweep#ORDER}), or
   *     null where not stated
   * @param targetNanos the latency target whose misses the report gives (the points must record its
   *     miss ratio), or 0 for none
   */
  public record Conditions(int maxDegree, String order, long targetNanos) {

    /** Nothing stated: no cap, order unsaid, no latency target. */
    public static final Conditions UNSTATED = new Conditions(0, null);

    /**
     * Checks the cap and the target.
     *
     * @throws IllegalArgumentException if the cap or the target is negative
     */
    public Conditions {
      if (maxDegree < 0) {
        throw new IllegalArgumentException("the degree cap must be >= 1 or 0 (none)");
      }
      if (targetNanos < 0) {
        throw new IllegalArgumentException("the latency target must not be negative (0 for none)");
      }
    }

    /** A cap and an order, with no latency target. */
    public Conditions(int maxDegree, String order) {
      this(maxDegree, order, 0);
    }

    /** The same conditions with a latency target, in nanoseconds (0 for none). */
    public Conditions withTarget(long nanos) {
      return new Conditions(maxDegree, order, nanos);
    }
  }

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
    return write(dir, points, cdfRps, workload, trace, Conditions.UNSTATED);
  }

  /**
   * Writes every file of the report, as {@link #write(Path, List, double, ReportedWorkload,
   * ReplayedTrace)} does, its summary stating how the points ran.
   *
   * @param conditions the sweep's order and degree cap, and the latency target whose misses the
   *     summary, the cells' CSV, {@value #SUSTAINED} and {@value #MISS_PLOT} give
   * @return the Markdown summary
   */
  public static String write(
      Path dir,
      List<PointResult> points,
      double cdfRps,
      ReportedWorkload workload,
      ReplayedTrace trace,
      Conditions conditions)
      throws IOException {
    // A report holds one sweep: its points replace a previous report's rather than mix with them,
    // and the fidelity table made from those goes with them.
    // Made first, so that points a report may not pool (another build, machine or corpus) are
    // refused before anything is written.
    Summary cells = new Summary(points, conditions.targetNanos());
    Files.createDirectories(dir);
    // The points are written into a hidden sibling directory that replaces the old one whole, once
    // every file in it is written and forced to disk: a reader sees the old points or the new.
    Path pointsDir = AtomicFiles.siblingDirectory(dir.resolve("points"), "writing");
    try {
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
    } finally {
      AtomicFiles.deleteTree(pointsDir); // nothing left of a failed write; gone once moved
    }
    Files.deleteIfExists(dir.resolve(FIDELITY));
    Files.deleteIfExists(dir.resolve(ReplayedTrace.FILE));
    if (trace != null) {
      trace.write(dir);
    }
    workload.write(dir);
    AtomicFiles.writeString(dir.resolve(RESULTS), ResultsCsv.of(points));
    AtomicFiles.writeString(dir.resolve(CELLS), cells.csv());
    AtomicFiles.writeString(dir.resolve(REGRET), cells.regret().csv());
    String summary = cells.markdown(points.isEmpty() ? null : points.get(0), workload, conditions);
    AtomicFiles.writeString(dir.resolve(SUMMARY), summary);
    Plots.latencyAgainstLoad(points, "p99", dir.resolve("p99.png"));
    Plots.latencyAgainstLoad(points, "p99.9", dir.resolve("p999.png"));
    if (cells.misses() != null) {
      AtomicFiles.writeString(dir.resolve(SUSTAINED), cells.misses().csv(policies(points)));
      Plots.missAgainstLoad(points, cells.misses(), dir.resolve(MISS_PLOT));
    } else {
      // Without a target, an earlier report's misses would be taken for this one's.
      Files.deleteIfExists(dir.resolve(SUSTAINED));
      Files.deleteIfExists(dir.resolve(MISS_PLOT));
    }
    double load = Double.isNaN(cdfRps) ? highestUnsaturated(points) : cdfRps;
    Plots.cdf(points, load, dir.resolve("cdf.png"));
    return summary;
  }

  /**
   * A point's file name, without extension: policy and load, and the repetition beyond the first,
   * so that repeated points do not overwrite each other ({@code fixed_2@100rps-r2}).
   */
  static String fileName(PointResult p) {
    return p.policy().replaceAll("[^A-Za-z0-9.,-]", "_")
        + "@"
        + Metric.load(p.offeredRps())
        + "rps"
        + (p.repetition() > 1 ? "-r" + p.repetition() : "");
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
   * The Markdown summary (see {@link #summary(List, ReportedWorkload, Conditions)}) of a sweep
   * whose order and degree cap are not stated.
   */
  public static String summary(List<PointResult> points, ReportedWorkload workload) {
    return summary(points, workload, Conditions.UNSTATED);
  }

  /**
   * The Markdown summary: the workload's spread, how the points ran (repetitions, their order, the
   * degree cap), then per load and policy the pooled {@link #SUMMARY_METRIC} with its interval and
   * its ratio to the reference (plain Lucene, else {@code seq}), marked better or worse only where
   * the ratio's interval excludes 1; the regret table; with an oracle, each policy's share of the
   * headroom to it; with a latency target, each cell's share of requests that missed it and the
   * load each policy sustains with at most 1% missing; the verdict.
   */
  public static String summary(
      List<PointResult> points, ReportedWorkload workload, Conditions conditions) {
    return new Summary(points, conditions.targetNanos())
        .markdown(points.isEmpty() ? null : points.get(0), workload, conditions);
  }

  /**
   * The paragraph a summary ends with ({@link Conclusion}): the Tailor configuration with the
   * lowest worst-case ratio across loads, and load by load where it is better than, worse than or
   * not distinguishable from plain Lucene (else {@code seq}), by the pooled P99 ratio's interval.
   */
  public static String verdict(List<PointResult> points) {
    return new Conclusion(points).paragraph();
  }

  /**
   * A policy's name for tables and legends: its specification with any file path shortened to the
   * file's name ({@code fm:/long/path/table.json} becomes {@code fm:table.json}, {@code
   * progress:/a/t.json+/a/th.json} {@code progress:t.json+th.json}).
   */
  public static String displayName(String spec) {
    PolicySpec parsed = null;
    try {
      parsed = PolicySpec.parse(spec);
    } catch (IllegalArgumentException e) {
      // not a policy's specification: shortened as text below
    }
    if (parsed == null || parsed.tables().isEmpty()) {
      return spec.replaceAll("(?<=:)[^,]*/([^/,]+)", "$1");
    }
    Path[] names =
        parsed.tables().stream()
            .map(p -> p.getFileName() == null ? p : p.getFileName())
            .toArray(Path[]::new);
    PolicySpec shown = PolicySpec.ofTables(parsed.kind(), names);
    return parsed.preference().map(shown::withPreference).orElse(shown).toString();
  }

  /** Whether a specification names a clairvoyant policy ({@link #CLAIRVOYANT}). */
  static boolean isClairvoyant(String spec) {
    return CLAIRVOYANT.contains(baseName(spec));
  }

  /**
   * Whether a specification is one of the plain Lucene baselines: a real run's ({@link
   * LuceneTarget#isSpec}: {@code lucene}, {@code lucene-executor:N}, {@code elasticsearch:N}) or a
   * simulated peer's ({@link Peer#isSpec}, OpenSearch's too).
   */
  static boolean isPlainLucene(String spec) {
    return Peer.isSpec(spec);
  }

  /** Whether a specification names a baseline, with or without an {@code @} suffix. */
  static boolean isBaseline(String spec) {
    return BASELINES.contains(baseName(spec));
  }

  /** A specification's policy name: before any {@code :} or {@code @}, lower case. */
  static String baseName(String spec) {
    return PolicySpec.kindOf(spec);
  }

  /**
   * Every point of a report directory ({@code points/*.json}), in file-name order.
   *
   * @throws IllegalArgumentException naming the directory if it has no points
   * @throws IOException naming the file if a point does not read
   */
  public static List<PointResult> readPoints(Path dir) throws IOException {
    Path points = dir.resolve("points");
    if (!Files.isDirectory(points)) {
      throw new IllegalArgumentException(points + ": not a directory; is " + dir + " a report?");
    }
    List<PointResult> out = new ArrayList<>();
    try (java.util.stream.Stream<Path> files = Files.list(points)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        out.add(PointResult.read(f));
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(points + ": no point");
    }
    return out;
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
