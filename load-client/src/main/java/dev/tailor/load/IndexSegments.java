package dev.tailor.load;

import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.IndexLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.store.FSDirectory;

/**
 * An index's segments as the simulator's plain-Lucene peers slice them ({@link IndexLayout}): each
 * leaf's documents ({@code maxDoc}, deleted ones included, as Lucene's slicing counts them), in
 * leaf order.
 */
public final class IndexSegments {

  private IndexSegments() {}

  /** The layout of the index {@code reader} reads. */
  public static IndexLayout of(IndexReader reader) {
    List<LeafReaderContext> leaves = reader.leaves();
    long[] docs = new long[leaves.size()];
    for (int i = 0; i < docs.length; i++) {
      docs[i] = leaves.get(i).reader().maxDoc();
    }
    return IndexLayout.of(docs);
  }

  /**
   * The layout of the index {@code profile} was measured on, where its directory is on this
   * machine; else null.
   *
   * @throws IOException naming the directory if it is there but holds no index Lucene can open
   */
  public static IndexLayout ofProfile(DemandProfile profile) throws IOException {
    String index = profile.environment() == null ? null : profile.environment().index();
    return index == null || !Files.isDirectory(Path.of(index)) ? null : of(Path.of(index));
  }

  /**
   * The layout of the index in {@code dir}.
   *
   * @throws IOException naming the directory if it holds no index Lucene can open
   */
  public static IndexLayout of(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new IOException(dir + ": no index directory");
    }
    try (FSDirectory d = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(d)) {
      return of(reader);
    } catch (IOException e) {
      throw new IOException(dir + ": cannot read the index's segments: " + e.getMessage(), e);
    }
  }
}
