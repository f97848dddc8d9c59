package dev.tailor.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.RequestAttributes;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.Tuning;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.policy.WorkerPreference;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The windows of a search: claimed once each, by the threads of its request, one collector per
 * thread, and a helper that joins in the middle of a query takes windows without changing the
 * result.
 */
class WindowedSearchTest {

  private static TestIndex index;
  private static List<TestQueries.Named> queries;

  @BeforeAll
  static void build() throws Exception {
    index = TestIndex.build(12_000, 5);
    queries = TestQueries.generate(index, 6, 3);
  }

  @AfterAll
  static void close() throws IOException {
    index.close();
  }

  @Test
  void atDegreeOneOneThreadAndOneCollectorSearchEveryWindowInOrder() throws Exception {
    WindowLog log = new WindowLog();
    try (Scheduler scheduler =
        SchedulerInternals.policy(Scheduler.builder(), "seq").workers(4).build()) {
      TailorSearcher searcher =
          new TailorSearcher(index.reader, scheduler, Windowing.windowsPerQuery(24), log);
      IndexSearcher plain = new IndexSearcher(index.reader);
      for (TestQueries.Named q : queries) {
        log.clear();
        CountingManager manager = new CountingManager();
        TopDocs got = searcher.search(q.query(), manager);
        ResultEqualityTest.assertSameTopDocs(plain.search(q.query(), exact()), got, q.text());
        assertEquals(1, manager.collectors.get(), "one collector: " + q.text());
        assertEquals(1, log.threads().size(), "one thread: " + q.text());
        log.assertEachWindowOnce(searcher.getSlices(), q.text());
      }
    }
  }

  @Test
  void aHelperThatJoinsMidQueryTakesWindowsWithItsOwnCollector() throws Exception {
    // Degree 1 at admission, 2 at the first re-read (a tick): the helper arrives while the
    // starting thread is held inside its first window until the helper has searched a document.
    CountDownLatch helperSearched = new CountDownLatch(1);
    Thread[] starter = new Thread[1];
    HookedQuery query =
        new HookedQuery(
            (leaf, doc) -> {
              Thread self = Thread.currentThread();
              if (self == starter[0]) {
                if (helperSearched.getCount() > 0) {
                  await(helperSearched);
                }
              } else {
                helperSearched.countDown();
              }
            });
    WindowLog log = new WindowLog();
    try (Scheduler scheduler =
        Scheduler.builder()
            .policy(new StartThenTwo(1))
            .workers(2)
            .tuning(Tuning.defaults().withQuantum(Duration.ofMillis(1)))
            .build()) {
      TailorSearcher searcher =
          new TailorSearcher(index.reader, scheduler, Windowing.windowsPerQuery(24), log);
      starter[0] = Thread.currentThread();
      CountingManager manager = new CountingManager();
      TopDocs got = searcher.search(query, manager);
      assertEquals(index.reader.maxDoc(), got.totalHits.value(), "every document matched");
      assertEquals(2, manager.collectors.get(), "one collector per participating thread");
      assertEquals(2, log.threads().size(), "the starter and one helper searched windows");
      log.assertEachWindowOnce(searcher.getSlices(), "hooked");
      assertTrue(log.windowsOf(Thread.currentThread()) >= 1);
      assertTrue(log.windowsOf(Thread.currentThread()) < searcher.getSlices().length);
    }
  }

