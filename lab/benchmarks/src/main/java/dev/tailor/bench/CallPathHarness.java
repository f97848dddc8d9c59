package dev.tailor.bench;

import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.Policies;
import dev.tailor.lucene.TailorSearcher;
import java.util.SplittableRandom;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * The traced program of {@link CallPathBench}, run in a child JVM under the debugger: one one-term
 * search under {@code fixed:2} with two idle workers, between the calls of {@link #begin} and
 * {@link #end}, on an index of 4 segments of 20,000 documents built in memory, after enough
 * searches that the path is warm.
 */
public final class CallPathHarness {

  static final int SEGMENTS = 4;
  static final int DOCS_PER_SEGMENT = 20_000;
  private static final int WARM_UP_SEARCHES = 3_000;

  private CallPathHarness() {}

  /** The trace starts as this is called. */
  public static void begin() {}

  /** The trace ends as this is called. */
  public static void end() {}

  /**
   * Builds the index, warms up, and runs the traced search.
   *
   * @param args none
   * @throws Exception if the index cannot be built or searched
   */
  public static void main(String[] args) throws Exception {
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    IndexWriterConfig config = new IndexWriterConfig(new StandardAnalyzer());
    config.setMergePolicy(NoMergePolicy.INSTANCE);
    try (IndexWriter w = new IndexWriter(dir, config)) {
      SplittableRandom random = new SplittableRandom(1);
      for (int s = 0; s < SEGMENTS; s++) {
        for (int i = 0; i < DOCS_PER_SEGMENT; i++) {
          String text = (random.nextInt(3) == 0 ? "lucene " : "") + "w" + random.nextInt(100);
          Document d = new Document();
          d.add(new TextField("body", text, Field.Store.NO));
          w.addDocument(d);
        }
        w.flush(); // one segment each
      }
    }
    try (DirectoryReader reader = DirectoryReader.open(dir);
        Scheduler scheduler = Scheduler.builder().workers(2).policy(Policies.fixed(2)).build()) {
      IndexSearcher searcher = new TailorSearcher(reader, scheduler);
      Query query = new TermQuery(new Term("body", "lucene"));
      for (int i = 0; i < WARM_UP_SEARCHES; i++) {
        searcher.search(query, 10);
      }
      Thread.sleep(300); // both workers park
      begin();
      searcher.search(query, 10);
      Thread.sleep(200); // the helper's release and the request's completion, on their threads
      end();
    }
  }
}
