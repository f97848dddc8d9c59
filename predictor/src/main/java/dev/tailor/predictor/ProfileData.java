package dev.tailor.predictor;

import dev.tailor.core.table.Digests;
import dev.tailor.corpora.index.IndexManifest;
import dev.tailor.corpora.trace.QueryTrace;
import dev.tailor.corpora.trace.TraceFormat;
import dev.tailor.corpora.trace.TraceQuery;
import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.Query;
import org.apache.lucene.store.FSDirectory;

/**
 * A demand profile's requests as training data: each request's features computed from the index and
 * the trace the profile was taken on, labelled with its measured sequential time.
 *
 * <p>Features are not read from the profile's own {@code features} field: they are computed again,
 * by {@link QueryFeatures}, from the queries of the profile's trace ({@code environment.trace})
 * parsed with the analyzer of its index ({@code environment.index}), each matched to its request by
 * id. So training and serving compute features through one code path, and a model can learn
 * features the profiler never recorded. Either file can be given elsewhere (a copied index, a moved
 * trace); the index must have the profile's document count ({@code environment.indexDocs}), and
 * each request's query text must be the trace's text for its id.
 *
 * @param profile the profile
 * @param profileFile the file it was read from
 * @param profileDigest the file's SHA-256
 * @param index the index the features were computed on
 * @param trace the trace the queries were parsed from
 * @param data one row per request, in the profile's order
 */
public record ProfileData(
    DemandProfile profile,
    Path profileFile,
    String profileDigest,
    Path index,
    Path trace,
    Dataset data) {

  /**
   * Reads a profile and computes its requests' features.
   *
   * @param index the index to compute features on, or null for the profile's {@code
   *     environment.index}
   * @param trace the trace to parse queries from, or null for the profile's {@code
   *     environment.trace}
   * @throws IOException if the profile, index or trace cannot be read, the index's document count
   *     differs from the profile's, or a request has no query of the same id and text in the trace;
   *     the message names the file and the request
   */
  public static ProfileData read(Path profileFile, Path index, Path trace) throws IOException {
    DemandProfile profile = DemandProfile.read(profileFile);
    if (profile.requests().isEmpty()) {
      throw new IOException(profileFile + ": requests: the profile has no request to learn from");
    }
    Path indexDir = index != null ? index : Path.of(profile.environment().index());
    Path traceFile = trace != null ? trace : Path.of(profile.environment().trace());
    if (!Files.isDirectory(indexDir)) {
      throw new IOException(
          indexDir
              + ": no such index directory"
              + (index == null ? " (the profile's environment.index; pass --index)" : ""));
    }
    if (!Files.isRegularFile(traceFile)) {
      throw new IOException(
          traceFile
              + ": no such trace file"
              + (trace == null ? " (the profile's environment.trace; pass --trace)" : ""));
    }
    IndexManifest manifest = IndexManifest.read(indexDir);
    QueryTrace parsed =
        QueryTrace.read(traceFile, TraceFormat.detect(traceFile), manifest.analyzer(), false);
    Map<String, TraceQuery> byId = new HashMap<>();
    for (TraceQuery q : parsed.queries()) {
      byId.putIfAbsent(q.id(), q);
    }
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(indexDir))) {
      if (reader.maxDoc() != profile.environment().indexDocs()) {
        throw new IOException(
            indexDir
                + ": has "
                + reader.maxDoc()
                + " documents, the profile "
                + profileFile
                + " was taken on "
                + profile.environment().indexDocs()
                + " (environment.indexDocs): not the profile's index");
      }
      QueryFeatures features = new QueryFeatures(reader);
      List<DemandProfile.Request> requests = profile.requests();
      List<String> ids = new ArrayList<>();
      float[][] rows = new float[requests.size()][];
      long[] nanos = new long[requests.size()];
      for (int i = 0; i < requests.size(); i++) {
        DemandProfile.Request r = requests.get(i);
        Query q = query(byId, r, i, profileFile, traceFile);
        ids.add(r.id());
        rows[i] = features.extract(q);
        nanos[i] = r.sequentialNanos();
      }
      return new ProfileData(
          profile,
          profileFile,
          Digests.sha256(profileFile),
          indexDir,
          traceFile,
          new Dataset(ids, rows, nanos));
    }
  }

  private static Query query(
      Map<String, TraceQuery> byId,
      DemandProfile.Request r,
      int i,
      Path profileFile,
      Path traceFile)
      throws IOException {
    TraceQuery q = byId.get(r.id());
    if (q == null) {
      throw new IOException(
          profileFile
              + ": requests["
              + i
              + "].id: no runnable query with id "
              + r.id()
              + " in the trace "
              + traceFile);
    }
    if (!q.text().equals(r.query())) {
      throw new IOException(
          profileFile
              + ": requests["
              + i
              + "].query: \""
              + r.query()
              + "\", but query "
              + r.id()
              + " of the trace "
              + traceFile
              + " is \""
              + q.text()
              + "\": not the profile's trace");
    }
    return q.query();
  }
}
