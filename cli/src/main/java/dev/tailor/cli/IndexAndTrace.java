package dev.tailor.cli;

import dev.tailor.corpora.trace.IndexedTrace;
import dev.tailor.corpora.trace.TraceFormat;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options of commands that run a trace's queries on an index ({@code profile}, the search
 * benchmarks), opened together as an {@link IndexedTrace}.
 */
final class IndexAndTrace {

  @Option(names = "--index", required = true, paramLabel = "DIR", description = "A Tailor index.")
  Path index;

  @Option(names = "--trace", required = true, paramLabel = "FILE", description = "A query trace.")
  Path trace;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "The trace's format: ${COMPLETION-CANDIDATES}; default: detected.")
  TraceFormat format;

  @Option(names = "--limit", paramLabel = "N", description = "Only the first N queries.")
  Integer limit;

  @Option(names = "--strict", description = "A malformed trace line is fatal, not skipped.")
  boolean strict;

  /**
   * Opens the index and reads the trace.
   *
   * @throws IOException naming the file if either is missing or invalid, or the trace has no query
   */
  IndexedTrace open() throws IOException {
    return IndexedTrace.open(index, trace, format, limit, strict);
  }
}
