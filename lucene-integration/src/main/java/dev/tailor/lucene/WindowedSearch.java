package dev.tailor.lucene;

import dev.tailor.core.RequestContext;
import dev.tailor.core.model.GuidedClaims;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.RequestView;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.search.BulkScorer;
import org.apache.lucene.search.CollectionTerminatedException;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;
import org.apache.lucene.search.IndexSearcher.LeafSlice;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;

/**
 * One search of a {@link TailorSearcher}: its windows (the searcher's slices, doc-id ranges of the
 * leaves in index order) claimed from a shared cursor by the threads that work on it, each thread
 * with a collector of its own. A thread claims a run of windows at once by {@link GuidedClaims}: a
 * thread alone half of the windows left, two threads a quarter each, one window near the end; and
 * it scores each stretch of one leaf in a claim in one bulk-scorer call.
 *
 * <p>The thread that starts the search works through its claims in order with one collector, and
 * per leaf one leaf collector and one bulk scorer, as plain Lucene does on one thread; between two
 * claims it moves the cursor and lets the request re-read its degree ({@link
 * RequestContext#mayContinue()}), so that a rising degree sends a helper at once. Before it starts,
 * it hands the request one join task per other thread of the budget. A helper the scheduler
 * releases to the request runs one: it takes a collector of its own from the manager and claims
 * windows from the same cursor until none is left or, at a claim's end, the request's degree no
 * longer counts it ({@link RequestContext#mayContinue()}), when it hands back a fresh join task, so
 * that a later helper may come in. Each thread keeps its bulk scorer for its later windows of the
 * same leaf: {@link BulkScorer#score(LeafCollector, Bits, int, int)} ignores documents before its
 * {@code min}, so a thread skips the windows others took without building a scorer again. The
 * starting thread then waits for the helpers' last windows and reduces every collector through the
 * manager, in the order they were made.
 *
 * <p>The cursor only moves forward, so each collector sees its leaves in index order and each
 * leaf's documents in increasing order, and meets each leaf at most once: what Lucene's collectors
 * and managers assume of segment partitions (a leaf early-terminated by one collector, such as a
 * count taken from the index statistics, is not counted again by another: {@code
 * TotalHitCountCollectorManager} tracks the leaves its collectors saw). Collectors of one manager
 * share what the manager shares between them, such as {@code TopScoreDocCollectorManager}'s minimum
 * competitive score, so a second thread prunes with the first one's threshold.
 *
 * <p>A {@link QueryTimeout} set on the searcher is polled at every window and, as Lucene's
 * time-limiting scorer does, every few documents inside one; once it says exit, no thread takes
 * another window and the result is partial. Queries whose scorers take only a whole leaf at once
 * ({@code wholeLeaves}, see {@link SegmentSplitting}) are scored a leaf per call, the timeout
 * polled between leaves. A failure in any window stops the others and is thrown on the starting
 * thread once no helper is left; so is a cancellation of the request.
 */
final class WindowedSearch<C extends Collector, T> {

  /** Documents scored between two polls of a timeout, at first; it grows to {@link #MAX_STEP}. */
  private static final int FIRST_STEP = 100;

  private static final int MAX_STEP = 1 << 16;

  /** How long the starting thread spins for its helpers' last windows before it waits. */
  private static final long SPIN_NANOS = 50_000;

  private final Weight weight;
  private final CollectorManager<C, T> manager;
  private final C first;
  private final ScoreMode scoreMode;
  private final LeafSlice[] windows;
  private final QueryTimeout timeout;
  private final boolean wholeLeaves;
  private final UnitListener listener;
  private final RequestContext ctx;
  // Under prompt admission, the most time a helper's claim takes at the search's pace; 0 without.
  private final long helperBoundNanos;
  private final AtomicInteger cursor = new AtomicInteger();
  // The pace of the windows finished so far, over every thread: a prompt helper's claims are sized
  // by it ({@link GuidedClaims#helperSize}).
  private final AtomicLong finishedNanos = new AtomicLong();
  private final AtomicInteger finishedWindows = new AtomicInteger();

  /**
   * Set on a failure: no thread takes another window. A cancellation, a deadline and a timeout are
   * the request's own stop state, read at the end of every claim ({@link
   * RequestContext#mayContinue()}) and by the timeout's polls.
   */
  private volatile boolean failed;

