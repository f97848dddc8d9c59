package dev.tailor.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.sim.IndexLayout;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;
import org.apache.lucene.search.IndexSearcher.LeafSlice;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator's restatement of the engines' slicing rules ({@link IndexLayout}) cuts a real index
 * as Lucene's {@code IndexSearcher.slices} and the Elasticsearch baseline's cap do.
 */
final class IndexSegmentsTest {

  private static final int[] SEGMENT_DOCS = {40, 5, 12, 7, 31, 3, 9, 18, 2, 26, 11};

  @TempDir Path tmp;

  @Test
  void theLayoutSlicesARealIndexAsLuceneAndTheElasticsearchBaselineDo() throws IOException {
    Path dir = tmp.resolve("index");
    try (FSDirectory d = FSDirectory.open(dir);
        IndexWriter w =
            new IndexWriter(
                d,
                new IndexWriterConfig(new StandardAnalyzer())
                    .setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (int docs : SEGMENT_DOCS) {
        for (int i = 0; i < docs; i++) {
          Document doc = new Document();
          doc.add(new TextField("body", "doc " + i, Field.Store.NO));
          w.addDocument(doc);
        }
        w.commit();
      }
    }
    IndexLayout layout = IndexSegments.of(dir);
    assertArrayEquals(Arrays.stream(SEGMENT_DOCS).asLongStream().toArray(), layout.segmentDocs());
    try (FSDirectory d = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(d)) {
      // Small limits, so that both of Lucene's rules (a large segment alone, a group closed by
      // documents or by segments) cut this small index.
      for (int[] limits : new int[][] {{30, 3}, {20, 5}, {100, 2}, {250_000, 5}}) {
        LeafSlice[] lucene = IndexSearcher.slices(reader.leaves(), limits[0], limits[1], false);
        int[][] ours = layout.luceneSlices(limits[0], limits[1]);
        assertEquals(asSets(lucene), asSets(ours), Arrays.toString(limits));
        for (int cap : new int[] {1, 2, 3}) {
          assertEquals(
              asSets(ElasticsearchSlicing.cap(lucene, cap)),
              asSets(layout.capped(ours, cap)),
              Arrays.toString(limits) + " capped at " + cap);
        }
      }
    }
  }

  @Test
  void aDirectoryWithoutAnIndexIsRefusedNamingIt() {
    IOException e = assertThrows(IOException.class, () -> IndexSegments.of(tmp.resolve("none")));
    assertTrue(e.getMessage().startsWith(tmp.resolve("none").toString()), e.getMessage());
  }

  private static List<Set<Integer>> asSets(LeafSlice[] slices) {
    List<Set<Integer>> out = new ArrayList<>();
    for (LeafSlice s : slices) {
      Set<Integer> ords = new TreeSet<>();
      for (LeafReaderContextPartition p : s.partitions) {
        ords.add(p.ctx.ord);
      }
      out.add(ords);
    }
    out.sort((a, b) -> a.toString().compareTo(b.toString()));
    return out;
  }

  private static List<Set<Integer>> asSets(int[][] slices) {
    List<Set<Integer>> out = new ArrayList<>();
    for (int[] s : slices) {
      Set<Integer> ords = new TreeSet<>();
      for (int segment : s) {
        ords.add(segment);
      }
      out.add(ords);
    }
    out.sort((a, b) -> a.toString().compareTo(b.toString()));
    return out;
  }
}
