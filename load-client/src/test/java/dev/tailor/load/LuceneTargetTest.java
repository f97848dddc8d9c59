package dev.tailor.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.policy.RequestView;
import dev.tailor.lucene.TotalHits;
import dev.tailor.measure.Failures;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.Weight;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plain Lucene baselines: the same hits as the scheduled target, rejection of a full queue,
 * every request answered once, their specifications, Elasticsearch's rule on a real pool, and a
 * sweep that interleaves them with a policy.
 */
class LuceneTargetTest {

  private static final String[] WORDS = {
    "open", "loop", "replay", "tail", "latency", "thread", "search", "index", "segment", "query",
    "score", "slice", "budget", "queue", "policy", "degree"
  };

  @TempDir static Path dir;
  private static Directory directory;
  private static IndexReader reader;
  private static List<InProcessTarget.TraceEntry> trace;

  /** An index on disk of 3,000 documents of random words in six segments, and a trace over it. */
  @BeforeAll
  static void index() throws IOException {
    directory = FSDirectory.open(dir);
    Random random = new Random(7);
    IndexWriterConfig config =
        new IndexWriterConfig(new StandardAnalyzer()).setMergePolicy(NoMergePolicy.INSTANCE);
    try (IndexWriter w = new IndexWriter(directory, config)) {
      for (int i = 0; i < 3_000; i++) {
        StringBuilder body = new StringBuilder();
        for (int k = 3 + random.nextInt(30); k > 0; k--) {
          // Skewed, so that terms differ in frequency and documents in score.
          body.append(WORDS[(int) (WORDS.length * Math.pow(random.nextDouble(), 2))]).append(' ');
        }
        Document doc = new Document();
        doc.add(new TextField("body", body.toString(), Field.Store.NO));
        w.addDocument(doc);
        if (i % 500 == 499) {
          w.commit(); // a segment per 500 documents
        }
      }
    }
    reader = DirectoryReader.open(directory);
    assertTrue(reader.leaves().size() >= 5, "several segments: " + reader.leaves().size());
    List<Query> queries = new ArrayList<>();
    for (String w : WORDS) {
      queries.add(term(w));
    }
    queries.add(or("tail", "latency"));
    queries.add(or("degree", "policy", "budget"));
    queries.add(
        new BooleanQuery.Builder()
            .add(term("open"), BooleanClause.Occur.MUST)
            .add(term("degree"), BooleanClause.Occur.SHOULD)
            .add(term("slice"), BooleanClause.Occur.SHOULD)
            .build());
    queries.add(term("absent"));
    trace =
        queries.stream()
            .map(q -> new InProcessTarget.TraceEntry("c", q, RequestView.UNKNOWN))
            .toList();
  }

  @AfterAll
  static void close() throws IOException {
    reader.close();
    directory.close();
  }

  private static Query term(String word) {
    return new TermQuery(new Term("body", word));
  }

