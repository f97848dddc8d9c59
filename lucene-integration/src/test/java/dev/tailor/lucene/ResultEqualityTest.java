package dev.tailor.lucene;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.SchedulerListener;
import dev.tailor.core.Tuning;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.search.TotalHits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The drop-in returns exactly what a plain {@link IndexSearcher} returns: top-10 doc ids and
 * scores, exact total hits, a sorted search and a count, for over a thousand queries of every type
 * on a multi-segment index cut into intra-segment partitions, under ten settings (seq, fixed:2,
 * fixed:4, rampup, adaptive, wq-linear, a chaos policy that changes degrees at random, with the
 * claims of a policy that watches progress and without, and the default policy with its prompt
 * admission, at its bound and at a bound that cuts every helper claim to one window), on callers'
 * threads and on the pool, with degrees changing in the middle of queries. Every setting admits
 * promptly, the default.
 */
class ResultEqualityTest {

  private static final int PER_CATEGORY = 80; // 13 categories: 1,040 queries
  private static final Sort BY_DATE = new Sort(new SortField("date", SortField.Type.LONG));

  private static TestIndex index;
  private static List<TestQueries.Named> queries;
  private static List<Expected> expected;

  private record Expected(TopDocs top, TopDocs sorted, int count) {}

  @BeforeAll
  static void buildIndexAndExpectations() throws Exception {
    index = TestIndex.build(20_000, 42);
    assertTrue(index.reader.leaves().size() >= 6, "a multi-segment index");
    queries = TestQueries.generate(index, PER_CATEGORY, 7);
    IndexSearcher plain = new IndexSearcher(index.reader); // no executor: the reference
    expected = new ArrayList<>();
    for (TestQueries.Named q : queries) {
      expected.add(
          new Expected(
              plain.search(q.query(), exact()),
              plain.search(q.query(), 10, BY_DATE),
              plain.count(q.query())));
    }
  }

  @AfterAll
  static void close() throws Exception {
    index.close();
  }

  private static TopScoreDocCollectorManager exact() {
    return new TopScoreDocCollectorManager(10, Integer.MAX_VALUE);
  }

