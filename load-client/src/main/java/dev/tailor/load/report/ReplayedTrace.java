package dev.tailor.load.report;

import dev.tailor.core.json.JsonFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which queries a replay sent: the trace file and how many of its queries (after {@code --limit}).
 * A replay's report records it, as a demand profile records the trace it measured, so that {@code
 * tailor fidelity} can refuse a profile of other queries: the request order would differ, and so
 * would every simulated figure.
 *
 * @param trace the trace file, an absolute path
 * @param queries how many of its queries were replayed
 */
public record ReplayedTrace(String trace, int queries) {

  /** The file in a report directory that records it. */
  public static final String FILE = "trace.json";

  /** The trace at {@code file}, its path made absolute and normal, of {@code queries} queries. */
  public static ReplayedTrace of(Path file, int queries) {
    return new ReplayedTrace(file.toAbsolutePath().normalize().toString(), queries);
  }

  /** Writes it into a report directory, atomically. */
  public void write(Path reportDir) throws IOException {
    JsonFile.writeAtomically(reportDir.resolve(FILE), this);
  }

  /**
   * Reads a report's record, or null if the report has none (simulations, older reports).
   *
   * @throws IOException naming the file if it is not such a record
   */
  public static ReplayedTrace read(Path reportDir) throws IOException {
    Path file = reportDir.resolve(FILE);
    if (!Files.exists(file)) {
      return null;
    }
    ReplayedTrace t;
    try {
      t = JsonFile.mapper().treeToValue(JsonFile.readTree(file), ReplayedTrace.class);
    } catch (IOException e) {
      throw new IOException(
          file + ": expected {\"trace\": FILE, \"queries\": N}: " + e.getMessage(), e);
    }
    if (t == null || t.trace() == null) {
      throw new IOException(file + ": trace: expected the replayed trace's path");
    }
    return t;
  }

  /** Whether it is the same trace, cut to the same number of queries. */
  public boolean sameQueriesAs(ReplayedTrace other) {
    return Path.of(trace).normalize().equals(Path.of(other.trace).normalize())
        && queries == other.queries;
  }

  @Override
  public String toString() {
    return trace + " (" + queries + " queries)";
  }
}
