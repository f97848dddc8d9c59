package dev.tailor.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tailor.core.Scheduler;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;

/** The README's drop-in example, verbatim, so that it keeps compiling and keeps working. */
class DropInExampleTest {

  @Test
  void theReadmeDropInExampleRuns() throws Exception {
    try (Directory dir = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
        for (String text : new String[] {"lucene in action", "tail latency", "lucene scheduling"}) {
          Document doc = new Document();
          doc.add(new TextField("body", text, Field.Store.NO));
          w.addDocument(doc);
        }
      }
      try (IndexReader reader = DirectoryReader.open(dir)) {
        TopDocs hits;
        // --- README example starts
        Scheduler scheduler = Scheduler.builder().build(); // steal-first, prompt admission

        // was: IndexSearcher searcher = new IndexSearcher(reader, executor);
        IndexSearcher searcher = new TailorSearcher(reader, scheduler);

        hits = searcher.search(new TermQuery(new Term("body", "lucene")), 10);
        // --- README example ends
        assertEquals(2, hits.totalHits.value());
        assertEquals(Scheduler.DEFAULT_POLICY, scheduler.policy().spec());
        scheduler.close();
      }
    }
  }
}
