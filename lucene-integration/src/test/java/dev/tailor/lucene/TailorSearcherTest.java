package dev.tailor.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.RequestAttributes;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.Tuning;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Deadlines, failures and nesting in the drop-in searcher. */
class TailorSearcherTest {

  private static TestIndex index;

  @BeforeAll
  static void build() throws IOException {
    index = TestIndex.build(6_000, 11);
  }

  @AfterAll
  static void close() throws IOException {
    index.close();
  }

  private static Scheduler scheduler(String policy, int workers) {
    return SchedulerInternals.policy(Scheduler.builder(), policy)
        .workers(workers)
        .tuning(Tuning.defaults().withQuantum(Duration.ofMillis(1)))
        .build();
  }

  private static TopScoreDocCollectorManager top10() {
    return new TopScoreDocCollectorManager(10, Integer.MAX_VALUE);
  }

  /**
   * A query whose first document waits until {@code timeout} has passed since it was reached: by
   * then the deadline of a search given that timeout has passed too, whatever the machine's speed.
   */
  private static HookedQuery outlasting(Duration timeout) {
    AtomicLong firstVisit = new AtomicLong();
    return new HookedQuery(
        (leaf, doc) -> {
          if (firstVisit.compareAndSet(0, System.nanoTime())) {
            while (System.nanoTime() - firstVisit.get() <= timeout.toNanos()) {
              Thread.onSpinWait();
            }
          }
        });
  }

  @Test
  void aDeadlineStopsTheRemainingUnitsAndSaysTheResultIsPartial() throws Exception {
    try (Scheduler scheduler = scheduler("fixed:2", 2)) {
      TailorSearcher searcher =
          new TailorSearcher(index.reader, scheduler, Windowing.windowsPerQuery(12));
      Duration timeout = Duration.ofMillis(2);
      HookedQuery slow = outlasting(timeout);
      SearchOutcome<TopDocs> outcome =
          searcher.search(slow, top10(), RequestAttributes.NONE, timeout);
      assertTrue(outcome.timedOut());
      long all = index.reader.maxDoc();
      assertTrue(slow.visited.get() < all, slow.visited.get() + " of " + all + " visited");
      assertTrue(outcome.result().totalHits.value() < all, "partial hits");
      assertTrue(searcher.timedOut());
    }
  }

  @Test
  void aUsersOwnTimeoutDoesNotDisableTheDeadlines() throws Exception {
    try (Scheduler scheduler = scheduler("fixed:2", 2)) {
      TailorSearcher searcher =
          new TailorSearcher(index.reader, scheduler, Windowing.windowsPerQuery(12));
      AtomicBoolean userSaysExit = new AtomicBoolean();
      QueryTimeout user = userSaysExit::get;
      searcher.setTimeout(user);
      assertSame(user, searcher.getTimeout());
      Duration timeout = Duration.ofMillis(2);
      HookedQuery slow = outlasting(timeout);
      SearchOutcome<TopDocs> outcome =
          searcher.search(slow, top10(), RequestAttributes.NONE, timeout);
      assertTrue(outcome.timedOut(), "the deadline passed, the user's timeout did not");
      assertTrue(slow.visited.get() < index.reader.maxDoc());
    }
  }

  @Test
  void aUsersOwnTimeoutStopsSearchesWithAndWithoutADeadline() throws Exception {
    try (Scheduler scheduler = scheduler("fixed:2", 2)) {
      TailorSearcher searcher =
          new TailorSearcher(index.reader, scheduler, Windowing.windowsPerQuery(12));
      long all = index.reader.maxDoc();
      searcher.setTimeout(() -> true);
      HookedQuery withDeadline = new HookedQuery((leaf, doc) -> {});
      SearchOutcome<TopDocs> outcome =
          searcher.search(withDeadline, top10(), RequestAttributes.NONE, Duration.ofMinutes(1));
      assertTrue(outcome.timedOut(), "the user's timeout said exit");
      assertTrue(outcome.result().totalHits.value() < all);
      SearchOutcome<TopDocs> noDeadline =
          searcher.search(withDeadline, top10(), RequestAttributes.NONE, null);
      assertTrue(noDeadline.timedOut());
      HookedQuery plain = new HookedQuery((leaf, doc) -> {});
      assertTrue(searcher.search(plain, top10()).totalHits.value() < all);
      assertTrue(searcher.timedOut());
      searcher.setTimeout(null);
      assertEquals(all, searcher.search(plain, top10()).totalHits.value(), "no timeout: all");
    }
  }