  // Guarded by this: who takes part, and the first failure.
  private final List<C> collectors = new ArrayList<>();
  private volatile int helpers; // written under this; read without it while spinning
  private boolean closed;
  private Throwable failure;

  WindowedSearch(
      Weight weight,
      CollectorManager<C, T> manager,
      C first,
      LeafSlice[] windows,
      QueryTimeout timeout,
      boolean wholeLeaves,
      UnitListener listener,
      RequestContext ctx,
      long helperBoundNanos) {
    this.weight = weight;
    this.manager = manager;
    this.first = first;
    this.scoreMode = first.scoreMode();
    this.windows = windows;
    this.timeout = timeout;
    this.wholeLeaves = wholeLeaves;
    this.listener = listener;
    this.ctx = ctx;
    this.helperBoundNanos = helperBoundNanos;
    collectors.add(first);
  }

  /**
   * Runs the search on the calling thread, with up to {@code maxHelpers} helpers joining as the
   * request's degree allows, and reduces the collectors.
   *
   * @throws CancellationException if the request was cancelled meanwhile
   */
  T run(int maxHelpers) throws IOException {
    int joins = ctx == null ? 0 : Math.min(maxHelpers, windows.length - 1);
    if (ctx != null) {
      ctx.windowsPlanned(windows.length);
    }
    for (int i = 0; i < joins; i++) {
      ctx.fork(this::join);
    }
    try {
      new ThreadPart(first).work(false);
    } catch (Throwable t) {
      fail(t);
    }
    List<C> all = awaitHelpers();
    Throwable t;
    synchronized (this) {
      t = failure;
    }
    if (t != null) {
      throw rethrow(t);
    }
    if (ctx != null && ctx.isCancelled()) {
      throw new CancellationException("the search's request was cancelled");
    }
    return manager.reduce(all);
  }

  /** A helper joins: a collector of its own, then windows until none is left or it must leave. */
  private void join() {
    C collector;
    synchronized (this) {
      if (closed || stopped() || cursor.get() >= windows.length) {
        return; // a join task that came too late: nothing to do
      }
      try {
        collector = manager.newCollector();
        if (collector.scoreMode() != scoreMode) {
          throw new IllegalStateException(
              "CollectorManager does not always produce collectors with the same score mode");
        }
      } catch (Throwable t) {
        failLocked(t);
        return;
      }
      collectors.add(collector);
      helpers++;
    }
    try {
      if (new ThreadPart(collector).work(true) && !stopped() && cursor.get() < windows.length) {
        rejoinLater();
      }
    } catch (Throwable t) {
      fail(t);
    } finally {
      synchronized (this) {
        if (--helpers == 0) {
          notifyAll();
        }
      }
    }
  }

  /** After a helper left for the degree: a join task, so that a later helper may take its place. */
  private void rejoinLater() {
    try {
      ctx.fork(this::join);
    } catch (IllegalStateException e) {
      // The request's body has returned (a search nested in a unit that outlived it): the
      // starting thread takes the remaining windows.
    }
  }

  /**
   * Closes the search to new helpers, waits for those in it, and returns every collector. The wait
   * spins briefly first: a helper's last window is often about to end.
   */
  private List<C> awaitHelpers() {
    long spinUntil = System.nanoTime() + SPIN_NANOS;
    while (helpers > 0 && System.nanoTime() - spinUntil < 0) {
      Thread.onSpinWait();
    }
    boolean interrupted = false;
    synchronized (this) {
      closed = true;
      while (helpers > 0) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true; // the helpers' windows are short: finish waiting, keep the flag
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      return new ArrayList<>(collectors);
    }
  }

  private void fail(Throwable t) {
    synchronized (this) {
      failLocked(t);
    }
  }

  /** Whether no thread takes another window: a failure, or the request stopped or cancelled. */
  private boolean stopped() {
    return failed || (ctx != null && (ctx.isCancelled() || ctx.stoppedEarly()));
  }

  private void failLocked(Throwable t) {
    failed = true;
    if (failure == null) {
      failure = t;
    } else if (failure != t) {
      failure.addSuppressed(t);
    }
  }

  private static RuntimeException rethrow(Throwable t) throws IOException {
    if (t instanceof IOException e) {
      throw e;
    }
    if (t instanceof RuntimeException e) {
      throw e;
    }
    if (t instanceof Error e) {
      throw e;
    }
    throw new IOException(t); // a checked failure of a collector's own: wrapped once
  }