  @Test
  void threadsClaimRunsOfWindowsAndReReadTheDegreeOnlyBetweenThem() throws Exception {
    // Degree 2 from admission and no tick: the degree is re-read once at the end of each claim
    // (and once after a helper's join task). Guided claims take a quarter of the 24 windows at
    // first and shrink towards one, so there are far fewer claims than windows. Prompt admission
    // is off: it sizes a helper's claims by the time its windows take, so on a slow or busy
    // machine a helper would claim one window at a time and the count would measure the machine.
    StartThenTwo policy = new StartThenTwo(2);
    IndexSearcher plain = new IndexSearcher(index.reader);
    try (Scheduler scheduler =
        Scheduler.builder()
            .policy(policy)
            .workers(2)
            .tuning(Tuning.defaults().withQuantum(Duration.ofHours(1)).withPromptAdmission(false))
            .build()) {
      TailorSearcher searcher =
          new TailorSearcher(index.reader, scheduler, Windowing.windowsPerQuery(24));
      int windows = searcher.getSlices().length;
      for (TestQueries.Named q : queries) {
        policy.reReads.set(0);
        TopDocs got = searcher.search(q.query(), exact());
        ResultEqualityTest.assertSameTopDocs(plain.search(q.query(), exact()), got, q.text());
        assertTrue(
            policy.reReads.get() <= windows * 2 / 3,
            policy.reReads.get() + " re-reads for " + windows + " windows: " + q.text());
      }
    }
  }

  @Test
  void underChangingDegreesEveryWindowIsSearchedExactlyOnceAndResultsMatch() throws Exception {
    WindowLog log = new WindowLog();
    IndexSearcher plain = new IndexSearcher(index.reader);
    try (Scheduler scheduler =
        Scheduler.builder()
            .policy(new ChaosPolicy(3))
            .workers(3)
            .tuning(Tuning.defaults().withQuantum(Duration.ofMillis(1)))
            .build()) {
      TailorSearcher searcher =
          new TailorSearcher(index.reader, scheduler, Windowing.docsPerWindow(300), log);
      for (int round = 0; round < 3; round++) {
        for (TestQueries.Named q : queries) {
          log.clear();
          TopDocs got =
              SchedulerInternals.submit(scheduler, ctx -> searcher.search(q.query(), exact()))
                  .get(1, TimeUnit.MINUTES);
          ResultEqualityTest.assertSameTopDocs(plain.search(q.query(), exact()), got, q.text());
          log.assertEachWindowOnce(searcher.getSlices(), q.text());
        }
      }
    }
  }

  @Test
  void largeWindowsAreAlignedAndCoverEveryDocumentOnce() throws IOException {
    try (Directory dir = new ByteBuffersDirectory()) {
      try (IndexWriter writer =
          new IndexWriter(dir, new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE))) {
        for (int segment : new int[] {150_000, 61_234, 3_000}) {
          for (int i = 0; i < segment; i++) {
            writer.addDocument(new Document());
          }
          writer.commit();
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        IndexSearcher.LeafSlice[] slices =
            Windowing.docsPerWindow(9 * Windowing.ALIGNMENT).slice(reader.leaves());
        long covered = 0;
        for (IndexSearcher.LeafSlice s : slices) {
          for (LeafReaderContextPartition p : s.partitions) {
            int max = Math.min(p.maxDocId, p.ctx.reader().maxDoc());
            covered += max - p.minDocId;
            assertEquals(0, p.minDocId % Windowing.ALIGNMENT, "aligned start " + p.minDocId);
            assertTrue(
                max == p.ctx.reader().maxDoc() || max % Windowing.ALIGNMENT == 0,
                "aligned end " + max);
          }
        }
        assertEquals(reader.maxDoc(), covered);
        assertTrue(slices.length >= 5, slices.length + " windows");
      }
    }
  }

  @Test
  void aSearchReportsItsWindowsToItsRequestsProjection() throws Exception {
    long prior = Duration.ofSeconds(10).toNanos(); // far above the work of a search here
    try (Scheduler scheduler =
        SchedulerInternals.policy(Scheduler.builder(), "seq").workers(2).build()) {
      TailorSearcher searcher =
          new TailorSearcher(index.reader, scheduler, Windowing.windowsPerQuery(8));
      for (TestQueries.Named q : queries) {
        long[] seen = projectionAround(scheduler, searcher, q, RequestAttributes.predicted(prior));
        assertEquals(prior, seen[0], "before the first claim, the prior: " + q.text());
        assertTrue(
            seen[1] > 0 && seen[1] < prior,
            "every window finished pulls it towards the work done: " + q.text());
        seen = projectionAround(scheduler, searcher, q, RequestAttributes.NONE);
        assertEquals(RequestView.UNKNOWN, seen[0], "no prior, no window: unknown: " + q.text());
        assertTrue(
            seen[1] > 0 && seen[1] <= seen[2], "every window finished: the work: " + q.text());
      }
    }
  }

