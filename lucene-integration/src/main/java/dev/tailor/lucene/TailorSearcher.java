package dev.tailor.lucene;

import dev.tailor.core.Predictor;
import dev.tailor.core.RequestAttributes;
import dev.tailor.core.RequestContext;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.Tuning;
import dev.tailor.core.policy.RequestView;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.ThreadInterruptedException;

/**
 * An {@link IndexSearcher} whose every search is a request of a {@link Scheduler}: the drop-in.
 * Replace {@code new IndexSearcher(reader, executor)} with {@code new TailorSearcher(reader,
 * scheduler)} and each query waits for admission like any request, counts against the scheduler's
 * thread budget, and gets threads for its slices as the scheduler's policy decides, moment by
 * moment. Results are exactly those of a plain {@code IndexSearcher}.
 *
 * <p>Called on an application thread, a search runs there (as a request of the scheduler, its own
 * thread). Called inside a request of the same scheduler, for instance from a body submitted with
 * {@link Scheduler#submit}, or nested inside another search, it runs at once as part of that
 * request.
 *
 * <p>A search runs in windows, doc-id ranges of the leaves cut by a {@link Windowing}, claimed one
 * at a time from a shared cursor. The calling thread takes them in order with one collector, as
 * plain Lucene does on one thread; a helper the scheduler sends to the request joins with a
 * collector of its own, claims the next windows, and leaves at a window boundary when the request's
 * degree no longer counts it. At the end the collectors are reduced by the {@link
 * CollectorManager}. Queries whose scorers take only whole segments (block joins, drill-sideways)
 * get one window per segment. Rewrites that fork work through Lucene's {@code TaskExecutor} (vector
 * queries) fork it into the request through the {@link SchedulingExecutor}.
 *
 * <p>All of {@code search}, {@code searchAfter} and {@code count} go through the scheduler; {@link
 * #search(Query, CollectorManager, RequestAttributes, Duration)} also takes the request's
 * attributes (a label, a predicted time) and a deadline. A {@link QueryTimeout} of the user's own
 * ({@link #setTimeout}) still works, alongside the deadlines: a search stops when either says so.
 *
 * <p>A search stops early only where it checks: cancelling its request (the future of a {@link
 * Scheduler#submit} body that searches) is cooperative, seen between windows, and never interrupts
 * a thread, whose interrupt could close the index's file channels (see {@link
 * java.util.concurrent.CompletableFuture#cancel} on the scheduler's futures).
 *
 * <p>With a {@linkplain #setPredictor predictor} set, each search whose attributes carry no
 * prediction is predicted on the calling thread as it is submitted, and the prediction travels in
 * its attributes, so that a policy reads it as {@link RequestView#predictedSequentialNanos()} and
 * the request's long flag. Without one nothing is predicted: a predicting policy then sees every
 * request as short until its work says otherwise.
 */
public final class TailorSearcher extends IndexSearcher {

  private final Scheduler scheduler;
  private final Windowing slicing;
  private final UnitListener unitListener;
  private final RequestTimeout requestTimeout = new RequestTimeout();
  private volatile QueryTimeout userTimeout;
  private final int maxHelpers;
  private final long
      helperBoundNanos; // a prompt helper's longest claim; 0 without prompt admission
  private volatile Predictor<Query> predictor;
  private volatile LeafSlice[] wholeSegmentWindows;
  private volatile boolean partialResult;

  /**
   * A searcher over {@code reader} whose every search is a request of {@code scheduler}, its
   * queries cut into {@value Windowing#DEFAULT_WINDOWS_PER_THREAD} windows for each thread of the
   * scheduler's budget.
   */
  public TailorSearcher(IndexReader reader, Scheduler scheduler) {
    this(reader, scheduler, defaultSlicing(scheduler), null);
  }

  /** A searcher with the given slicing, for this package's tests. */
  TailorSearcher(IndexReader reader, Scheduler scheduler, Windowing slicing) {
    this(reader, scheduler, slicing, null);
  }

