package dev.tailor.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.RequestContext;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.Tuning;
import dev.tailor.core.metrics.RequestRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.NIOFSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cancelling a search's request, even with {@code cancel(true)}, interrupts no thread: a thread
 * interrupted while it reads an {@link NIOFSDirectory} closes the file's channel, and every later
 * search of the index fails until it is reopened. Here a search reads stored fields from an
 * NIOFSDirectory after its request was cancelled; the index must stay readable.
 */
class CooperativeCancellationTest {

  private static final int DOCS = 2_000;

  @Test
  void cancellingASearchMidRunLeavesAnNiofsIndexReadable(@TempDir Path dir) throws Exception {
    try (Directory directory = new NIOFSDirectory(dir)) {
      try (IndexWriter w =
          new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer()))) {
        for (int i = 0; i < DOCS; i++) {
          Document doc = new Document();
          doc.add(new StringField("id", Integer.toString(i), Field.Store.YES));
          doc.add(new StoredField("payload", "document number " + i + " ".repeat(i % 97)));
          w.addDocument(doc);
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(directory);
          Scheduler scheduler =
              SchedulerInternals.policy(Scheduler.builder(), "fixed:2")
                  .workers(2)
                  .tuning(Tuning.defaults().withQuantum(Duration.ofMillis(1)))
                  .build()) {
        CountDownLatch searching = new CountDownLatch(1);
        AtomicReference<Throwable> readAfterCancel = new AtomicReference<>();
        AtomicReference<Boolean> interrupted = new AtomicReference<>();
        HookedQuery query =
            new HookedQuery(
                (leaf, doc) -> {
                  RequestContext ctx = RequestContext.current();
                  if (doc != 0 || ctx == null || interrupted.get() != null) {
                    return;
                  }
                  searching.countDown();
                  long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                  while (!ctx.isCancelled() && System.nanoTime() - deadline < 0) {
                    Thread.onSpinWait();
                  }
                  interrupted.set(Thread.currentThread().isInterrupted());
                  try {
                    StoredFields fields = leaf.reader().storedFields();
                    for (int d = 0; d < leaf.reader().maxDoc(); d++) {
                      fields.document(d); // reads through the directory's channel
                    }
                  } catch (Throwable t) {
                    readAfterCancel.set(t);
                  }
                });
        TailorSearcher searcher = new TailorSearcher(reader, scheduler, Windowing.single());
        CompletableFuture<TopDocs> f =
            SchedulerInternals.submit(
                scheduler, ctx -> searcher.search(query, new TopScoreDocCollectorManager(10, 10)));
        assertTrue(searching.await(1, TimeUnit.MINUTES), "hang guard");
        assertTrue(f.cancel(true));
        assertThrows(CancellationException.class, f::join);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (SchedulerInternals.metrics(scheduler).count(RequestRecord.Outcome.CANCELLED) == 0) {
          assertTrue(System.nanoTime() - deadline < 0, "hang guard: the request ended");
          Thread.yield();
        }
        assertEquals(Boolean.FALSE, interrupted.get(), "the search's thread was not interrupted");
        assertNull(readAfterCancel.get(), "reading after the cancellation worked");
        // The index is intact: a plain searcher reads every document through the same channels.
        IndexSearcher plain = new IndexSearcher(reader);
        assertEquals(DOCS, plain.count(new MatchAllDocsQuery()));
        StoredFields fields = reader.storedFields();
        for (int d = 0; d < DOCS; d++) {
          fields.document(d);
        }
      }
    }
  }
}