  @Test
  void timeoutsTooLongForALongOfNanosNeverPassAndNegativeOnesHavePassed() throws Exception {
    try (Scheduler scheduler = scheduler("fixed:2", 2)) {
      TailorSearcher searcher = new TailorSearcher(index.reader, scheduler);
      Query q = index.term(3);
      TopDocs plain = new IndexSearcher(index.reader).search(q, top10());
      for (Duration far :
          List.of(
              Duration.ofDays(365L * 300),
              Duration.ofNanos(Long.MAX_VALUE),
              Duration.ofSeconds(Long.MAX_VALUE, 999_999_999))) {
        SearchOutcome<TopDocs> outcome = searcher.search(q, top10(), RequestAttributes.NONE, far);
        assertFalse(outcome.timedOut(), far.toString());
        ResultEqualityTest.assertSameTopDocs(plain, outcome.result(), far.toString());
      }
      for (Duration passed : List.of(Duration.ZERO, Duration.ofMillis(-5))) {
        HookedQuery all = new HookedQuery((leaf, doc) -> {});
        SearchOutcome<TopDocs> outcome =
            searcher.search(all, top10(), RequestAttributes.NONE, passed);
        assertTrue(outcome.timedOut(), passed.toString());
        assertEquals(0, all.visited.get(), passed + ": stopped at the first check");
      }
    }
  }

  @Test
  void deadlineArithmeticSaturatesAndSurvivesTheClockWrappingAround() {
    long nearTheEnd = Long.MAX_VALUE - 1_000;
    long soon = TailorSearcher.deadlineAfter(nearTheEnd, Duration.ofSeconds(1));
    assertFalse(passed(soon, nearTheEnd + 999_999_999), "a nanosecond early");
    assertTrue(passed(soon, nearTheEnd + 1_000_000_000), "on time, the clock wrapped around");
    assertEquals(
        TailorSearcher.NO_DEADLINE,
        TailorSearcher.deadlineAfter(nearTheEnd, Duration.ofSeconds(Long.MAX_VALUE)),
        "too long to pass: no deadline");
    long longest =
        TailorSearcher.deadlineAfter(nearTheEnd, Duration.ofNanos(Long.MAX_VALUE / 2 - 1));
    assertFalse(passed(longest, nearTheEnd + Long.MAX_VALUE / 4), "a century on: not yet");
    long negative = TailorSearcher.deadlineAfter(nearTheEnd, Duration.ofSeconds(Long.MIN_VALUE));
    assertTrue(passed(negative, nearTheEnd));
  }

  /** How a request compares its deadline with the clock. */
  private static boolean passed(long deadline, long now) {
    return deadline != TailorSearcher.NO_DEADLINE && now - deadline >= 0;
  }

  @Test
  void everySearchOnAFreshSearcherFromManyThreadsAtOnceKeepsItsDeadline() throws Exception {
    try (Scheduler scheduler = scheduler("fixed:2", 2);
        ExecutorService callers = Executors.newFixedThreadPool(8)) {
      TailorSearcher searcher =
          new TailorSearcher(index.reader, scheduler, Windowing.windowsPerQuery(12));
      CyclicBarrier together = new CyclicBarrier(8);
      List<Future<Boolean>> timedOut = new java.util.ArrayList<>();
      for (int t = 0; t < 8; t++) {
        timedOut.add(
            callers.submit(
                () -> {
                  together.await(1, TimeUnit.MINUTES);
                  HookedQuery q = new HookedQuery((leaf, doc) -> {});
                  return searcher
                          .search(q, top10(), RequestAttributes.NONE, Duration.ZERO)
                          .timedOut()
                      && q.visited.get() == 0;
                }));
      }
      for (Future<Boolean> f : timedOut) {
        assertTrue(f.get(1, TimeUnit.MINUTES), "each first search stopped at its deadline");
      }
    }
  }

  @Test
  void aSearchWithinItsDeadlineIsCompleteAndEqualToPlainLucene() throws Exception {
    try (Scheduler scheduler = scheduler("fixed:2", 2)) {
      TailorSearcher searcher = new TailorSearcher(index.reader, scheduler);
      Query q = index.term(3);
      SearchOutcome<TopDocs> outcome =
          searcher.search(
              q, top10(), RequestAttributes.labelled("HighTerm"), Duration.ofMinutes(1));
      assertFalse(outcome.timedOut());
      ResultEqualityTest.assertSameTopDocs(
          new IndexSearcher(index.reader).search(q, top10()), outcome.result(), "term");
    }
  }

  @Test
  void anExceptionInOneUnitFailsThatSearchOnly() throws Exception {
    try (Scheduler scheduler = scheduler("fixed:3", 3)) {
      TailorSearcher searcher =
          new TailorSearcher(index.reader, scheduler, Windowing.windowsPerQuery(9));
      IllegalStateException boom = new IllegalStateException("bad segment");
      HookedQuery failing =
          new HookedQuery(
              (leaf, doc) -> {
                if (leaf.ord == 2) {
                  throw boom;
                }
              });
      CompletableFuture<TopDocs> failed =
          SchedulerInternals.submit(scheduler, ctx -> searcher.search(failing, top10()));
      Query fine = index.term(0);
      CompletableFuture<TopDocs> ok =
          SchedulerInternals.submit(scheduler, ctx -> searcher.search(fine, top10()));
      ExecutionException e =
          assertThrows(ExecutionException.class, () -> failed.get(1, TimeUnit.MINUTES));
      assertSame(boom, e.getCause());
      assertTrue(ok.get(1, TimeUnit.MINUTES).totalHits.value() > 0);
      IllegalStateException onCaller =
          assertThrows(IllegalStateException.class, () -> searcher.search(failing, top10()));
      assertSame(boom, onCaller);
      assertTrue(searcher.search(fine, top10()).totalHits.value() > 0, "the searcher still works");
    }
  }