  @Test
  void theQueriesCoverEveryCategoryAndMatchSomething() {
    Set<String> categories = new TreeSet<>();
    int matching = 0;
    for (int i = 0; i < queries.size(); i++) {
      categories.add(queries.get(i).category());
      if (expected.get(i).count() > 0) {
        matching++;
      }
    }
    assertEquals(13, categories.size(), categories.toString());
    assertTrue(queries.size() >= 1_000);
    assertTrue(matching > queries.size() * 9 / 10, matching + " of " + queries.size() + " match");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "seq",
        "fixed:2",
        "fixed:4",
        "rampup:50us,4",
        "adaptive",
        "wq-linear:4",
        "chaos",
        "chaos-probing",
        "default",
        "default-cut"
      })
  void everyQueryGivesPlainLuceneResults(String spec) throws Exception {
    // "default": the scheduler's default policy and prompt admission; "default-cut": the same with
    // a prompt bound of a microsecond, so that every helper claim is one window and helpers leave
    // at whatever window an arrival finds them.
    Policy policy =
        spec.startsWith("chaos")
            ? new ChaosPolicy(4, spec.equals("chaos-probing"))
            : PolicyRegistry.of(spec.startsWith("default") ? Scheduler.DEFAULT_POLICY : spec);
    AtomicInteger parallel = new AtomicInteger();
    try (Scheduler scheduler =
        Scheduler.builder()
            .policy(policy)
            .tuning(
                Tuning.defaults()
                    .withPromptBound(
                        spec.equals("default-cut")
                            ? Duration.ofNanos(1_000)
                            : Duration.ofNanos(dev.tailor.core.model.GuidedClaims.PROMPT_NANOS))
                    .withQuantum(Duration.ofMillis(1)))
            .workers(4)
            .listener(
                new SchedulerListener() {
                  @Override
                  public void requestCompleted(RequestRecord record) {
                    if (record.maxThreads() > 1) {
                      parallel.incrementAndGet();
                    }
                  }
                })
            .build()) {
      TailorSearcher searcher =
          new TailorSearcher(index.reader, scheduler, Windowing.windowsPerQuery(16));
      assertTrue(searcher.getSlices().length >= 12, "intra-segment partitions");
      if (!spec.equals("seq")) {
        int threads = threadsOnAProbe(searcher);
        assertTrue(threads >= 2, spec + ": a query got a second thread, got " + threads);
      }
      for (int i = 0; i < queries.size(); i++) {
        check(searcher, i, i % 2 == 0);
      }
    }
    if (!spec.equals("seq")) {
      assertTrue(parallel.get() > 0, "some queries ran on more than one thread");
    } else {
      assertEquals(0, parallel.get(), "seq never adds a thread");
    }
  }

  /**
   * Searches a query that holds its first thread in its first document until a second thread has
   * searched a document: it returns only once the policy gave it a second thread, however long that
   * takes (a ramp-up waits for run time, chaos for a lucky draw), and then finds every document.
   *
   * @return how many threads searched it
   */
  private static int threadsOnAProbe(TailorSearcher searcher) throws Exception {
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    CountDownLatch second = new CountDownLatch(1);
    HookedQuery probe =
        new HookedQuery(
            (leaf, doc) -> {
              threads.add(Thread.currentThread());
              if (threads.size() >= 2) {
                second.countDown();
              } else {
                try {
                  assertTrue(second.await(1, TimeUnit.MINUTES), "hang guard: a second thread");
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                }
              }
            });
    assertEquals(index.reader.maxDoc(), searcher.search(probe, exact()).totalHits.value());
    return threads.size();
  }

  /**
   * Four callers at once: under chaos, degrees change at random; under the default with a prompt
   * bound of a microsecond on two workers and a thread of slack, arrivals take the cores helpers
   * hold, and the helpers over the bound leave at whatever window the arrival finds them.
   */
  @ParameterizedTest
  @ValueSource(strings = {"chaos", "default-cut"})
  void concurrentQueriesUnderChangingDegreesGivePlainLuceneResults(String spec) throws Exception {
    boolean chaos = spec.equals("chaos");
    try (Scheduler scheduler =
            Scheduler.builder()
                .policy(chaos ? new ChaosPolicy(4) : PolicyRegistry.of(Scheduler.DEFAULT_POLICY))
                .workers(chaos ? 3 : 2)
                .tuning(
                    Tuning.defaults()
                        .withSlack(1)
                        .withPromptBound(Duration.ofNanos(chaos ? 1_000_000 : 1_000))
                        .withQuantum(Duration.ofMillis(1)))
                .build();
        ExecutorService callers = Executors.newFixedThreadPool(4)) {
      TailorSearcher searcher =
          new TailorSearcher(index.reader, scheduler, Windowing.docsPerWindow(700));
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int first = t;
        done.add(
            callers.submit(
                () -> {
                  for (int i = first; i < queries.size(); i += 4) {
                    check(searcher, i, i % 3 != 0);
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(10, TimeUnit.MINUTES); // hang guard
      }
    }
  }

  private static void check(TailorSearcher searcher, int i, boolean onCaller) throws Exception {
    TestQueries.Named q = queries.get(i);
    Expected want = expected.get(i);
    String what = q.category() + " " + q.text();
    TopDocs got = onCaller ? searcher.search(q.query(), exact()) : onPool(searcher, q.query());
    assertSameTopDocs(want.top(), got, what);
    if (i % 5 == 0) {
      TopDocs sorted = searcher.search(q.query(), 10, BY_DATE);
      assertSameDocs(want.sorted(), sorted, what + " sorted by date");
      assertEquals(want.count(), searcher.count(q.query()), what + " count");
    }
  }

  private static TopDocs onPool(TailorSearcher searcher, Query query) throws Exception {
    CompletableFuture<TopDocs> f =
        SchedulerInternals.submit(searcher.scheduler(), ctx -> searcher.search(query, exact()));
    return f.get(1, TimeUnit.MINUTES);
  }

  static void assertSameTopDocs(TopDocs want, TopDocs got, String what) {
    assertEquals(TotalHits.Relation.EQUAL_TO, got.totalHits.relation(), what);
    assertEquals(want.totalHits.value(), got.totalHits.value(), what + " total hits");
    assertSameDocs(want, got, what);
    float[] wantScores = new float[want.scoreDocs.length];
    float[] gotScores = new float[got.scoreDocs.length];
    for (int d = 0; d < wantScores.length; d++) {
      wantScores[d] = want.scoreDocs[d].score;
    }
    for (int d = 0; d < gotScores.length; d++) {
      gotScores[d] = got.scoreDocs[d].score;
    }
    assertArrayEquals(wantScores, gotScores, what + " scores");
  }

  static void assertSameDocs(TopDocs want, TopDocs got, String what) {
    int[] wantIds = new int[want.scoreDocs.length];
    int[] gotIds = new int[got.scoreDocs.length];
    for (int d = 0; d < wantIds.length; d++) {
      wantIds[d] = want.scoreDocs[d].doc;
    }
    for (int d = 0; d < gotIds.length; d++) {
      gotIds[d] = got.scoreDocs[d].doc;
    }
    assertArrayEquals(wantIds, gotIds, what + " doc ids");
  }
}