  /**
   * A searcher with the given slicing that reports every unit it searches to a listener, or to none
   * when it is null; Tailor's tools reach it through {@link TailorSearchers}.
   */
  TailorSearcher(
      IndexReader reader, Scheduler scheduler, Windowing slicing, UnitListener unitListener) {
    super(reader, new SchedulingExecutor(scheduler));
    this.scheduler = scheduler;
    this.slicing = Objects.requireNonNull(slicing, "slicing");
    this.unitListener = unitListener;
    // Every thread a request may have beside its own: the workers, and the slack lent beyond them.
    Tuning tuning = scheduler.tuning();
    int lent = tuning.promptAdmission() ? tuning.slack() : 0;
    this.maxHelpers = Math.max(0, scheduler.workers() + lent - 1);
    // Read once: every helper's claim is sized by it, and the tuning never changes.
    this.helperBoundNanos = tuning.promptAdmission() ? tuning.promptBound().toNanos() : 0;
    // Installed once, before the searcher is shared: Lucene's own scoring paths poll it, and it
    // finds each search's deadline and the user's timeout itself.
    super.setTimeout(requestTimeout);
  }

  private static Windowing defaultSlicing(Scheduler scheduler) {
    return Windowing.forThreads(SchedulerInternals.systemView(scheduler).budget());
  }

  /** The scheduler every search runs in. */
  public Scheduler scheduler() {
    return scheduler;
  }

  /** How queries are cut into units. */
  Windowing slicing() {
    return slicing;
  }

  /**
   * Sets the predictor that estimates each search's sequential time when it is submitted, or {@code
   * null} for none (the default). A search whose attributes already carry a prediction keeps it; a
   * nested search, which runs inside another's request, is not predicted. A predictor that throws
   * is treated as one that cannot say ({@link RequestView#UNKNOWN}).
   */
  public void setPredictor(Predictor<Query> predictor) {
    this.predictor = predictor;
  }

  /** The predictor set with {@link #setPredictor}, or {@code null}. */
  public Predictor<Query> getPredictor() {
    return predictor;
  }

  /**
   * Sets a timeout of the user's own, polled as {@link IndexSearcher} polls one, or {@code null}
   * for none. It does not replace the deadlines of {@link #search(Query, CollectorManager,
   * RequestAttributes, Duration)}: a search stops, its result partial, when its deadline has passed
   * or this timeout says exit, whichever comes first. Thread-safe; searches already running may
   * still poll the timeout they started with.
   */
  @Override
  public void setTimeout(QueryTimeout timeout) {
    this.userTimeout = timeout;
  }

  /** The timeout set with {@link #setTimeout}, or {@code null}; deadlines are not included. */
  @Override
  public QueryTimeout getTimeout() {
    return userTimeout;
  }

  @Override
  protected LeafSlice[] slices(List<LeafReaderContext> leaves) {
    return slicing.slice(leaves);
  }

  /**
   * Searches as a request of the scheduler. Lucene's own {@code search(Query, CollectorManager)}
   * does the rewrite, the weight and the reduction here too ({@link #windowed}), but the collection
   * is Tailor's: Lucene 10 keeps the step between the weight and the slices private ({@code
   * search(Weight, CollectorManager, C)}), and its one hook below it, {@link #search(
   * LeafReaderContextPartition[], Weight, Collector)}, takes a collector per slice, where threads
   * that claim windows as they come need one collector per thread. Everything else ({@code count},
   * {@code search(Query, Collector)}, {@code searchAfter}, the per-slice hook) is Lucene's.
   */
  @Override
  public <C extends Collector, T> T search(Query query, CollectorManager<C, T> manager)
      throws IOException {
    return inRequest(query, RequestAttributes.NONE, () -> windowed(query, manager));
  }

  @Override
  public int count(Query query) throws IOException {
    return inRequest(query, RequestAttributes.NONE, () -> super.count(query));
  }

