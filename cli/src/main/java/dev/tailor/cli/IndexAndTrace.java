package dev.tailor.cli;

import dev.tailor.corpora.index.IndexManifest;
import dev.tailor.corpora.trace.QueryTrace;
import dev.tailor.corpora.trace.TraceFormat;
import dev.tailor.corpora.trace.TraceQuery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import picocli.CommandLine.Option;

/**
 * The options of commands that run a trace's queries on an index ({@code profile}, the search
 * benchmarks), and the opening of both: the index with the analyzer its manifest names, the trace
 * parsed with that analyzer.
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

  /** An open index and the trace's queries on it. */
  record Opened(DirectoryReader reader, IndexManifest manifest, List<TraceQuery> queries)
      implements AutoCloseable {
    @Override
    public void close() throws IOException {
      reader.close();
    }
  }

  /**
   * Opens the index and reads the trace.
   *
   * @throws IOException naming the file if either is missing or invalid, or the trace has no query
   */
  Opened open() throws IOException {
    if (!Files.isDirectory(index)) {
      throw new IOException(index + ": no such index directory (build one with ./tailor index)");
    }
    if (!Files.isRegularFile(trace)) {
      throw new IOException(trace + ": no such trace file");
    }
    IndexManifest manifest = IndexManifest.read(index);
    QueryTrace parsed =
        QueryTrace.read(
            trace,
            format != null ? format : TraceFormat.detect(trace),
            manifest.analyzer(),
            strict);
    List<TraceQuery> queries = parsed.queries();
    if (limit != null) {
      queries = queries.subList(0, Math.min(limit, queries.size()));
    }
    if (queries.isEmpty()) {
      throw new IOException(trace + ": no query to run");
    }
    return new Opened(DirectoryReader.open(FSDirectory.open(index)), manifest, queries);
  }
}
