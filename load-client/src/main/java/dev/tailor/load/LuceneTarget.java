package dev.tailor.load;

import dev.tailor.core.policy.PolicySpec;
import dev.tailor.lucene.TotalHits;
import dev.tailor.measure.Failures;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;

/**
 * Plain Lucene as a baseline, without Tailor's scheduler: what a search server runs today, for a
 * real sweep to place Tailor's policies against. Three specifications:
 *
 * <ul>
 *   <li>{@value #PLAIN}: an {@link IndexSearcher} without an executor, which Lucene 10 searches as
 *       one slice of every segment on the request thread that called it;
 *   <li>{@value #EXECUTOR}{@code :N}: an {@link IndexSearcher} with {@link
 *       Executors#newFixedThreadPool} of N threads, Lucene's intra-query concurrency as its
 *       documentation sets it up: the searcher's own default slices ({@link
 *       IndexSearcher#slices(List)}) fanned out by its own {@code TaskExecutor}, which also runs
 *       slices on the calling request thread while it waits. The N threads are shared by every
 *       request, first come first served, with no admission control and no per-request degree;
 *   <li>{@value #ELASTICSEARCH}{@code :N}: Elasticsearch's rule (8.12+, {@code
 *       DefaultSearchContext.determineMaximumNumberOfSlices}; see {@link ElasticsearchSlicing}):
 *       one pool of N threads runs both the requests and their slices. A request starting on it
 *       reads the pool's work queue once: holding at most N tasks (requests and slices alike), the
 *       search gets up to N slices, fanned out on that same pool; else one slice, on its own
 *       thread. The two cases are two searchers over the same reader, one with the pool as its
 *       executor and Lucene's slices capped at N, one without an executor.
 * </ul>
 *
 * <p>The server's request threads are modelled as a search server's are: a fixed pool of request
 * threads ({@code workers} of them, the budget {@link InProcessTarget}'s scheduler gets; for {@code
 * elasticsearch:N} its N) taking searches from a queue of at most {@code queue} waiting requests
 * (the scheduler's admission limit); a request that finds that many waiting is refused at once, as
 * the scheduler refuses one. Only requests count against the limit: {@code elasticsearch:N}'s
 * slices wait in the same work queue, and fill it, without being refused or refusing a request.
 * Each search is the same top-10 search the scheduled target runs ({@link TotalHits#topTen}, with
 * the same total-hits threshold), on the same queries. So for {@code lucene-executor:N} the process
 * runs up to {@code workers + N} search threads, as such a server does: the request threads and the
 * executor's are separate pools; for {@code elasticsearch:N} it runs N, as Elasticsearch's search
 * pool does.
 *
 * <p>No policy decides anything here, so a sweep's degree cap, the units a query is cut into and
 * the predictor do not apply; nor is there a scheduler-side account ({@link #measureFrom} returns
 * null). Each answer carries the server-side timing ({@link #timing}): queued from the submission
 * to the start on a request thread, no dispatch, and run from that start to the search's end.
 */
public final class LuceneTarget implements Target {

  /** The plain searcher's specification: no executor. */
  public static final String PLAIN = "lucene";

  /** The name of the searcher with an executor of N threads: {@code lucene-executor:N}. */
  public static final String EXECUTOR = "lucene-executor";

  /**
   * The name of Elasticsearch's rule on one pool of N threads for requests and slices: {@code
   * elasticsearch:N}.
   */
  public static final String ELASTICSEARCH = "elasticsearch";

  private final String spec;
  private final List<InProcessTarget.TraceEntry> queries;
  private final int queue;
  private final int totalHitsThreshold;
  // Requests sent and not yet started: the admission limit's count. Not the work queue's size,
  // which for elasticsearch:N holds slices too.
  private final AtomicInteger waiting = new AtomicInteger();
  private final ThreadPoolExecutor requests; // for elasticsearch:N, the slices' pool too
  private final ExecutorService executor; // lucene-executor:N's own pool; null for the others
  private final IndexSearcher searcher; // for elasticsearch:N, the one with up to N slices
  private final IndexSearcher sequential; // elasticsearch:N's one slice; null for the others
  private final int poolThreads; // elasticsearch:N's N; 0 for the others