  private static Query or(String... words) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    for (String w : words) {
      b.add(term(w), BooleanClause.Occur.SHOULD);
    }
    return b.build();
  }

  /** Each query's top 10 as the target answers it, doc ids and scores, in order. */
  private static List<String> answers(Target target, Function<Object, TopDocs> hits)
      throws Exception {
    List<String> out = new ArrayList<>();
    for (int q = 0; q < trace.size(); q++) {
      Object answer = target.send(q).get(1, TimeUnit.MINUTES);
      StringBuilder s = new StringBuilder();
      for (ScoreDoc d : hits.apply(answer).scoreDocs) {
        s.append(d.doc).append(':').append(Float.floatToIntBits(d.score)).append(' ');
      }
      out.add(s.toString());
    }
    return out;
  }

  private static InProcessTarget scheduled(String policy, int threshold) {
    return new InProcessTarget(reader, trace, policy, 2, 100, 8, 0, null, UnaryOperator.identity())
        .totalHitsThreshold(threshold);
  }

  @Test
  void theBaselinesAndTheScheduledTargetReturnTheSameTopTen() throws Exception {
    // Lucene's default threshold lets disjunctions skip; an exact count scores every match.
    for (int threshold : new int[] {TotalHits.LUCENE_DEFAULT, 10, TotalHits.EXACT}) {
      List<String> expected = new ArrayList<>();
      IndexSearcher plain = new IndexSearcher(reader);
      for (InProcessTarget.TraceEntry e : trace) {
        StringBuilder s = new StringBuilder();
        for (ScoreDoc d : plain.search(e.query(), TotalHits.topTen(threshold)).scoreDocs) {
          s.append(d.doc).append(':').append(Float.floatToIntBits(d.score)).append(' ');
        }
        expected.add(s.toString());
      }
      assertTrue(expected.stream().filter(s -> !s.isEmpty()).count() > trace.size() - 2);
      for (String spec :
          List.of(
              "lucene",
              "lucene-executor:1",
              "lucene-executor:2",
              "elasticsearch:1",
              "elasticsearch:2")) {
        try (LuceneTarget t = new LuceneTarget(reader, trace, spec, 2, 100, threshold)) {
          assertEquals(expected, answers(t, LuceneTarget::topDocs), spec + " at " + threshold);
        }
      }
      for (String policy : List.of("seq", "fixed:2")) {
        try (InProcessTarget t = scheduled(policy, threshold)) {
          assertEquals(expected, answers(t, InProcessTarget::topDocs), policy + " at " + threshold);
        }
      }
    }
  }

  @Test
  void anAnswerCarriesTheServersTimingAndThePolicyIsTheSpecAsGiven() throws Exception {
    try (LuceneTarget t = new LuceneTarget(reader, trace, "lucene-executor:2", 1, 4, 1000)) {
      assertEquals("lucene-executor:2", t.policy());
      assertNull(t.measureFrom(System.nanoTime()), "no scheduler to account for");
      Object answer = t.send(0).get(1, TimeUnit.MINUTES);
      ServerTiming timing = t.timing(answer);
      assertNotNull(timing);
      assertTrue(timing.queuedNanos() >= 0 && timing.runNanos() > 0, timing.toString());
      assertEquals(0, timing.dispatchNanos());
      assertNull(t.timing("not an answer of this target"));
    }
  }

  /** A query whose search waits on a latch, or throws, when its weight is created. */
  private static final class ScriptedQuery extends Query {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release;
    final boolean fail;

    ScriptedQuery(CountDownLatch release, boolean fail) {
      this.release = release;
      this.fail = fail;
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost)
        throws IOException {
      entered.countDown();
      if (fail) {
        throw new UncheckedIOException(new IOException("scripted failure"));
      }
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      return new MatchAllDocsQuery().createWeight(searcher, scoreMode, boost);
    }

    @Override
    public String toString(String field) {
      return "scripted";
    }

    @Override
    public void visit(QueryVisitor visitor) {}

    @Override
    public boolean equals(Object other) {
      return this == other;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(this);
    }
  }

  private static Failures.Kind failureOf(CompletableFuture<?> f) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(1, TimeUnit.MINUTES));
    return RequestFailedException.kindOf(e);
  }

  @Test
  void aFullQueueRejectsAtOnceAndAThrowingSearchFailsAsAnError() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    ScriptedQuery blocking = new ScriptedQuery(release, false);
    List<InProcessTarget.TraceEntry> entries =
        List.of(
            new InProcessTarget.TraceEntry(null, blocking, RequestView.UNKNOWN),
            new InProcessTarget.TraceEntry(
                null, new ScriptedQuery(release, true), RequestView.UNKNOWN));
    try (LuceneTarget t = new LuceneTarget(reader, entries, "lucene", 1, 2, 1000)) {
      CompletableFuture<?> running = t.send(0);
      assertTrue(blocking.entered.await(1, TimeUnit.MINUTES), "the first search runs");
      CompletableFuture<?> queued1 = t.send(0);
      CompletableFuture<?> queued2 = t.send(1);
      CompletableFuture<?> refused = t.send(0); // the one request thread busy, the queue full
      assertTrue(refused.isDone(), "a full queue answers at once, without blocking");
      ExecutionException e =
          assertThrows(ExecutionException.class, () -> refused.get(1, TimeUnit.MINUTES));
      RequestFailedException f = assertInstanceOf(RequestFailedException.class, e.getCause());
      assertEquals(Failures.Kind.REJECTED, f.kind());
      assertTrue(f.getMessage().contains("queue full"), f.getMessage());
      assertFalse(running.isDone() || queued1.isDone() || queued2.isDone());
      release.countDown();
      assertNotNull(running.get(1, TimeUnit.MINUTES));
      assertNotNull(queued1.get(1, TimeUnit.MINUTES));
      assertEquals(Failures.Kind.ERROR, failureOf(queued2));
      assertNotNull(t.send(0).get(1, TimeUnit.MINUTES), "a failed search leaves the server up");
    }
  }

  @Test
  void closingFailsTheQueuedRequestsWaitsForTheRunningOneAndRefusesLaterOnes() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    ScriptedQuery blocking = new ScriptedQuery(release, false);
    List<InProcessTarget.TraceEntry> entries =
        List.of(new InProcessTarget.TraceEntry(null, blocking, RequestView.UNKNOWN));
    LuceneTarget t = new LuceneTarget(reader, entries, "lucene-executor:1", 1, 4, 1000);
    CompletableFuture<?> running = t.send(0);
    assertTrue(blocking.entered.await(1, TimeUnit.MINUTES));
    List<CompletableFuture<?>> queued = List.of(t.send(0), t.send(0), t.send(0));
    Thread closing = new Thread(t::close);
    closing.start();
    for (CompletableFuture<?> q : queued) {
      assertEquals(Failures.Kind.REJECTED, failureOf(q), "dropped by close, not left hanging");
    }
    assertFalse(running.isDone(), "close waits for the running search, without interrupting it");
    release.countDown();
    closing.join(TimeUnit.MINUTES.toMillis(1));
    assertFalse(closing.isAlive());
    assertNotNull(running.get(1, TimeUnit.MINUTES));
    assertEquals(Failures.Kind.REJECTED, failureOf(t.send(0)));
  }

  @Test
  void underABurstEveryRequestIsAnsweredExactlyOnce() throws Exception {
    int n = 2_000;
    for (String spec : List.of("lucene", "lucene-executor:2", "elasticsearch:2")) {
      // A queue shorter than the burst: some requests are refused, every one is answered.
      try (LuceneTarget t = new LuceneTarget(reader, trace, spec, 2, 64, TotalHits.EXACT)) {
        AtomicIntegerArray answered = new AtomicIntegerArray(n);
        AtomicIntegerArray ok = new AtomicIntegerArray(n);
        List<CompletableFuture<?>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          int request = i;
          futures.add(
              t.send(i)
                  .whenComplete(
                      (answer, error) -> {
                        answered.incrementAndGet(request);
                        if (error == null) {
                          ok.incrementAndGet(request);
                          assertNotNull(t.timing(answer));
                        } else {
                          assertEquals(
                              Failures.Kind.REJECTED, RequestFailedException.kindOf(error));
                        }
                      }));
        }
        for (CompletableFuture<?> f : futures) {
          try {
            f.get(1, TimeUnit.MINUTES);
          } catch (ExecutionException e) {
            assertEquals(Failures.Kind.REJECTED, RequestFailedException.kindOf(e), spec);
          }
        }
        int completed = 0;
        for (int i = 0; i < n; i++) {
          assertEquals(1, answered.get(i), spec + ": request " + i + " answered once");
          completed += ok.get(i);
        }
        assertTrue(completed >= 64, spec + ": at least a queue's worth ran");
      }
    }
  }

  @Test
  void theSpecificationsAreRecognisedAndBadOnesRefusedNamingThem() {
    assertTrue(LuceneTarget.isSpec("lucene"));
    assertTrue(LuceneTarget.isSpec(" Lucene-Executor:4 "));
    assertTrue(LuceneTarget.isSpec("lucene-executor:x"), "recognised, then refused");
    assertTrue(LuceneTarget.isSpec(" Elasticsearch:4 "));
    assertTrue(LuceneTarget.isSpec("elasticsearch:x"), "recognised, then refused");
    assertFalse(LuceneTarget.isSpec("seq"));
    assertFalse(LuceneTarget.isSpec("fixed:2"));
    assertFalse(LuceneTarget.isSpec("lucene-x"));
    assertFalse(LuceneTarget.isSpec("elastic:2"));
    assertEquals(0, LuceneTarget.executorThreads("lucene"));
    assertEquals(1, LuceneTarget.executorThreads("lucene-executor:1"));
    assertEquals(4, LuceneTarget.executorThreads("lucene-executor:4"));
    assertEquals(3, LuceneTarget.executorThreads("lucene-executor: 3"));
    assertEquals(1, LuceneTarget.executorThreads("elasticsearch:1"));
    assertEquals(4, LuceneTarget.executorThreads("elasticsearch:4"));
    assertEquals(3, LuceneTarget.executorThreads("Elasticsearch: 3"));
    for (String bad :
        List.of(
            "lucene-executor:0",
            "lucene-executor:x",
            "lucene-executor:-1",
            "lucene-executor",
            "lucene:2",
            "lucene@help-first",
            "elasticsearch:0",
            "elasticsearch:-1",
            "elasticsearch:x",
            "elasticsearch:1,2",
            "elasticsearch:2.5",
            "elasticsearch",
            "elasticsearch:2@help-first",
            "seq")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> LuceneTarget.executorThreads(bad), bad);
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
      assertTrue(e.getMessage().contains("lucene-executor:N"), e.getMessage());
      assertTrue(e.getMessage().contains("elasticsearch:N"), e.getMessage());
    }
    for (String bad : List.of("lucene-executor:0", "elasticsearch:0", "elasticsearch:1,2")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> new LuceneTarget(reader, trace, bad, 2, 10, 1000));
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }
  }

  /** The top 10 of a plain searcher, doc ids and scores, as {@link #answers} writes them. */
  private static String plainTopTen(Query query) throws IOException {
    StringBuilder s = new StringBuilder();
    for (ScoreDoc d :
        new IndexSearcher(reader).search(query, TotalHits.topTen(TotalHits.EXACT)).scoreDocs) {
      s.append(d.doc).append(':').append(Float.floatToIntBits(d.score)).append(' ');
    }
    return s.toString();
  }

  private static String topTen(Object answer) {
    StringBuilder s = new StringBuilder();
    for (ScoreDoc d : LuceneTarget.topDocs(answer).scoreDocs) {
      s.append(d.doc).append(':').append(Float.floatToIntBits(d.score)).append(' ');
    }
    return s.toString();
  }

  @Test
  void elasticsearchFansOutOnAShortQueueAndRunsOneSliceBehindALongerOne() throws Exception {
    CountDownLatch release1 = new CountDownLatch(1);
    CountDownLatch release2 = new CountDownLatch(1);
    ScriptedQuery blocking1 = new ScriptedQuery(release1, false);
    ScriptedQuery blocking2 = new ScriptedQuery(release2, false);
    List<InProcessTarget.TraceEntry> entries = new ArrayList<>();
    entries.add(new InProcessTarget.TraceEntry(null, blocking1, RequestView.UNKNOWN));
    entries.add(new InProcessTarget.TraceEntry(null, blocking2, RequestView.UNKNOWN));
    entries.addAll(trace);
    int lucenes = new IndexSearcher(reader, Runnable::run).getSlices().length;
    assertTrue(lucenes >= 2, "Lucene's default cuts the index into several slices: " + lucenes);
    // One request thread asked for, but the pool is the specification's two.
    try (LuceneTarget t = new LuceneTarget(reader, entries, "elasticsearch:2", 1, 100, 1000)) {
      assertEquals(2, t.slicesNow(), "an idle pool: N slices");
      Object idle = t.send(2).get(1, TimeUnit.MINUTES);
      assertEquals(2, LuceneTarget.slices(idle));
      // Both pool threads held, each by a search that started on an empty queue.
      CompletableFuture<?> held1 = t.send(0);
      assertTrue(blocking1.entered.await(1, TimeUnit.MINUTES));
      CompletableFuture<?> held2 = t.send(1);
      assertTrue(blocking2.entered.await(1, TimeUnit.MINUTES), "the second pool thread runs it");
      assertEquals(2, t.slicesNow(), "nothing queued");
      List<CompletableFuture<?>> queued = new ArrayList<>();
      for (int q = 2; q < 4; q++) {
        queued.add(t.send(q));
      }
      assertEquals(2, t.slicesNow(), "N queued: still N slices");
      queued.add(t.send(4));
      assertEquals(1, t.slicesNow(), "N + 1 queued: one slice");
      queued.add(t.send(5));
      assertEquals(1, t.slicesNow());
      // One thread freed: it finishes its search (whose second slice's task joins the queue, to
      // find nothing left to run), then starts the first queued one with at least three behind it.
      release1.countDown();
      assertEquals(2, LuceneTarget.slices(held1.get(1, TimeUnit.MINUTES)));
      Object first = queued.get(0).get(1, TimeUnit.MINUTES);
      assertEquals(1, LuceneTarget.slices(first), "decided as it started, behind a long queue");
      assertEquals(plainTopTen(entries.get(2).query()), topTen(first));
      // The rest run on the one free thread, fanned out or not, while the other stays held: a
      // search's slice tasks stuck behind the queue cannot hold it up.
      for (int q = 1; q < queued.size(); q++) {
        Object answer = queued.get(q).get(1, TimeUnit.MINUTES);
        assertEquals(plainTopTen(entries.get(2 + q).query()), topTen(answer));
        assertTrue(LuceneTarget.slices(answer) == 1 || LuceneTarget.slices(answer) == 2);
      }
      assertFalse(held2.isDone());
      release2.countDown();
      assertEquals(2, LuceneTarget.slices(held2.get(1, TimeUnit.MINUTES)));
    }
  }

  @Test
  void elasticsearchAnswersEveryRequestOnceUnderConcurrentSendersWithoutDeadlock()
      throws Exception {
    int senders = 4;
    int each = 50;
    try (LuceneTarget t =
        new LuceneTarget(reader, trace, "elasticsearch:2", 2, senders * each, TotalHits.EXACT)) {
      AtomicIntegerArray answered = new AtomicIntegerArray(senders * each);
      List<CompletableFuture<?>> futures = Collections.synchronizedList(new ArrayList<>());
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int s = 0; s < senders; s++) {
        int sender = s;
        Thread thread =
            new Thread(
                () -> {
                  try {
                    go.await();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                  }
                  for (int i = 0; i < each; i++) {
                    int request = sender * each + i;
                    futures.add(
                        t.send(request).whenComplete((a, e) -> answered.incrementAndGet(request)));
                  }
                });
        thread.start();
        threads.add(thread);
      }
      go.countDown();
      for (Thread thread : threads) {
        thread.join(TimeUnit.MINUTES.toMillis(1));
        assertFalse(thread.isAlive(), "send never blocks");
      }
      assertEquals(senders * each, futures.size());
      for (CompletableFuture<?> f : futures) {
        // The queue holds every request: none is refused, and every one completes.
        Object answer = f.get(1, TimeUnit.MINUTES);
        int slices = LuceneTarget.slices(answer);
        assertTrue(slices == 1 || slices == 2, "slices " + slices);
        assertNotNull(t.timing(answer));
      }
      for (int i = 0; i < senders * each; i++) {
        assertEquals(1, answered.get(i), "request " + i + " answered once");
      }
    }
  }

  @Test
  void aSweepInterleavesTheBaselinesWithAPolicy() throws Exception {
    long ms = 1_000_000L;
    Sweep.Plan plan =
        new Sweep.Plan(
                List.of("lucene", "seq", "lucene-executor:1", "elasticsearch:2"),
                List.of(100.0),
                SweepPlan.timed("poisson", 3, 300 * ms, 100 * ms),
                1_000,
                TimeUnit.SECONDS.toNanos(30),
                List.of(50 * ms))
            .withRepetitions(2);
    List<PointResult> points =
        InProcessSweep.run(
            reader,
            trace,
            plan,
            new InProcessSweep.Server(2, 100, 8, 1, null, TotalHits.EXACT),
            "measured",
            "test",
            p -> {});
    assertEquals(8, points.size());
    for (String policy : plan.policies()) {
      assertEquals(
          2, points.stream().filter(p -> p.policy().equals(policy)).count(), "runs of " + policy);
    }
    for (PointResult p : points) {
      assertTrue(p.sent() > 0, p.policy());
      assertEquals(p.sent(), p.completed(), p.policy() + ": every request answered");
      assertNotNull(p.breakdown(), p.policy() + ": the server's timing is reported");
      assertNull(p.probe(), "no profiled times: no speed probe");
    }
    // Interleaved: the rounds run the policies in different orders.
    assertFalse(
        points.subList(0, 4).stream()
            .map(PointResult::policy)
            .toList()
            .equals(points.subList(4, 8).stream().map(PointResult::policy).toList()));
  }

  @Test
  void aSweepOfProfiledQueriesProbesTheMachineBeforeEveryRun() throws Exception {
    long ms = 1_000_000L;
    List<InProcessTarget.TraceEntry> profiled = new java.util.ArrayList<>();
    for (int i = 0; profiled.size() < 2 * SpeedProber.QUERIES; i++) {
      InProcessTarget.TraceEntry e = trace.get(i % trace.size());
      profiled.add(new InProcessTarget.TraceEntry(e.category(), e.query(), 10_000 + i));
    }
    Sweep.Plan plan =
        new Sweep.Plan(
                List.of("seq", "lucene"),
                List.of(100.0),
                SweepPlan.timed("poisson", 3, 200 * ms, 50 * ms),
                1_000,
                TimeUnit.SECONDS.toNanos(30),
                List.of(50 * ms))
            .withRepetitions(2);
    List<PointResult> points =
        InProcessSweep.run(
            reader,
            profiled,
            plan,
            new InProcessSweep.Server(2, 100, 8, 1, null, TotalHits.EXACT),
            "measured",
            "test",
            p -> {});
    assertEquals(4, points.size());
    for (PointResult p : points) {
      assertNotNull(p.probe(), p.policy() + " run " + p.repetition());
      assertEquals(SpeedProber.QUERIES, p.probe().queries());
      assertTrue(p.probe().shortRatio() > 0 && p.probe().longRatio() > 0, p.probe().toString());
    }
    assertNull(SpeedProber.of(reader, trace, TotalHits.EXACT), "too few profiled queries");
  }
}
