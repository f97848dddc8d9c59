package dev.tailor.core;

import dev.tailor.core.metrics.RequestLedger;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.model.WindowProgress;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.RequestView;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;

/**
 * One request in a {@link Scheduler}: its body, its held work units, its degree and its accounting.
 * It is both the view policies read and the context its own code forks units into.
 *
 * <p>Three kinds of state, three kinds of guard. Admission state ({@link #threads}, {@link
 * #bodyDone}, {@link #phase}) changes only under the scheduler's dispatch lock and is volatile so
 * that hot paths may read it without the lock, and only this class writes it. Accounting (a {@link
 * RequestLedger}: work, degree history; {@link WindowProgress}) is guarded by this object's
 * monitor. Forked units are {@link Units}, lock-free.
 */
final class Request<T> implements RequestView, RequestContext {

  private static final ThreadLocal<Request<?>> CURRENT = new ThreadLocal<>();

  /**
   * Where a request is in its life. It moves forward only: from {@code QUEUED} to {@code RUNNING}
   * when admitted ({@link #markRunning}), and to {@code DONE} from either ({@link #markDone}), and
   * only this class writes it.
   */
  enum Phase {
    /** Waiting for admission. */
    QUEUED,
    /** Admitted: its body runs or has run, and threads may still work on its units. */
    RUNNING,
    /** Out of the dispatch: finished, cancelled while queued, or dropped at shutdown. */
    DONE
  }

  final Scheduler scheduler;
  final WorkerPool pool;
  final long id;
  final RequestAttributes attributes;
  final RequestBody<T> body;
  final RequestFuture<T> future;

  /** The application thread that runs the body ({@link Scheduler#run}), or null for a worker. */
  final Thread caller;

  final long arrivalNanos;
  final Units units = new Units(this::isCancelled);

  // Admission state: written only here, under the dispatch lock.
  private volatile Phase phase = Phase.QUEUED;
  private volatile int threads;
  private volatile boolean bodyDone;
  volatile long startNanos = UNKNOWN;

  volatile int degree;
  private volatile boolean cancelled;
  private volatile boolean isLong;

  // Outcome of the body; written by the own thread before bodyDone is published under the lock.
  T result;
  Throwable bodyFailure;

  // Accounting; guarded by this.
  private final RequestLedger ledger = new RequestLedger();
  private final WindowProgress windows = new WindowProgress();
  private long firstRunNanos = UNKNOWN; // when beginOwn first ran
  private volatile Thread ownThread; // written under this, read without it by mayContinue
  private final java.util.function.BooleanSupplier helperStays = this::helperStays; // made once

  Request(
      Scheduler scheduler,
      WorkerPool pool,
      long id,
      RequestAttributes attributes,
      RequestBody<T> body,
      Thread caller,
      long arrivalNanos) {
    this.scheduler = scheduler;
    this.pool = pool;
    this.id = id;
    this.attributes = attributes;
    this.body = body;
    this.caller = caller;
    this.arrivalNanos = arrivalNanos;
    this.future = new RequestFuture<>(this);
  }

  static Request<?> current() {
    return CURRENT.get();
  }

  // ---- running the body and units -------------------------------------------------------------

  /**
   * Runs the body on the calling thread, which already holds one of the budget's slots. A request
   * cancelled before its body starts does not run it.
   *
   * @param poolThread whether the thread is a pool worker, whose interrupt flag the body may not
   *     leave behind for what the worker runs next (the dependent stages of the request's future)
   * @return when the body returned
   */
  long runBody(boolean poolThread) {
    if (cancelled) {
      return pool.nanoTime();
    }
    Request<?> outer = beginOwn();
    try {
      result = body.run(this);
    } catch (Throwable t) {
      bodyFailure = t;
    } finally {
      if (poolThread) {
        Thread.interrupted();
      }
    }
    return endOwn(outer);
  }

  /**
   * Makes the calling thread this request's own thread: the current request, counted as working on
   * it from now. What a body's run does before the body, and what {@link RequestScope} does when it
   * opens.
   *
   * @return the request the thread was in before, which {@link #endOwn} restores
   */
  Request<?> beginOwn() {
    Request<?> outer = CURRENT.get();
    CURRENT.set(this);
    synchronized (this) {
      ownThread = Thread.currentThread();
      long now = pool.nanoTime();
      beginWork(now);
      if (firstRunNanos == UNKNOWN) {
        firstRunNanos = now; // the breakdown's end of dispatch: no clock read of its own
      }
    }
    return outer;
  }

  /** Undoes {@link #beginOwn} on the same thread; returns when the own thread stopped working. */
  long endOwn(Request<?> outer) {
    long now = pool.nanoTime();
    synchronized (this) {
      endWork(now);
      ownThread = null;
    }
    restore(outer);
    return now;
  }

