package dev.tailor.corpora.index;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/** A built index as its build reports it: its size and layout, its source, and the build's rate. */
public final class IndexSummary {

  private IndexSummary() {}

  /**
   * Prints the summary of the index in {@code dir}, built from {@code input} (a corpus file, whose
   * size gives the input rate, or a corpus name) in {@code seconds}.
   */
  public static void print(Path dir, IndexManifest m, Path input, double seconds, PrintWriter out)
      throws IOException {
    long bytes = m.segments().stream().mapToLong(IndexManifest.Segment::bytes).sum();
    out.printf(
        "%s: %,d documents in %d segments, %.1f MB%n",
        dir, m.docCount(), m.segments().size(), bytes / 1e6);
    out.printf(
        "  source: %s%n  label: %s%n  analyzer: %s%n",
        m.source(), m.sourceLabel(), m.analyzerName());
    String mbs =
        Files.isRegularFile(input)
            ? String.format(
                ", %.1f MB/s of input (%,d bytes)",
                Files.size(input) / 1e6 / seconds, Files.size(input))
            : "";
    out.printf("  built in %.1f s: %,.0f docs/s%s%n", seconds, m.docCount() / seconds, mbs);
  }
}
