package dev.tailor.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.lucene.server.SearchServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

class HttpTargetTest {

  @Test
  void anUnreachableServerFailsWithinSeconds() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // free once closed: nothing listens there
    }
    URI nowhere = URI.create("http://127.0.0.1:" + port);
    long start = System.nanoTime();
    IOException e = assertThrows(IOException.class, () -> new HttpTarget(nowhere, List.of("q")));
    assertTrue(e.getMessage().contains("cannot reach the search server"), e.getMessage());
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30), "hang guard");
  }

  @Test
  void sendsQueriesToTheSearchServer() throws Exception {
    StandardAnalyzer analyzer = new StandardAnalyzer();
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
        Document doc = new Document();
        doc.add(new TextField("body", "open loop replay", Field.Store.NO));
        w.addDocument(doc);
      }
      try (DirectoryReader reader = DirectoryReader.open(dir);
          Scheduler scheduler = Scheduler.builder().policy("fixed:2").workers(2).build();
          SearchServer server =
              new SearchServer(
                  new TailorSearcher(reader, scheduler),
                  analyzer,
                  "body",
                  SearchServer.Options.defaults());
          HttpTarget target =
              new HttpTarget(
                  URI.create("http://127.0.0.1:" + server.address().getPort()),
                  List.of("replay", "loop"))) {
        assertEquals("fixed:2", target.policy());
        target.send(0).get(1, TimeUnit.MINUTES);
        target.send(1).get(1, TimeUnit.MINUTES);
        assertEquals(2, scheduler.metrics().latency().getTotalCount());
      }
    }
  }
}
