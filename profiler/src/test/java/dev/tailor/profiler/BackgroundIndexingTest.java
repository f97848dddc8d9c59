package dev.tailor.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.budget.BudgetPolicy;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

/** Indexing beside search: every document once, on dedicated threads or on returned cores. */
class BackgroundIndexingTest {

  private static final int GUARD_SECONDS = 30;

  /** A source of {@code n} documents, then none. */
  private static BackgroundIndexing.DocumentSource documents(int n, AtomicInteger handedOut) {
    return () -> {
      int i = handedOut.getAndIncrement();
      if (i >= n) {
        return null;
      }
      Document d = new Document();
      d.add(new StringField("id", Integer.toString(i), Field.Store.NO));
      return d;
    };
  }

  private static void awaitIndexed(BackgroundIndexing b, long n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_SECONDS);
    while (b.indexed() < n) {
      assertTrue(System.nanoTime() - deadline < 0, "hang guard: indexed " + b.indexed());
      Thread.sleep(1);
    }
  }

  @Test
  void dedicatedThreadsIndexEveryDocumentOnce() throws Exception {
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      BackgroundIndexing b = new BackgroundIndexing(w, documents(1_000, new AtomicInteger()), 7);
      b.startDedicated(3);
      awaitIndexed(b, 1_000);
      assertEquals(1_000, b.stop());
      assertNull(b.failure());
      w.commit();
      try (DirectoryReader r = DirectoryReader.open(dir)) {
        assertEquals(1_000, r.numDocs());
      }
    }
  }

  @Test
  void onBackgroundCoresItIndexesOnceTheBudgetReturnsOneAndStopsWhileWaiting() throws Exception {
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()));
        Scheduler s =
            SchedulerInternals.elasticBudget(
                    Scheduler.builder().workers(2),
                    BudgetPolicy.of("utilization-range"),
                    1,
                    Duration.ofMillis(1))
                .build()) {
      BackgroundIndexing b = new BackgroundIndexing(w, documents(500, new AtomicInteger()), 10);
      // An idle scheduler's budget falls to one worker within a few periods: one core returned.
      b.startOnBackgroundCores(SchedulerInternals.backgroundCores(s), s.workers());
      awaitIndexed(b, 500);
      assertTrue(
          SchedulerInternals.backgroundCores(s).chunks() >= 50,
          "chunks " + SchedulerInternals.backgroundCores(s).chunks());
      assertEquals(500, b.stop());
    }
  }

  @Test
  void aStaticBudgetReturnsNothingAndStopStillReturns() throws Exception {
    try (IndexWriter w =
            new IndexWriter(
                new ByteBuffersDirectory(), new IndexWriterConfig(new StandardAnalyzer()));
        Scheduler s = Scheduler.builder().workers(2).build()) {
      AtomicInteger handedOut = new AtomicInteger();
      BackgroundIndexing b = new BackgroundIndexing(w, documents(10, handedOut), 1);
      b.startOnBackgroundCores(SchedulerInternals.backgroundCores(s), s.workers());
      assertEquals(0, b.stop(), "no core was ever returned");
      assertEquals(0, handedOut.get());
    }
  }

  @Test
  void aFailingSourceStopsIndexingAndIsKept() throws Exception {
    IOException boom = new IOException("disk gone");
    try (IndexWriter w =
        new IndexWriter(
            new ByteBuffersDirectory(), new IndexWriterConfig(new StandardAnalyzer()))) {
      BackgroundIndexing again =
          new BackgroundIndexing(
              w,
              () -> {
                throw boom;
              },
              5);
      again.startDedicated(1);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_SECONDS);
      while (again.failure() == null) {
        assertTrue(System.nanoTime() - deadline < 0, "hang guard");
        Thread.sleep(1);
      }
      assertSame(boom, again.failure().getCause());
      again.stop();
      assertThrows(IllegalArgumentException.class, () -> new BackgroundIndexing(w, () -> null, 0));
    }
  }
}