  @Override
  public void search(Query query, Collector collector) throws IOException {
    inRequest(
        query,
        RequestAttributes.NONE,
        () -> {
          super.search(query, collector);
          return null;
        });
  }

  /**
   * Searches as a request with the given attributes and deadline. When the deadline passes, the
   * units not yet started are dropped, running ones stop at their next check, and the outcome says
   * the result is partial; so it does when the user's own {@linkplain #setTimeout timeout} stops
   * the search. A search nested in a request that has a deadline already keeps the earlier of the
   * two.
   *
   * @param timeout how long the search may take from now, admission included: zero or negative for
   *     a deadline already passed (the search stops at its first check), {@code null} for none. A
   *     timeout of more than a century never passes, however long it is ({@link Duration} reaches
   *     further than a {@code long} of nanoseconds does).
   */
  public <C extends Collector, T> SearchOutcome<T> search(
      Query query, CollectorManager<C, T> manager, RequestAttributes attributes, Duration timeout)
      throws IOException {
    long deadline = timeout == null ? NO_DEADLINE : deadlineAfter(System.nanoTime(), timeout);
    return inRequest(
        query,
        attributes,
        () -> {
          RequestContext ctx = RequestContext.current();
          long outer = ctx.stopAt(deadline);
          try {
            T result = windowed(query, manager);
            return new SearchOutcome<>(result, ctx.stoppedEarly());
          } finally {
            ctx.restoreDeadline(outer);
          }
        });
  }

  /** No deadline: {@link RequestContext#stopAt}'s value for none. */
  static final long NO_DEADLINE = Long.MAX_VALUE;

  /**
   * Timeouts from this long on never pass: {@code nanoTime} differences are exact only within
   * 2<sup>63</sup> ns (292 years), so a deadline stays comparable while half of that is left.
   */
  static final long NEVER_NANOS = Long.MAX_VALUE / 2;

