package dev.tailor.core;

import dev.tailor.core.metrics.DegreeHistory;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.RequestView;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One request in a {@link Scheduler}: its body, its held work units, its degree and its accounting.
 * It is both the view policies read and the context its own code forks units into.
 *
 * <p>Three kinds of state, three kinds of guard. Admission state ({@link #threads}, {@link
 * #bodyDone}, {@link #phase}) changes only under the scheduler's dispatch lock and is volatile so
 * that hot paths may read it without the lock. Accounting (work, degree integral) is guarded by
 * this object's monitor. Held units live in a lock-free queue.
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
  final ConcurrentLinkedQueue<Runnable> held = new ConcurrentLinkedQueue<>();

  // Admission state: written only here, under the dispatch lock.
  private volatile Phase phase = Phase.QUEUED;
  private volatile int threads;
  private volatile boolean bodyDone;
  volatile long startNanos = UNKNOWN;

  volatile int degree;
  private volatile boolean cancelled;
  private volatile boolean isLong;

  /** Units taken by helpers and not yet finished; the own thread's join waits for zero. */
  private final AtomicInteger inFlight = new AtomicInteger();

  private volatile Thread joiner;
  private final AtomicReference<Throwable> unitFailure = new AtomicReference<>();

  // Outcome of the body; written by the own thread before bodyDone is published under the lock.
  T result;
  Throwable bodyFailure;

  // Accounting; guarded by this.
  private long completedWork;
  private long runningSinceSum;
  private int running;
  private int maxThreads;
  private final DegreeHistory degrees = new DegreeHistory();
  private long ownSince;
  private long firstRunNanos = UNKNOWN; // when beginOwn first ran
  private volatile Thread ownThread; // written under this, read without it by mayContinue

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
    Thread self = Thread.currentThread();
    synchronized (this) {
      ownThread = self;
      ownSince = beginWorkLocked(pool.nanoTime());
      if (firstRunNanos == UNKNOWN) {
        firstRunNanos = ownSince; // the breakdown's end of dispatch: no clock read of its own
      }
    }
    return outer;
  }

  /**
   * The own thread stops working on the request: the inverse of {@link #beginOwn}, on the same
   * thread.
   *
   * @return when it stopped
   */
  long endOwn(Request<?> outer) {
    long now = pool.nanoTime();
    synchronized (this) {
      endWorkLocked(ownSince, now);
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
   * Runs held units on the calling helper while this request may keep it: until none are held, the
   * request is cancelled or finished, the degree no longer counts this thread, or a higher priority
   * class waits for the thread (promptness, {@link dev.tailor.core.dispatch.Dispatcher#yields}).
   * The helper's whole stay counts as work on the request.
   */
  void help() {
    Request<?> outer = CURRENT.get();
    CURRENT.set(this);
    long since;
    synchronized (this) {
      since = beginWorkLocked(pool.nanoTime());
    }
    try {
      while (!cancelled) {
        inFlight.incrementAndGet();
        Runnable unit = held.poll();
        if (unit == null) {
          unitDone();
          return;
        }
        try {
          unit.run();
        } catch (Throwable t) {
          failUnit(t);
        } finally {
          unitDone();
        }
        pool.ticker.reevaluate(this, false);
        if (!helperStays()) {
          return;
        }
      }
    } finally {
      long now = pool.nanoTime();
      synchronized (this) {
        endWorkLocked(since, now);
      }
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

  private void unitDone() {
    if (inFlight.decrementAndGet() == 0) {
      Thread j = joiner;
      if (j != null) {
        LockSupport.unpark(j);
      }
    }
  }

  private void failUnit(Throwable t) {
    unitFailure.compareAndSet(null, t);
    held.clear();
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
    held.offer(unit);
    Thread j = joiner;
    if (j != null) {
      LockSupport.unpark(j); // a unit forked by a unit: the joining own thread may run it
    }
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
      Runnable unit;
      while (!cancelled && (unit = held.poll()) != null) {
        try {
          unit.run();
        } catch (Throwable t) {
          failUnit(t);
        }
      }
      if (inFlight.get() > 0) {
        awaitHelpers();
      }
      if ((cancelled || held.isEmpty()) && inFlight.get() == 0) {
        break;
      }
    }
    if (cancelled) {
      throw new CancellationException("request " + id + " was cancelled");
    }
    Throwable failure = unitFailure.get();
    if (failure != null) {
      throw new CompletionException(failure);
    }
  }

  /**
   * Waits, not counting as work, until no unit is running on a helper or a new unit is held. Even a
   * cancelled request waits: its units may use what the body is about to close. It spins for the
   * pool's budget before it parks: a helper's last unit often ends within it, and the own thread
   * then goes on without the wake-up of a parked thread. Only a parking thread names itself the
   * joiner, so that helpers do not unpark a spinning one; it re-checks after naming itself.
   */
  private void awaitHelpers() {
    synchronized (this) {
      endWorkLocked(ownSince, pool.nanoTime());
    }
    boolean interrupted = false;
    try {
      long budget = pool.spinNanos;
      if (budget > 0) {
        long start = System.nanoTime(); // a spin is measured in real time, whatever the clock
        int step = 0;
        do {
          Worker.spinStep(++step);
        } while (inFlight.get() > 0
            && (cancelled || held.isEmpty())
            && System.nanoTime() - start < budget);
      }
      joiner = Thread.currentThread();
      while (inFlight.get() > 0 && (cancelled || held.isEmpty())) {
        LockSupport.park(this);
        interrupted |= Thread.interrupted(); // keep waiting; restore the flag afterwards
      }
    } finally {
      joiner = null;
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      synchronized (this) {
        ownSince = beginWorkLocked(pool.nanoTime());
      }
    }
  }

  @Override
  public void dropHeldUnits() {
    held.clear();
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
   * Whether a helper on this request stays for another unit, asked at each of its boundaries: not
   * if the request was cancelled or its body returned, not if it holds more threads than its
   * degree, and not if the dispatch core has helpers {@linkplain
   * dev.tailor.core.dispatch.Dispatcher#yields yield} (a budget that shrank, promptness).
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
    return !bodyDone && !cancelled && !held.isEmpty();
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
      held.clear();
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
    held.clear();
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

  private long beginWorkLocked(long now) {
    running++;
    runningSinceSum += now;
    maxThreads = Math.max(maxThreads, running);
    if (isLong) {
      pool.longThreads.incrementAndGet();
    }
    return now;
  }

  private void endWorkLocked(long since, long now) {
    running--;
    runningSinceSum -= since;
    completedWork += now - since;
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
   * Called under the dispatch lock, on a queued request.
   */
  void markRunning(int degree, long now) {
    assert phase == Phase.QUEUED : phase;
    startNanos = now;
    startWithDegree(degree, now);
    threads = 1;
    phase = Phase.RUNNING;
  }

  /** Takes the request out of the dispatch for good. Called under the dispatch lock. */
  void markDone() {
    phase = Phase.DONE;
  }

  /** Sets the degree a request is admitted with. */
  private synchronized void startWithDegree(int d, long now) {
    degrees.start(d, now);
    degree = d;
  }

  /** Changes a running request's degree and returns the old one. */
  synchronized int changeDegree(int d, long now) {
    int old = degrees.change(d, now);
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
          pool.longThreads.addAndGet(running);
        }
      }
    }
  }

  synchronized long workNanos(long now) {
    return completedWork + running * now - runningSinceSum;
  }

  synchronized RequestRecord record(long end, RequestRecord.Outcome outcome) {
    long start = startNanos == UNKNOWN ? end : startNanos;
    long firstRun = firstRunNanos == UNKNOWN ? start : Math.clamp(firstRunNanos, start, end);
    return new RequestRecord(
        id,
        attributes.label(),
        arrivalNanos,
        start,
        firstRun,
        end,
        completedWork,
        maxThreads,
        degrees.maxDegree(),
        degrees.mean(start, end),
        outcome);
  }

  /** How the request ended; asked once, when it completes. */
  RequestRecord.Outcome outcome() {
    if (future.isCancelled() || cancelled) {
      return RequestRecord.Outcome.CANCELLED;
    }
    return bodyFailure != null || unitFailure.get() != null
        ? RequestRecord.Outcome.FAILED
        : RequestRecord.Outcome.COMPLETED;
  }

  /** Completes the future with the body's result, its failure or the cancellation. */
  void complete() {
    Throwable failure = bodyFailure != null ? bodyFailure : unitFailure.get();
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
