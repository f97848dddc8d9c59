package dev.tailor.load.report;

import dev.tailor.measure.PointResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The report's CSV: one row per point, the policy, its repetition and seed first, then one column
 * per {@link Metric} (the miss ratio of every latency target any point has), then the environment
 * and corpus labels.
 */
public final class ResultsCsv {

  private ResultsCsv() {}

  /** The CSV of the points, header first, one line per point. */
  static String of(List<PointResult> points) {
    Set<String> targets = new TreeSet<>();
    for (PointResult p : points) {
      targets.addAll(p.missRatio().keySet());
    }
    List<Metric> metrics = Metric.csvColumns(targets);
    StringBuilder out = new StringBuilder();
    List<String> header = new ArrayList<>();
    header.add("policy");
    header.add("repetition");
    header.add("seed");
    for (Metric m : metrics) {
      header.add(m.column());
    }
    header.add("environment");
    header.add("corpus");
    out.append(String.join(",", header)).append(System.lineSeparator());
    for (PointResult p : points) {
      List<String> row = new ArrayList<>();
      row.add(quote(p.policy()));
      row.add(Integer.toString(p.repetition()));
      row.add(Long.toString(p.seed()));
      for (Metric m : metrics) {
        row.add(m.format(p));
      }
      row.add(quote(p.environment()));
      row.add(quote(p.corpus()));
      out.append(String.join(",", row)).append(System.lineSeparator());
    }
    return out.toString();
  }

  /** A field quoted as RFC 4180 asks where it holds a comma or a quote; null is the empty field. */
  public static String quote(String s) {
    if (s == null) {
      return "";
    }
    return s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s;
  }
}
