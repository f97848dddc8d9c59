package dev.tailor.corpora.trace;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * A parsed trace as a check reports it: its queries by category and the lines skipped by reason,
 * and apart from them the first of its malformed lines, each with its file and line.
 */
public final class TraceSummary {

  /** The malformed lines shown at most; the rest are counted. */
  public static final int WARNINGS_SHOWN = 20;

  private TraceSummary() {}

  /**
   * Prints the malformed lines to {@code err}, then the queries and skipped lines to {@code out}.
   */
  public static void print(
      Path file, TraceFormat format, QueryTrace trace, PrintWriter out, PrintWriter err) {
    trace.warnings().stream().limit(WARNINGS_SHOWN).forEach(err::println);
    if (trace.warnings().size() > WARNINGS_SHOWN) {
      err.printf("... and %,d more malformed lines%n", trace.warnings().size() - WARNINGS_SHOWN);
    }
    err.flush();
    Map<String, Integer> byCategory = new TreeMap<>();
    for (TraceQuery q : trace.queries()) {
      byCategory.merge(q.category(), 1, Integer::sum);
    }
    out.printf("%s (%s): %,d queries%n", file, format, trace.queries().size());
    byCategory.forEach((c, n) -> out.printf("  %-20s %,8d%n", c, n));
    if (!trace.skipped().isEmpty()) {
      out.println("skipped:");
      trace.skipped().forEach((r, n) -> out.printf("  %-28s %,8d%n", r, n));
    }
  }
}