  /**
   * A target running the baseline {@code spec}: {@code lucene} and {@code lucene-executor:N} on
   * {@code workers} request threads, {@code elasticsearch:N} on its one pool of N.
   *
   * @param workers the request threads of {@code lucene} and {@code lucene-executor:N}; checked but
   *     not used by {@code elasticsearch:N}, whose specification sizes its pool
   * @param queue the most requests that may wait for a request thread; beyond it requests fail at
   *     once
   * @param totalHitsThreshold each search counts its hits exactly up to this many ({@link
   *     TotalHits#EXACT} for all), as the scheduled target's do
   * @throws IllegalArgumentException if the specification is not a baseline's ({@link
   *     #executorThreads}), or the workers or the queue are fewer than 1
   */
  LuceneTarget(
      IndexReader reader,
      List<InProcessTarget.TraceEntry> queries,
      String spec,
      int workers,
      int queue,
      int totalHitsThreshold) {
    int threads = executorThreads(spec);
    boolean elasticsearch = PolicySpec.kindOf(spec).equals(ELASTICSEARCH);
    if (workers < 1 || queue < 1) {
      throw new IllegalArgumentException(
          "need workers >= 1 and queue >= 1, got " + workers + " and " + queue);
    }
    if (totalHitsThreshold < 1) {
      throw new IllegalArgumentException("the total-hits threshold must be >= 1");
    }
    this.spec = spec;
    this.queries = List.copyOf(queries);
    this.queue = queue;
    this.totalHitsThreshold = totalHitsThreshold;
    int requestThreads = elasticsearch ? threads : workers;
    // Unbounded: send counts the waiting requests against the limit itself, so that the slices
    // elasticsearch:N queues on the same pool neither refuse a request nor are refused. A closed
    // pool still throws from execute (AbortPolicy), which send turns into a rejection.
    this.requests =
        new ThreadPoolExecutor(
            requestThreads,
            requestThreads,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            threads(elasticsearch ? "elasticsearch-search" : "lucene-request"),
            new ThreadPoolExecutor.AbortPolicy());
    if (elasticsearch) {
      this.executor = null;
      this.poolThreads = threads;
      this.searcher = new ElasticsearchSlicing.Searcher(reader, requests, threads);
      // No executor: Lucene 10 searches it as one slice of every segment, on the calling thread.
      this.sequential = new IndexSearcher(reader);
    } else {
      // What users run: Executors.newFixedThreadPool(N), its threads named so a thread dump tells
      // them from the request threads.
      this.executor =
          threads == 0 ? null : Executors.newFixedThreadPool(threads, threads("lucene-executor"));
      this.poolThreads = 0;
      this.searcher =
          executor == null ? new IndexSearcher(reader) : new IndexSearcher(reader, executor);
      this.sequential = null;
    }
    // Started now, not by the first requests of the point, which would pay for them.
    requests.prestartAllCoreThreads();
  }

  /**
   * Whether {@code spec} names one of the baselines, {@value #PLAIN}, {@value #EXECUTOR} or {@value
   * #ELASTICSEARCH} (with or without arguments, case aside): such a specification runs on this
   * target, not on Tailor's scheduler, and {@link #executorThreads} checks its arguments.
   */
  public static boolean isSpec(String spec) {
    String name = PolicySpec.kindOf(spec);
    return name.equals(PLAIN) || name.equals(EXECUTOR) || name.equals(ELASTICSEARCH);
  }

  /**
   * The threads a baseline's specification asks for its slices: 0 for {@value #PLAIN}, N for
   * {@value #EXECUTOR}{@code :N} (its executor's) and for {@value #ELASTICSEARCH}{@code :N} (its
   * one pool's, which runs the requests too).
   *
   * @throws IllegalArgumentException naming the specification and what was expected if it is not
   *     {@code lucene}, {@code lucene-executor:N} or {@code elasticsearch:N} with N a whole number
   *     >= 1
   */
  public static int executorThreads(String spec) {
    PolicySpec parsed = null;
    try {
      parsed = PolicySpec.parse(spec);
    } catch (IllegalArgumentException e) {
      // refused below, with the expected forms
    }
    List<String> args = parsed == null ? null : parsed.arguments();
    if (parsed != null && parsed.preference().isEmpty()) {
      if (parsed.kind().equals(PLAIN) && args.isEmpty()) {
        return 0;
      }
      if ((parsed.kind().equals(EXECUTOR) || parsed.kind().equals(ELASTICSEARCH))
          && args.size() == 1) {
        try {
          int n = Integer.parseInt(args.get(0));
          if (n >= 1) {
            return n;
          }
        } catch (NumberFormatException e) {
          // falls through to the message
        }
      }
    }
    throw new IllegalArgumentException(
        "bad baseline '"
            + spec
            + "': expected "
            + PLAIN
            + " (a plain IndexSearcher), "
            + EXECUTOR
            + ":N (an IndexSearcher with a fixed pool of N >= 1 threads) or "
            + ELASTICSEARCH
            + ":N (Elasticsearch's slicing rule on one pool of N >= 1 threads)");
  }