  /** The request's projection before and after a search in it, and its work after. */
  private static long[] projectionAround(
      Scheduler scheduler, TailorSearcher searcher, TestQueries.Named q, RequestAttributes attrs)
      throws Exception {
    return SchedulerInternals.run(
        scheduler,
        ctx -> {
          long before = ctx.view().projectedSequentialNanos();
          searcher.search(q.query(), exact());
          long after = ctx.view().projectedSequentialNanos();
          return new long[] {before, after, ctx.view().workNanos()};
        },
        attrs);
  }

  private static TopScoreDocCollectorManager exact() {
    return new TopScoreDocCollectorManager(10, Integer.MAX_VALUE);
  }

  private static void await(CountDownLatch latch) {
    try {
      assertTrue(latch.await(1, TimeUnit.MINUTES), "a helper joined"); // hang guard
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Starts every request at a given degree, answers 2 at every re-read and counts them. */
  private static final class StartThenTwo implements Policy {
    final AtomicInteger reReads = new AtomicInteger();
    private final int start;

    StartThenTwo(int start) {
      this.start = start;
    }

    @Override
    public Admission admit(RequestView request, SystemView system) {
      return Admission.start(start);
    }

    @Override
    public int degree(RequestView request, SystemView system) {
      reReads.incrementAndGet();
      return 2;
    }

    @Override
    public WorkerPreference workerPreference(SystemView system) {
      return WorkerPreference.HELP_FIRST;
    }

    @Override
    public String spec() {
      return "start-" + start + "-then-two";
    }
  }

  /** Counts the collectors a search asks for. */
  private static final class CountingManager
      implements CollectorManager<TopScoreDocCollector, TopDocs> {
    final AtomicInteger collectors = new AtomicInteger();
    private final TopScoreDocCollectorManager inner = exact();

    @Override
    public TopScoreDocCollector newCollector() throws IOException {
      collectors.incrementAndGet();
      return inner.newCollector();
    }

    @Override
    public TopDocs reduce(Collection<TopScoreDocCollector> collectors) throws IOException {
      return inner.reduce(collectors);
    }
  }

  /** Which thread searched which window, for one search at a time. */
  private static final class WindowLog implements UnitListener {
    private final Map<LeafReaderContextPartition[], AtomicInteger> counts =
        java.util.Collections.synchronizedMap(new IdentityHashMap<>());
    private final Map<Thread, AtomicInteger> byThread = new ConcurrentHashMap<>();

    @Override
    public void unitSearched(LeafReaderContextPartition[] partitions, long nanos) {
      counts.computeIfAbsent(partitions, p -> new AtomicInteger()).incrementAndGet();
      byThread.computeIfAbsent(Thread.currentThread(), t -> new AtomicInteger()).incrementAndGet();
    }

    void clear() {
      counts.clear();
      byThread.clear();
    }

    Set<Thread> threads() {
      return byThread.keySet();
    }

    int windowsOf(Thread t) {
      AtomicInteger n = byThread.get(t);
      return n == null ? 0 : n.get();
    }

    void assertEachWindowOnce(IndexSearcher.LeafSlice[] windows, String what) {
      assertEquals(windows.length, counts.size(), "windows searched: " + what);
      for (IndexSearcher.LeafSlice w : windows) {
        AtomicInteger n = counts.get(w.partitions);
        assertFalse(n == null, "a window was never searched: " + what);
        assertEquals(1, n.get(), "a window searched more than once: " + what);
      }
    }
  }
}
