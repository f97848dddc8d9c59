package dev.tailor.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.Tuning;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.facet.DrillDownQuery;
import org.apache.lucene.facet.DrillSideways;
import org.apache.lucene.facet.FacetResult;
import org.apache.lucene.facet.FacetsConfig;
import org.apache.lucene.facet.sortedset.DefaultSortedSetDocValuesReaderState;
import org.apache.lucene.facet.sortedset.SortedSetDocValuesFacetField;
import org.apache.lucene.facet.sortedset.SortedSetDocValuesReaderState;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;

/**
 * Queries whose scorers take only whole segments fall back to one window per segment, and give
 * plain Lucene's results; every other query is cut inside segments.
 */
class WholeSegmentQueriesTest {

  private static final String[] COLORS = {"red", "green", "blue", "black"};
  private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "omega"};

  @Test
  void drillSidewaysRunsAWholeSegmentPerWindowAndMatchesPlainLucene() throws Exception {
    FacetsConfig config = new FacetsConfig();
    try (Directory dir = new ByteBuffersDirectory()) {
      index(dir, config);
      try (DirectoryReader reader = DirectoryReader.open(dir);
          Scheduler scheduler =
              SchedulerInternals.policy(Scheduler.builder(), "fixed:3")
                  .workers(3)
                  .tuning(Tuning.defaults().withQuantum(Duration.ofMillis(1)))
                  .build()) {
        SortedSetDocValuesReaderState state =
            new DefaultSortedSetDocValuesReaderState(reader, config);
        List<LeafReaderContextPartition[]> windows = new ArrayList<>();
        TailorSearcher tailor =
            new TailorSearcher(
                reader,
                scheduler,
                Windowing.windowsPerQuery(12),
                (partitions, nanos) -> {
                  synchronized (windows) {
                    windows.add(partitions);
                  }
                });
        assertTrue(tailor.getSlices().length > reader.leaves().size(), "segments are cut");
        for (String word : WORDS) {
          DrillDownQuery query = new DrillDownQuery(config, new TermQuery(new Term("body", word)));
          query.add("color", "red");
          DrillSideways.DrillSidewaysResult want =
              new DrillSideways(new IndexSearcher(reader), config, state).search(query, 10);
          windows.clear();
          DrillSideways.DrillSidewaysResult got =
              new DrillSideways(tailor, config, state).search(query, 10);
          ResultEqualityTest.assertSameDocs(want.hits, got.hits, word);
          assertEquals(want.hits.totalHits, got.hits.totalHits, word);
          FacetResult wantColors = want.facets.getTopChildren(10, "color");
          FacetResult gotColors = got.facets.getTopChildren(10, "color");
          assertEquals(wantColors.toString(), gotColors.toString(), word);
          assertFalse(windows.isEmpty());
          for (LeafReaderContextPartition[] w : windows) {
            for (LeafReaderContextPartition p : w) {
              assertEquals(0, p.minDocId, "a whole segment");
              assertEquals(Integer.MAX_VALUE, p.maxDocId, "a whole segment");
            }
          }
        }
      }
    }
  }

  @Test
  void onlyTheWholeSegmentKindsAreFound() {
    FacetsConfig config = new FacetsConfig();
    DrillDownQuery drillDown = new DrillDownQuery(config, new TermQuery(new Term("body", "x")));
    drillDown.add("color", "red");
    assertFalse(SegmentSplitting.needsWholeSegments(drillDown), "a drill-down is a filter");
    assertFalse(SegmentSplitting.needsWholeSegments(new TermQuery(new Term("body", "x"))));
  }

  private static void index(Directory dir, FacetsConfig config) throws IOException {
    SplittableRandom random = new SplittableRandom(17);
    IndexWriterConfig iwc = new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE);
    try (IndexWriter writer = new IndexWriter(dir, iwc)) {
      for (int segment : new int[] {4_000, 2_500, 700}) {
        for (int i = 0; i < segment; i++) {
          Document doc = new Document();
          StringBuilder body = new StringBuilder();
          for (int w = 0; w < 4; w++) {
            body.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
          }
          doc.add(new TextField("body", body.toString(), Field.Store.NO));
          doc.add(new SortedSetDocValuesFacetField("color", COLORS[random.nextInt(4)]));
          writer.addDocument(config.build(doc));
        }
        writer.commit();
      }
    }
  }
}