  /** Records what made a request opened by {@link RequestScope} fail; the first cause counts. */
  void failOwn(Throwable cause) {
    if (bodyFailure == null) {
      bodyFailure = cause;
    }
  }

  /**
   * Runs held units on the calling helper while this request keeps it ({@link #helperStays}), until
   * none is held. The helper asks before its first unit too: it was sent when the degree had room,
   * but a thread is slow to wake, and by the time it takes a unit the request may have been
   * serialized (tail-control's mark) or an arrival may wait for its slot. The helper's whole stay
   * counts as work on the request, and in the metrics as one helper with the units it ran.
   */
  void help() {
    Request<?> outer = CURRENT.get();
    CURRENT.set(this);
    beginWork(pool.nanoTime());
    int ran = 0;
    try {
      while (!cancelled && helperStays() && units.runOneOnHelper(helperStays)) {
        ran++;
        pool.ticker.reevaluate(this, false);
      }
    } finally {
      endWork(pool.nanoTime());
      pool.metrics.recordHelper(ran);
      restore(outer);
    }
  }

  private static void restore(Request<?> outer) {
    if (outer == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(outer);
    }
  }

  // ---- RequestContext -------------------------------------------------------------------------

  @Override
  public void fork(Runnable unit) {
    if (bodyDone) {
      throw new IllegalStateException("request " + id + " has finished; it takes no more units");
    }
    if (cancelled) {
      return;
    }
    units.hold(unit); // a unit forked by a unit: a joining own thread may run it
    pool.unitForked(this);
  }

  @Override
  public void joinUnits() {
    synchronized (this) {
      if (ownThread != Thread.currentThread()) {
        throw new IllegalStateException(
            "joinUnits must be called by request " + id + "'s own thread, not from a unit");
      }
    }
    while (true) {
      units.runHeldOnOwnThread();
      if (units.helpersBusy()) {
        awaitHelpers();
      }
      if ((cancelled || units.noneHeld()) && !units.helpersBusy()) {
        break;
      }
    }
    if (cancelled) {
      throw new CancellationException("request " + id + " was cancelled");
    }
    Throwable failure = units.failure();
    if (failure != null) {
      throw new CompletionException(failure);
    }
  }

  /** Waits for the helpers ({@link Units#awaitHelpers}), not counting the wait as work. */
  private void awaitHelpers() {
    endWork(pool.nanoTime());
    try {
      units.awaitHelpers(pool.spinNanos);
    } finally {
      beginWork(pool.nanoTime());
    }
  }

  @Override
  public void dropHeldUnits() {
    units.drop();
  }

  @Override
  public boolean mayContinue() {
    if (cancelled) {
      return false;
    }
    pool.ticker.reevaluate(this, false);
    if (ownThread == Thread.currentThread()) {
      return !cancelled; // the own thread finishes what it started, whatever the degree
    }
    return helperStays();
  }

  /**
   * Whether a helper stays for another unit or claim: not once the request was cancelled or its
   * body returned, and not when the dispatch core says it leaves ({@link
   * dev.tailor.core.dispatch.Helpers#leaves}: over the degree, a budget that shrank, promptness).
   */
  private boolean helperStays() {
    return !(cancelled || bodyDone || pool.dispatch.helpers().leaves(this));
  }

  /**
   * Whether a free thread would find work here: the body has not returned, the request was not
   * cancelled, and a unit is held for a helper to take. Whether the degree has room for the thread
   * is the dispatch core's to say ({@link dev.tailor.core.dispatch.Helpers#wants}).
   */
  boolean hasWorkForHelper() {
    return !bodyDone && !cancelled && !units.noneHeld();
  }

  /** A helper the dispatch core sent joins: one more slot held. Called under the dispatch lock. */
  void helperJoined() {
    threads++;
  }

  /**
   * A thread leaves the request, its body's own thread if {@code body} (then the body has returned
   * and held units are dropped): one slot fewer. Called under the dispatch lock.
   *
   * @return whether nobody is left on the request, whose body has returned: it exits
   */
  boolean threadLeft(boolean body) {
    if (body) {
      bodyDone = true;
      units.drop();
    }
    threads--;
    return bodyDone && threads == 0;
  }

  /**
   * Flags the request cancelled and drops its held units; its threads see the flag at their next
   * boundary. Called under the dispatch lock.
   */
  void markCancelled() {
    cancelled = true;
    units.drop();
  }

  @Override
  public synchronized void windowsPlanned(int n) {
    windows.planned(n);
  }

  @Override
  public synchronized void windowsFinished(int n, long nanos) {
    windows.finished(n, nanos);
  }

