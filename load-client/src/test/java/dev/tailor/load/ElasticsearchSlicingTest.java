package dev.tailor.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;
import org.apache.lucene.search.IndexSearcher.LeafSlice;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Elasticsearch's rule for a search's slices, and the slices: Lucene's capped at N, every segment
 * in exactly one. The rule on a real pool is {@link LuceneTargetTest}'s.
 */
class ElasticsearchSlicingTest {

  private static Directory directory;
  private static DirectoryReader reader;

  /** An in-memory index of six segments, of 100, 200, ..., 600 documents. */
  @BeforeAll
  static void index() throws IOException {
    directory = new ByteBuffersDirectory();
    IndexWriterConfig config =
        new IndexWriterConfig(new StandardAnalyzer()).setMergePolicy(NoMergePolicy.INSTANCE);
    try (IndexWriter w = new IndexWriter(directory, config)) {
      for (int segment = 1; segment <= 6; segment++) {
        for (int i = 0; i < 100 * segment; i++) {
          Document doc = new Document();
          doc.add(new TextField("body", "doc " + i, Field.Store.NO));
          w.addDocument(doc);
        }
        w.commit();
      }
    }
    reader = DirectoryReader.open(directory);
    assertEquals(6, reader.leaves().size());
  }

  @AfterAll
  static void close() throws IOException {
    reader.close();
    directory.close();
  }

  @Test
  void aShortQueueGivesNSlicesALongerOneGivesOne() {
    assertEquals(2, ElasticsearchSlicing.slicesFor(0, 2));
    assertEquals(2, ElasticsearchSlicing.slicesFor(2, 2), "N queued is still short");
    assertEquals(1, ElasticsearchSlicing.slicesFor(3, 2), "N + 1 queued is busy");
    assertEquals(1, ElasticsearchSlicing.slicesFor(1_000, 2));
    assertEquals(8, ElasticsearchSlicing.slicesFor(8, 8));
    assertEquals(1, ElasticsearchSlicing.slicesFor(9, 8));
    assertEquals(1, ElasticsearchSlicing.slicesFor(0, 1), "one thread: one slice either way");
    assertEquals(1, ElasticsearchSlicing.slicesFor(5, 1));
    assertThrows(IllegalArgumentException.class, () -> ElasticsearchSlicing.slicesFor(-1, 2));
    assertThrows(IllegalArgumentException.class, () -> ElasticsearchSlicing.slicesFor(0, 0));
  }

  /** Every segment of the slices, each once: the slices cover the index without overlap. */
  private static List<LeafReaderContext> segments(LeafSlice[] slices) {
    List<LeafReaderContext> out = new ArrayList<>();
    for (LeafSlice s : slices) {
      for (LeafReaderContextPartition p : s.partitions) {
        assertEquals(0, p.minDocId, "whole segments");
        out.add(p.ctx);
      }
    }
    out.sort((a, b) -> Integer.compare(a.ord, b.ord));
    return out;
  }

  @Test
  void cappingMergesTheLargestFirstIntoTheLightestSliceAndKeepsEverySegmentOnce() {
    // One slice per segment, then capped.
    LeafSlice[] perSegment = IndexSearcher.slices(reader.leaves(), 1, 1, false);
    assertEquals(6, perSegment.length);
    LeafSlice[] three = ElasticsearchSlicing.cap(perSegment, 3);
    assertEquals(3, three.length);
    assertEquals(reader.leaves(), segments(three));
    // 600, 500, 400 open the three slices, then 300 joins 400, 200 joins 500 and 100 joins 600.
    assertEquals(
        List.of(700, 700, 700),
        Arrays.stream(three).map(LeafSlice::getMaxDocs).sorted().toList(),
        "even slices");
    LeafSlice[] one = ElasticsearchSlicing.cap(perSegment, 1);
    assertEquals(1, one.length);
    assertEquals(reader.leaves(), segments(one));
    assertSame(perSegment, ElasticsearchSlicing.cap(perSegment, 6), "no more than the cap: kept");
    assertSame(perSegment, ElasticsearchSlicing.cap(perSegment, 10));
    assertThrows(IllegalArgumentException.class, () -> ElasticsearchSlicing.cap(perSegment, 0));
  }

  @Test
  void theSearcherCutsLucenesDefaultSlicesToAtMostN() {
    int lucene = new IndexSearcher(reader, Runnable::run).getSlices().length;
    assertTrue(lucene >= 2, "Lucene's default groups the six segments into several: " + lucene);
    for (int n : new int[] {1, 2, lucene, lucene + 3}) {
      LeafSlice[] slices = new ElasticsearchSlicing.Searcher(reader, Runnable::run, n).getSlices();
      assertEquals(Math.min(n, lucene), slices.length, "at most " + n);
      assertEquals(reader.leaves(), segments(slices));
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> new ElasticsearchSlicing.Searcher(reader, Runnable::run, 0));
  }
}