  /** Daemon threads named {@code prefix-1}, {@code prefix-2}, ...: a leak cannot hold the JVM. */
  private static ThreadFactory threads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Queues a search for a request thread; never blocks. A full queue ({@code queue} requests
   * waiting) or a closed target fails the future at once with a {@link RequestFailedException} of
   * kind {@link Failures.Kind#REJECTED}; a search that throws fails it with what it threw, which
   * counts as {@link Failures.Kind#ERROR}.
   */
  @Override
  public CompletableFuture<?> send(int query) {
    Request request = new Request(queries.get(query % queries.size()).query(), System.nanoTime());
    if (waiting.incrementAndGet() > queue) {
      waiting.decrementAndGet();
      return refused(null);
    }
    try {
      requests.execute(request);
    } catch (RejectedExecutionException e) {
      waiting.decrementAndGet();
      return refused(e);
    }
    return request.future;
  }

  /** A request refused at once: the target is closed, or the queue full. */
  private CompletableFuture<?> refused(RejectedExecutionException cause) {
    return CompletableFuture.failedFuture(
        new RequestFailedException(
            Failures.Kind.REJECTED,
            requests.isShutdown()
                ? "the target is closed"
                : "request queue full: limit " + queue + " queued requests",
            cause));
  }

  /**
   * The searcher for a search starting now: for {@code elasticsearch:N}, by Elasticsearch's rule on
   * the pool's work queue as it stands ({@link ElasticsearchSlicing#slicesFor}); the one searcher
   * for the others.
   */
  private IndexSearcher searcherNow() {
    if (sequential == null) {
      return searcher;
    }
    return ElasticsearchSlicing.slicesFor(requests.getQueue().size(), poolThreads) == 1
        ? sequential
        : searcher;
  }

  /**
   * The slices a search starting now would be cut into: for {@code elasticsearch:N}, up to N while
   * the pool's queue holds at most N tasks and 1 beyond; the searcher's own for the others. For
   * tests.
   */
  int slicesNow() {
    return searcherNow().getSlices().length;
  }

  /** A search waiting for, or running on, a request thread. */
  private final class Request implements Runnable {
    final Query query;
    final long submittedNanos;
    final CompletableFuture<Answer> future = new CompletableFuture<>();

    Request(Query query, long submittedNanos) {
      this.query = query;
      this.submittedNanos = submittedNanos;
    }

    @Override
    public void run() {
      long started = System.nanoTime();
      waiting.decrementAndGet();
      try {
        // Decided once, as the search starts (this request already off the queue), for all of it.
        IndexSearcher chosen = searcherNow();
        TopDocs top = chosen.search(query, TotalHits.topTen(totalHitsThreshold));
        long finished = System.nanoTime();
        future.complete(
            new Answer(
                top,
                new ServerTiming(started - submittedNanos, 0, finished - started),
                chosen.getSlices().length));
      } catch (Throwable t) {
        // Whatever the search threw, the request gets its answer: an open-loop replay waits for
        // every one. An Error still goes on to the pool, which replaces the thread.
        future.completeExceptionally(t);
        if (t instanceof Error e) {
          throw e;
        }
      }
    }
  }

  /** A search's answer: its hits, the server's timing of it and the slices it was cut into. */
  private record Answer(TopDocs topDocs, ServerTiming timing, int slices) {}

  /** The top 10 of the search answered with {@code answer}, for tests. */
  static TopDocs topDocs(Object answer) {
    return ((Answer) answer).topDocs();
  }

  /** The slices the search answered with {@code answer} was cut into, for tests. */
  static int slices(Object answer) {
    return ((Answer) answer).slices();
  }

  /** The server's timing of the search answered with {@code answer}. */
  @Override
  public ServerTiming timing(Object answer) {
    return answer instanceof Answer a ? a.timing() : null;
  }

  /** The specification as given, e.g. {@code lucene-executor:2}. */
  @Override
  public String policy() {
    return spec;
  }

  /**
   * Stops taking requests, fails those still queued as {@link Failures.Kind#REJECTED} (by then the
   * replay has counted them unanswered), and waits for the running searches to end, then for the
   * executor's threads; no thread is interrupted, since an interrupt during a read can close the
   * index's file channels for every later search.
   */
  @Override
  public void close() {
    requests.shutdown();
    // Only the requests: elasticsearch:N's queued slice tasks stay for the shut-down pool to run,
    // which it still does (a search still running would run them on its own thread anyway), and a
    // slice it refuses from now on runs on the search's thread.
    List<Request> queued = new ArrayList<>();
    for (Runnable r : requests.getQueue().toArray(new Runnable[0])) {
      if (r instanceof Request q && requests.remove(q)) {
        queued.add(q);
      }
    }
    for (Request r : queued) {
      waiting.decrementAndGet();
      r.future.completeExceptionally(
          new RequestFailedException(
              Failures.Kind.REJECTED, "the target closed before the search started", null));
    }
    // The request threads first: a running search still hands slices to the executor.
    awaitTermination(requests);
    if (executor != null) {
      executor.shutdown();
      awaitTermination(executor);
    }
  }

  /** Waits for a shut-down pool's threads to end; an interrupt is kept for the caller. */
  private static void awaitTermination(ExecutorService pool) {
    boolean interrupted = false;
    while (true) {
      try {
        if (pool.awaitTermination(1, TimeUnit.MINUTES)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
