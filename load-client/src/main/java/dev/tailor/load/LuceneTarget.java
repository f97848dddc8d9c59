package dev.tailor.load;

import dev.tailor.core.policy.PolicySpec;
import dev.tailor.lucene.TotalHits;
import dev.tailor.measure.Failures;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * real sweep to place Tailor's policies against. Two specifications:
 *
 * <ul>
 *   <li>{@value #PLAIN}: an {@link IndexSearcher} without an executor, so each search runs its
 *       slices one after the other on the request thread that called it;
 *   <li>{@value #EXECUTOR}{@code :N}: an {@link IndexSearcher} with {@link
 *       Executors#newFixedThreadPool} of N threads, Lucene's intra-query concurrency as its
 *       documentation sets it up: the searcher's own default slices ({@link
 *       IndexSearcher#slices(List)}) fanned out by its own {@code TaskExecutor}, which also runs
 *       slices on the calling request thread while it waits. The N threads are shared by every
 *       request, first come first served, with no admission control and no per-request degree.
 * </ul>
 *
 * <p>Either way the server's request threads are modelled as a search server's are: a fixed pool of
 * {@code workers} request threads (the budget {@link InProcessTarget}'s scheduler gets) taking
 * searches from a bounded queue of {@code queue} waiting requests (the scheduler's admission
 * limit); a request that finds the queue full is refused at once, as the scheduler refuses one.
 * Each search is the same top-10 search the scheduled target runs ({@link TotalHits#topTen}, with
 * the same total-hits threshold), on the same queries. So for {@code lucene-executor:N} the process
 * runs up to {@code workers + N} search threads, as such a server does: the request threads and the
 * executor's are separate pools.
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

  private final String spec;
  private final List<InProcessTarget.TraceEntry> queries;
  private final int queue;
  private final int totalHitsThreshold;
  private final ThreadPoolExecutor requests;
  private final ExecutorService executor; // null for the plain searcher
  private final IndexSearcher searcher;

  /**
   * A target running the baseline {@code spec} on {@code workers} request threads.
   *
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
    // What users run: Executors.newFixedThreadPool(N), its threads named so a thread dump tells
    // them from the request threads.
    this.executor =
        threads == 0 ? null : Executors.newFixedThreadPool(threads, threads("lucene-executor"));
    this.searcher =
        executor == null ? new IndexSearcher(reader) : new IndexSearcher(reader, executor);
    // AbortPolicy: a full queue throws at once from execute, which send turns into a rejection.
    this.requests =
        new ThreadPoolExecutor(
            workers,
            workers,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(queue),
            threads("lucene-request"),
            new ThreadPoolExecutor.AbortPolicy());
    // Started now, not by the first requests of the point, which would pay for them.
    requests.prestartAllCoreThreads();
  }

  /**
   * Whether {@code spec} names one of the baselines, {@value #PLAIN} or {@value #EXECUTOR} (with or
   * without arguments, case aside): such a specification runs on this target, not on Tailor's
   * scheduler, and {@link #executorThreads} checks its arguments.
   */
  public static boolean isSpec(String spec) {
    String name = PolicySpec.kindOf(spec);
    return name.equals(PLAIN) || name.equals(EXECUTOR);
  }

  /**
   * The executor threads a baseline's specification asks for: 0 for {@value #PLAIN}, N for {@value
   * #EXECUTOR}{@code :N}.
   *
   * @throws IllegalArgumentException naming the specification and what was expected if it is not
   *     {@code lucene} or {@code lucene-executor:N} with N a whole number >= 1
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
      if (parsed.kind().equals(EXECUTOR) && args.size() == 1) {
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
            + " (a plain IndexSearcher) or "
            + EXECUTOR
            + ":N (an IndexSearcher with a fixed pool of N >= 1 threads)");
  }

  /**
   * Why a simulation cannot run the baseline {@code spec}: the simulator schedules Tailor's
   * policies and has no model of plain Lucene's threads, so the baselines are real-run only.
   */
  public static String notSimulated(String spec) {
    return "'"
        + spec.trim()
        + "' is a real-run baseline only (plain Lucene, not Tailor's scheduler): a replay or the"
        + " demo runs it, the simulator cannot; its nearest equivalents there are seq (for "
        + PLAIN
        + ") and fixed:N (for "
        + EXECUTOR
        + ":N)";
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
   * Queues a search for a request thread; never blocks. A full queue (or a closed target) fails the
   * future at once with a {@link RequestFailedException} of kind {@link Failures.Kind#REJECTED}; a
   * search that throws fails it with what it threw, which counts as {@link Failures.Kind#ERROR}.
   */
  @Override
  public CompletableFuture<?> send(int query) {
    Request request = new Request(queries.get(query % queries.size()).query(), System.nanoTime());
    try {
      requests.execute(request);
    } catch (RejectedExecutionException e) {
      return CompletableFuture.failedFuture(
          new RequestFailedException(
              Failures.Kind.REJECTED,
              requests.isShutdown()
                  ? "the target is closed"
                  : "request queue full: limit " + queue + " queued requests",
              e));
    }
    return request.future;
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
      try {
        TopDocs top = searcher.search(query, TotalHits.topTen(totalHitsThreshold));
        long finished = System.nanoTime();
        future.complete(
            new Answer(top, new ServerTiming(started - submittedNanos, 0, finished - started)));
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

  /** A search's answer: its hits and the server's timing of it. */
  private record Answer(TopDocs topDocs, ServerTiming timing) {}

  /** The top 10 of the search answered with {@code answer}, for tests. */
  static TopDocs topDocs(Object answer) {
    return ((Answer) answer).topDocs();
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
    List<Runnable> queued = new ArrayList<>();
    requests.getQueue().drainTo(queued);
    for (Runnable r : queued) {
      ((Request) r)
          .future.completeExceptionally(
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
