package dev.tailor.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.policy.RequestView;
import dev.tailor.measure.Failures;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

class InProcessTargetTest {

  @Test
  void aRefusedRequestFailsAsRejected() throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
        Document doc = new Document();
        doc.add(new TextField("body", "open loop replay", Field.Store.NO));
        w.addDocument(doc);
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        List<InProcessTarget.TraceEntry> trace =
            List.of(
                new InProcessTarget.TraceEntry(
                    null, new TermQuery(new Term("body", "loop")), RequestView.UNKNOWN));
        InProcessTarget target =
            new InProcessTarget(
                reader, trace, "fixed:1", 1, 4, 1, 0, null, UnaryOperator.identity());
        target.send(0).get(1, TimeUnit.MINUTES);
        target.close(); // a closed scheduler refuses every request, as a full queue does
        ExecutionException e =
            assertThrows(ExecutionException.class, () -> target.send(0).get(1, TimeUnit.MINUTES));
        RequestFailedException f = assertInstanceOf(RequestFailedException.class, e.getCause());
        assertEquals(Failures.Kind.REJECTED, f.kind());
        assertEquals(Failures.Kind.REJECTED, RequestFailedException.kindOf(e));
      }
    }
  }

  /**
   * Many searches at once on two threads, some going parallel: every one completes exactly once,
   * and the answer of each carries its own server timing, consistent with its record.
   */
  @Test
  void everyAnswerCarriesItsOwnServerTiming() throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
        for (int i = 0; i < 2_000; i++) {
          Document doc = new Document();
          doc.add(new TextField("body", "open loop replay " + (i % 7), Field.Store.NO));
          w.addDocument(doc);
          if (i % 500 == 499) {
            w.commit(); // several segments, so that a search has windows to share
          }
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        List<InProcessTarget.TraceEntry> trace =
            List.of(
                new InProcessTarget.TraceEntry(
                    null, new TermQuery(new Term("body", "loop")), RequestView.UNKNOWN));
        InProcessTarget target =
            new InProcessTarget(
                reader, trace, "fixed:2", 2, 10_000, 8, 0, null, UnaryOperator.identity());
        try {
          int n = 500;
          List<java.util.concurrent.CompletableFuture<?>> futures = new java.util.ArrayList<>();
          for (int i = 0; i < n; i++) {
            futures.add(target.send(0));
          }
          java.util.Set<Object> answers =
              java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
          for (java.util.concurrent.CompletableFuture<?> f : futures) {
            Object answer = f.get(1, TimeUnit.MINUTES);
            assertTrue(answers.add(answer), "each search has its own answer");
            ServerTiming t = target.timing(answer);
            assertNotNull(t, "every answered search has its server's timing");
            assertTrue(t.queuedNanos() >= 0 && t.dispatchNanos() >= 0 && t.runNanos() > 0, "" + t);
          }
          assertEquals(n, answers.size());
          assertEquals(0, target.awaitingRecords(), "no search is left waiting for its record");
          assertEquals(n, SchedulerInternals.metrics(target.scheduler()).run().getTotalCount());
        } finally {
          target.close();
        }
      }
    }
  }
}
