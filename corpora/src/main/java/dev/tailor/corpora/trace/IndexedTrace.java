package dev.tailor.corpora.trace;

import dev.tailor.corpora.index.IndexManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;

/**
 * An open Tailor index and a trace's queries parsed for it, with the analyzer its {@link
 * IndexManifest manifest} names. Closing closes the reader.
 *
 * @param reader the open index
 * @param manifest the index's manifest
 * @param queries the trace's queries, at least one
 */
public record IndexedTrace(DirectoryReader reader, IndexManifest manifest, List<TraceQuery> queries)
    implements AutoCloseable {

  /**
   * Opens {@code index} and reads {@code trace}.
   *
   * @param format the trace's format, or null to {@linkplain TraceFormat#detect detect} it
   * @param limit only the first this many queries, or null for all
   * @param strict whether a malformed trace line is fatal rather than skipped
   * @throws IOException naming the file if either is missing or invalid, or the trace has no query
   */
  public static IndexedTrace open(
      Path index, Path trace, TraceFormat format, Integer limit, boolean strict)
      throws IOException {
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
    return new IndexedTrace(DirectoryReader.open(FSDirectory.open(index)), manifest, queries);
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
