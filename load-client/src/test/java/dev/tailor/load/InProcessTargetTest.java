package dev.tailor.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tailor.core.metrics.Failures;
import dev.tailor.core.policy.RequestView;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
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
        InProcessTarget target = new InProcessTarget(reader, trace, "fixed:1", 1, 4, 1);
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
}