  @Test
  void searchesNestedInsideUnitsDoNotDeadlock() throws Exception {
    for (int workers : new int[] {1, 2}) {
      try (Scheduler scheduler = scheduler("fixed:" + workers, workers)) {
        TailorSearcher searcher =
            new TailorSearcher(index.reader, scheduler, Windowing.windowsPerQuery(6));
        Query inner = index.term(1);
        int innerCount = new IndexSearcher(index.reader).count(inner);
        assertTrue(innerCount > 0);
        AtomicInteger nested = new AtomicInteger();
        // A collector that runs a whole search from inside each unit, on whichever thread has it.
        SimpleCollector collector =
            new SimpleCollector() {
              @Override
              protected void doSetNextReader(LeafReaderContext context) throws IOException {
                assertEquals(innerCount, searcher.count(inner));
                nested.incrementAndGet();
              }

              @Override
              public void collect(int doc) {}

              @Override
              public ScoreMode scoreMode() {
                return ScoreMode.COMPLETE_NO_SCORES;
              }
            };
        Query outer = index.term(2);
        CompletableFuture<Integer> pooled =
            SchedulerInternals.submit(
                scheduler,
                ctx -> {
                  searcher.search(outer, collector);
                  return searcher.count(outer);
                });
        assertTrue(pooled.get(1, TimeUnit.MINUTES) > 0);
        assertTrue(nested.get() > 0);
        // And the same through a collector manager, whose slices do go to helpers.
        int total =
            searcher.search(
                outer,
                new org.apache.lucene.search.CollectorManager<SimpleCollector, Integer>() {
                  @Override
                  public SimpleCollector newCollector() {
                    return new SimpleCollector() {
                      int n;

                      @Override
                      protected void doSetNextReader(LeafReaderContext context) throws IOException {
                        assertEquals(innerCount, searcher.count(inner));
                      }

                      @Override
                      public void collect(int doc) {
                        n++;
                      }

                      @Override
                      public ScoreMode scoreMode() {
                        return ScoreMode.COMPLETE_NO_SCORES;
                      }

                      @Override
                      public String toString() {
                        return Integer.toString(n);
                      }
                    };
                  }

                  @Override
                  public Integer reduce(java.util.Collection<SimpleCollector> collectors) {
                    int sum = 0;
                    for (SimpleCollector c : collectors) {
                      sum += Integer.parseInt(c.toString());
                    }
                    return sum;
                  }
                });
        assertEquals(new IndexSearcher(index.reader).count(outer), total);
      }
    }
  }

  @Test
  void theDefaultSlicingGivesSeveralUnitsPerThread() throws Exception {
    try (Scheduler scheduler = scheduler("seq", 2)) {
      TailorSearcher searcher = new TailorSearcher(index.reader, scheduler);
      int units = searcher.getSlices().length;
      assertTrue(units >= 6, units + " units for a budget of 2");
      int docs = 0;
      for (IndexSearcher.LeafSlice slice : searcher.getSlices()) {
        docs += slice.getMaxDocs();
      }
      assertEquals(index.reader.maxDoc(), docs, "the units cover the index exactly once");
    }
  }

  @Test
  void slicingCoversEveryDocumentOnceAndKeepsLeavesDistinctPerSlice() {
    for (Windowing slicing :
        List.of(
            Windowing.single(),
            Windowing.windowsPerQuery(3),
            Windowing.windowsPerQuery(40),
            Windowing.docsPerWindow(250))) {
      IndexSearcher.LeafSlice[] slices = slicing.slice(index.reader.leaves());
      long[] covered = new long[index.reader.maxDoc()];
      for (IndexSearcher.LeafSlice slice : slices) {
        java.util.Set<Integer> leaves = new java.util.HashSet<>();
        for (IndexSearcher.LeafReaderContextPartition p : slice.partitions) {
          assertTrue(leaves.add(p.ctx.ord), slicing + ": a leaf twice in one slice");
          int max = Math.min(p.maxDocId, p.ctx.reader().maxDoc());
          for (int d = p.minDocId; d < max; d++) {
            covered[p.ctx.docBase + d]++;
          }
        }
      }
      for (long c : covered) {
        assertEquals(1, c, slicing + ": every document in exactly one unit");
      }
    }
    assertEquals(1, Windowing.single().slice(index.reader.leaves()).length);
  }
}