  /**
   * The deadline {@code timeout} after {@code now} on {@link System#nanoTime()}, with saturating
   * arithmetic: {@link #NO_DEADLINE} for a timeout too long to pass, {@code now} for a negative
   * one. The sum may wrap around, as {@code nanoTime} may; deadlines are compared by differences,
   * which stay exact while the timeout is below 2<sup>62</sup>.
   */
  static long deadlineAfter(long now, Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      return now;
    }
    if (timeout.compareTo(Duration.ofNanos(NEVER_NANOS)) >= 0) {
      return NO_DEADLINE;
    }
    long at = now + timeout.toNanos();
    return at == NO_DEADLINE ? at - 1 : at;
  }

  /**
   * Searches as {@code IndexSearcher.search(Query, CollectorManager)} does, with the same rewrite,
   * weight and reduction, but in windows claimed by the threads of the current request ({@link
   * WindowedSearch}) instead of one collector per slice. Called inside a request. A search stopped
   * early (its request's deadline, or the user's timeout) returns what it found and marks the
   * searcher as {@link #timedOut()}.
   */
  private <C extends Collector, T> T windowed(Query query, CollectorManager<C, T> manager)
      throws IOException {
    C first = manager.newCollector();
    ScoreMode mode = first.scoreMode();
    Query rewritten = rewrite(mode.needsScores() ? query : new ConstantScoreQuery(query));
    Weight weight = createWeight(rewritten, mode, 1);
    boolean wholeSegments = SegmentSplitting.needsWholeSegments(rewritten);
    LeafSlice[] windows = wholeSegments ? wholeSegmentWindows() : getSlices();
    if (windows.length == 0) {
      return manager.reduce(List.of(first));
    }
    RequestContext ctx = RequestContext.current();
    WindowedSearch<C, T> search =
        new WindowedSearch<>(
            weight,
            manager,
            first,
            windows,
            timeoutFor(ctx),
            wholeSegments,
            unitListener,
            ctx,
            helperBoundNanos);
    T result = search.run(maxHelpers);
    if (ctx.stoppedEarly()) {
      partialResult = true;
    }
    return result;
  }

  /**
   * The timeout a search of request {@code ctx} polls: none (and so no polling) unless the request
   * has a deadline or the user set a timeout.
   */
  private QueryTimeout timeoutFor(RequestContext ctx) {
    return ctx.deadlineNanos() != NO_DEADLINE || userTimeout != null ? requestTimeout : null;
  }

  /** One window per non-empty segment, for the queries that cannot take less. */
  private LeafSlice[] wholeSegmentWindows() {
    LeafSlice[] w = wholeSegmentWindows;
    if (w == null) {
      w = Windowing.wholeSegments(leafContexts);
      wholeSegmentWindows = w;
    }
    return w;
  }

  /**
   * Whether a search on this searcher stopped at its timeout, as {@link IndexSearcher#timedOut()}
   * says of Lucene's own: shared by every search on the searcher, and once true it stays true. A
   * search's own outcome is {@link SearchOutcome#timedOut()}.
   */
  @Override
  public boolean timedOut() {
    return partialResult || super.timedOut();
  }

  @Override
  protected void search(LeafReaderContextPartition[] partitions, Weight weight, Collector collector)
      throws IOException {
    if (unitListener == null) {
      super.search(partitions, weight, collector);
      return;
    }
    long start = System.nanoTime();
    try {
      super.search(partitions, weight, collector);
    } finally {
      unitListener.unitSearched(partitions, System.nanoTime() - start);
    }
  }

  /** A search to run inside a request. */
  @FunctionalInterface
  private interface Search<T> {
    T run() throws IOException;
  }

  /**
   * Runs a search inside a request of the scheduler: the current one if the thread already runs
   * one, else a new one on this thread. Slice runnables still held when it returns are dropped.
   */
  private <T> T inRequest(Query query, RequestAttributes attributes, Search<T> search)
      throws IOException {
    RequestContext current = RequestContext.current();
    if (current != null && current.scheduler() == scheduler) {
      try {
        return search.run();
      } finally {
        current.dropHeldUnits();
      }
    }
    attributes = predicted(query, attributes);
    try {
      return SchedulerInternals.run(
          scheduler,
          ctx -> {
            try {
              return search.run();
            } finally {
              ctx.dropHeldUnits();
            }
          },
          attributes);
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ThreadInterruptedException(e);
    } catch (Exception e) {
      throw new IOException(e); // a checked failure of the search's own: wrapped once
    }
  }

  /**
   * The attributes with the predictor's estimate, if there is a predictor and no prediction yet.
   */
  private RequestAttributes predicted(Query query, RequestAttributes attributes) {
    Predictor<Query> p = predictor;
    if (p == null || attributes.predictedSequentialNanos() != RequestView.UNKNOWN) {
      return attributes;
    }
    long nanos;
    try {
      nanos = p.predictSequentialNanos(query);
    } catch (RuntimeException e) {
      return attributes; // the contract says it does not throw; a search never fails for it
    }
    if (nanos < 0) {
      return attributes; // UNKNOWN, or a broken predictor's negative answer
    }
    return new RequestAttributes(
        attributes.label(), nanos, attributes.predictedSpeedup(), attributes.priority());
  }

  /**
   * The searcher's one {@link QueryTimeout}, installed at construction: Lucene polls it between
   * scoring steps, on whichever thread searches a unit. It says exit once the request that thread
   * works for has stopped (its deadline passed), or the user's own timeout says so, which stops the
   * request early too: one stop state, the request's, that every thread of the search reads.
   */
  private final class RequestTimeout implements QueryTimeout {
    @Override
    public boolean shouldExit() {
      RequestContext ctx = RequestContext.current();
      if (ctx != null && ctx.stoppedEarly()) {
        return true;
      }
      QueryTimeout user = userTimeout;
      if (user != null && user.shouldExit()) {
        if (ctx != null) {
          ctx.stopEarly();
        }
        return true;
      }
      return false;
    }
  }
}