  /**
   * One thread's part of the search: its collector, and the leaf it is in with that leaf's leaf
   * collector and bulk scorer. Used by one thread only.
   */
  private final class ThreadPart {
    private final C collector;
    private LeafReaderContext leaf;
    private LeafCollector leafCollector;
    private BulkScorer scorer;
    private Bits liveDocs;
    private boolean leafDone;
    private boolean leafStopped; // a timeout cut this thread's claim short
    private int next; // no match in the current leaf before this document
    private int step = FIRST_STEP;
    private long startNanos; // when this thread's first claim began
    private int claimed; // windows this thread has claimed

    ThreadPart(C collector) throws IOException {
      this.collector = collector;
      collector.setWeight(weight);
    }

    /**
     * Claims and searches windows until none is left or the search stops; a helper also stops when
     * the request no longer counts it.
     *
     * @return whether a helper left while windows may remain
     */
    boolean work(boolean helper) throws IOException {
      boolean left = false;
      startNanos = System.nanoTime();
      while (!failed) {
        int run = claimSize(helper);
        int w = cursor.getAndAdd(run);
        if (w >= windows.length) {
          break;
        }
        int to = Math.min(windows.length, w + run);
        claimed += to - w;
        search(w, to);
        if (ctx != null && !ctx.mayContinue()) {
          if (ctx.isCancelled() || ctx.stoppedEarly()) {
            break; // the request's own stop state, which every thread of the search reads here
          }
          if (helper) {
            left = true;
            break;
          }
        }
      }
      finishLeaf();
      return left;
    }

    /**
     * How many windows this thread claims at once: by {@link GuidedClaims}, over the threads that
     * may work on the request (its degree, the threads on it, the helpers in the search), so a
     * thread alone takes half of the windows left and two threads a quarter each, down to one near
     * the end. A claim runs on to the end of the leaf it ends in, within {@link GuidedClaims#most}:
     * a cut between two leaves costs a claim, one inside a leaf also a restart of its scorer, and
     * each stretch of one leaf in a claim is scored in one call. A thread alone takes all that is
     * left once its pace says that is shorter than a helper's hand-off ({@link
     * GuidedClaims#takesTheRest}). One window at a time while the windows' times are being
     * recorded, and all of them with no request to share them. The request's own thread claims by
     * {@link GuidedClaims#probingSize} when its policy watches progress. A helper of a scheduler
     * that admits promptly ({@link dev.tailor.core.Tuning#withPromptAdmission}) claims no more than
     * its prompt bound ({@link dev.tailor.core.Tuning#withPromptBound}) at the search's pace so far
     * ({@link GuidedClaims#helperSize}), so that an arrival waits about that long at most for its
     * thread.
     */
    private int claimSize(boolean helper) {
      int from = cursor.get();
      int left = windows.length - from;
      if (listener != null || left <= 1) {
        return 1;
      }
      if (ctx == null) {
        return left;
      }
      RequestView view = ctx.view();
      int sharers = Math.max(helpers + 1, Math.max(view.degree(), view.threads()));
      if (sharers == 1
          && GuidedClaims.takesTheRest(System.nanoTime() - startNanos, claimed, left)) {
        return left;
      }
      PriorityClass priority = view.priorityClass();
      if (!helper && ctx.scheduler().policy().watchesProgress()) {
        // Small, growing claims so that the projection is refined early; no run to a leaf's end.
        return GuidedClaims.probingSize(left, sharers, false, priority, claimed);
      }
      int size = GuidedClaims.size(left, sharers, helper, priority);
      int most = GuidedClaims.most(left, sharers, helper, priority);
      if (helper && helperBoundNanos > 0) {
        // A prompt helper holds its thread for about a millisecond at most, and so does not run
        // on to a leaf's end: an arrival waits for its claim to end.
        size =
            GuidedClaims.helperSize(
                size, finishedNanos.get(), finishedWindows.get(), helperBoundNanos);
        most = size;
      }
      int end = from + size;
      most = from + most;
      while (end < most && continuesLeaf(end)) {
        end++;
      }
      return end - from;
    }