  @Override
  public boolean isCancelled() {
    return cancelled;
  }

  @Override
  public Scheduler scheduler() {
    return scheduler;
  }

  @Override
  public RequestView view() {
    return this;
  }

  // ---- accounting -----------------------------------------------------------------------------

  private synchronized void beginWork(long now) {
    int working = ledger.working() + 1;
    ledger.working(working, now);
    ledger.threadsSeen(working);
    if (isLong) {
      pool.longThreads.incrementAndGet();
    }
  }

  private synchronized void endWork(long now) {
    ledger.working(ledger.working() - 1, now);
    if (isLong) {
      pool.longThreads.decrementAndGet();
    }
  }

  /** Where the request is in its life; may be read without the dispatch lock. */
  Phase phase() {
    return phase;
  }

  /**
   * Admits the request at {@code now} with {@code degree}: its own thread holds the first slot.
   * Called under the dispatch lock, on a queued request. A dispatch may run on a clock reading
   * taken before it had the lock (a thread's body end, say), so before this request arrived: then
   * it starts at its arrival, never before.
   */
  void markRunning(int degree, long now) {
    assert phase == Phase.QUEUED : phase;
    long start = now - arrivalNanos < 0 ? arrivalNanos : now;
    startNanos = start;
    synchronized (this) {
      ledger.start(degree, start);
      this.degree = degree;
    }
    threads = 1;
    phase = Phase.RUNNING;
  }

  /** Takes the request out of the dispatch for good. Called under the dispatch lock. */
  void markDone() {
    phase = Phase.DONE;
  }

  /** Changes a running request's degree and returns the old one. */
  synchronized int changeDegree(int d, long now) {
    int old = ledger.changeDegree(d, now);
    degree = d;
    return old;
  }

  /** Flags the request long once its prediction or its work reaches the threshold. */
  void checkLong(long thresholdNanos, long now) {
    if (isLong) {
      return;
    }
    long predicted = attributes.predictedSequentialNanos();
    if ((predicted != UNKNOWN && predicted >= thresholdNanos) || workNanos(now) >= thresholdNanos) {
      synchronized (this) {
        if (!isLong) {
          isLong = true;
          pool.longThreads.addAndGet(ledger.working());
        }
      }
    }
  }

  synchronized long workNanos(long now) {
    return ledger.workNanos(now);
  }

  synchronized RequestRecord record(long end, RequestRecord.Outcome outcome) {
    long start = startNanos == UNKNOWN ? end : startNanos;
    long firstRun = firstRunNanos == UNKNOWN ? start : Math.clamp(firstRunNanos, start, end);
    return ledger.record(id, attributes.label(), arrivalNanos, start, firstRun, end, outcome);
  }

  /** How the request ended; asked once, when it completes. */
  RequestRecord.Outcome outcome() {
    if (future.isCancelled() || cancelled) {
      return RequestRecord.Outcome.CANCELLED;
    }
    return bodyFailure != null || units.failure() != null
        ? RequestRecord.Outcome.FAILED
        : RequestRecord.Outcome.COMPLETED;
  }

  /** Completes the future with the body's result, its failure or the cancellation. */
  void complete() {
    Throwable failure = bodyFailure != null ? bodyFailure : units.failure();
    if (cancelled) {
      future.cancel(false);
    } else if (failure != null) {
      future.failFromRequest(failure);
    } else {
      future.completeFromRequest(result);
    }
  }

  // ---- RequestView ----------------------------------------------------------------------------

  @Override
  public long id() {
    return id;
  }

  @Override
  public long arrivalNanos() {
    return arrivalNanos;
  }

  @Override
  public long startNanos() {
    return startNanos;
  }

  @Override
  public long elapsedNanos() {
    long start = startNanos;
    return start == UNKNOWN ? 0 : pool.nanoTime() - start;
  }

  @Override
  public long workNanos() {
    return workNanos(pool.nanoTime());
  }

  @Override
  public int degree() {
    return degree;
  }

  @Override
  public int threads() {
    return threads;
  }

  @Override
  public long predictedSequentialNanos() {
    return attributes.predictedSequentialNanos();
  }

  @Override
  public synchronized long projectedSequentialNanos() {
    return windows.projectedNanos(predictedSequentialNanos(), ledger.workNanos(pool.nanoTime()));
  }

  @Override
  public SpeedupCurve predictedSpeedup() {
    return attributes.predictedSpeedup();
  }

  @Override
  public PriorityClass priorityClass() {
    return attributes.priority();
  }

  @Override
  public String label() {
    return attributes.label();
  }

  @Override
  public boolean isLong() {
    return isLong;
  }

  @Override
  public String toString() {
    return "Request[" + id + ", degree " + degree + ", threads " + threads + "]";
  }
}