    /** Whether window {@code w} starts inside the leaf its predecessor ends in. */
    private boolean continuesLeaf(int w) {
      LeafReaderContextPartition[] before = windows[w - 1].partitions;
      LeafReaderContextPartition last = before[before.length - 1];
      LeafReaderContextPartition first = windows[w].partitions[0];
      return first.ctx == last.ctx && first.minDocId == last.maxDocId;
    }

    /**
     * Searches windows {@code [from, to)}, scoring each stretch of consecutive documents of one
     * leaf in one call, and reports them finished to the request, with the time they took: its
     * projection ({@link RequestView#projectedSequentialNanos()}) is refined at every claim.
     */
    private void search(int from, int to) throws IOException {
      boolean timed = listener != null || ctx != null; // no clock read when nobody is told
      long start = timed ? System.nanoTime() : 0;
      LeafReaderContext runLeaf = null;
      int runMin = 0;
      int runMax = 0;
      for (int w = from; w < to; w++) {
        for (LeafReaderContextPartition p : windows[w].partitions) {
          if (p.ctx == runLeaf && p.minDocId == runMax) {
            runMax = p.maxDocId; // the next stretch of the same leaf: one call for both
            continue;
          }
          scoreStretch(runLeaf, runMin, runMax);
          runLeaf = p.ctx;
          runMin = p.minDocId;
          runMax = p.maxDocId;
        }
      }
      scoreStretch(runLeaf, runMin, runMax);
      long nanos = timed ? System.nanoTime() - start : 0;
      if (timed && !leafStopped) {
        finishedNanos.addAndGet(nanos);
        finishedWindows.addAndGet(to - from);
      }
      if (listener != null) {
        listener.unitSearched(windows[from].partitions, nanos);
      }
      if (ctx != null && !leafStopped) {
        ctx.windowsFinished(to - from, nanos); // a timeout cut them short: they tell no pace
      }
    }

    private void scoreStretch(LeafReaderContext leafCtx, int min, int max) throws IOException {
      if (leafCtx == null) {
        return;
      }
      if (leafCtx != leaf) {
        finishLeaf();
        openLeaf(leafCtx);
      }
      if (!leafDone) {
        score(min, max);
      }
    }

    /** Starts a leaf as Lucene's {@code IndexSearcher.searchLeaf} does. */
    private void openLeaf(LeafReaderContext ctx) throws IOException {
      leaf = ctx;
      leafCollector = null;
      scorer = null;
      leafDone = true;
      next = 0;
      try {
        leafCollector = collector.getLeafCollector(ctx);
      } catch (CollectionTerminatedException e) {
        return; // the collector needs nothing from this leaf
      }
      ScorerSupplier supplier = weight.scorerSupplier(ctx);
      if (supplier == null) {
        return; // nothing matches in this leaf
      }
      supplier.setTopLevelScoringClause();
      scorer = supplier.bulkScorer();
      liveDocs = ctx.reader().getLiveDocs();
      leafDone = false;
    }

    private void score(int min, int max) throws IOException {
      int from = Math.max(min, next);
      try {
        if (timeout == null || wholeLeaves) {
          if (timeout != null && timeout.shouldExit()) {
            stopAtTimeout();
            return;
          }
          if (from < max) {
            next = scorer.score(leafCollector, liveDocs, from, max);
          }
          return;
        }
        // In steps, polling the timeout between them, as Lucene's TimeLimitingBulkScorer does.
        while (from < max) {
          if (timeout.shouldExit()) {
            stopAtTimeout();
            return;
          }
          int to = (int) Math.min((long) from + step, max);
          from = scorer.score(leafCollector, liveDocs, from, to);
          step = Math.min(MAX_STEP, step + (step >> 1));
        }
        next = from;
      } catch (CollectionTerminatedException e) {
        leafDone = true; // the collector has what it needs from this leaf
      }
    }

    /**
     * The timeout said exit (the request has stopped early): this leaf is done, and no thread takes
     * another window.
     */
    private void stopAtTimeout() {
      leafStopped = true;
      leafDone = true;
    }

    /** Ends the current leaf, as Lucene does: {@code finish} unless the collector declined it. */
    private void finishLeaf() throws IOException {
      if (leafCollector != null) {
        LeafCollector lc = leafCollector;
        leafCollector = null;
        lc.finish();
      }
      leaf = null;
    }
  }
}
