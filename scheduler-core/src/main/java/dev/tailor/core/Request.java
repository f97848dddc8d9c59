package dev.tailor.core;

import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.RequestView;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;

/**
 * One request in a {@link Scheduler}: a state machine with one owner. It is the view policies read;
 * its own code reaches it through a separate {@link BodyContext}, so that a policy cannot cast its
 * view into something that acts.
 *
 * <p>Its life is one atomic control word, as {@code ThreadPoolExecutor}'s {@code ctl} is: the phase
 * (queued, running, out of the dispatch), whether its body has returned, whether it has terminated,
 * and how many slots of the budget its threads hold. The word moves forward only; every change of
 * phase and thread count happens under the scheduler's dispatch lock, and the word makes them
 * readable without it. Its {@link Completion} is the one exit: the only place that records the
 * request, tells the listener and the policy, and hands its result to whoever waits (its caller's
 * thread, or its future), exactly once; it claims and publishes through the word.
 *
 * <p>Its {@link StopState} is one piece too: cancellation, a deadline and an early stop (a partial
 * result) are read by every thread of the request at its boundaries ({@link #mayContinue}).
 *
 * <p>Accounting ({@link WorkAccount}: work, degree history, windows, the long flag) is guarded by
 * this object's monitor. Forked units are {@link ForkedUnits}, lock-free.
 */
final class Request<T> implements RequestView {

  private static final ThreadLocal<Request<?>> CURRENT = new ThreadLocal<>();

  /**
   * Where a request is in its life. It moves forward only: from {@code QUEUED} to {@code RUNNING}
   * when admitted, and to {@code RETIRED} (out of the dispatch) from either.
   */
  enum Phase {
    /** Waiting for admission. */
    QUEUED,
    /** Admitted: its body runs or has run, and threads may still work on its units. */
    RUNNING,
    /** Out of the dispatch: finished, cancelled while queued, or dropped at shutdown. */
    RETIRED
  }

  // The control word: phase in bits 0-1, BODY_RETURNED, TERMINATING (terminate has claimed the
  // request), TERMINATED (its outcome is reported and may be handed over), then the slots held
  // (bits 5-18), then how many of them are helpers sent but not yet started (bits 19-31).
  private static final int PHASE_BITS = 3;
  private static final int BODY_RETURNED = 4;
  private static final int TERMINATING = 8;
  private static final int TERMINATED = 16;
  private static final int THREAD_SHIFT = 5;
  private static final int ONE_THREAD = 1 << THREAD_SHIFT;
  private static final int PENDING_SHIFT = 19;
  private static final int ONE_PENDING = 1 << PENDING_SHIFT;
  private static final int THREAD_MASK = (1 << (PENDING_SHIFT - THREAD_SHIFT)) - 1;

  /** The most threads the word counts; {@link Settings} keeps pools well below it. */
  static final int MAX_THREADS = THREAD_MASK;

  private static final Phase[] PHASES = Phase.values();

  final Scheduler scheduler;
  final WorkerPool pool;
  final long id;
  final RequestAttributes attributes;
  final RequestBody<T> body;
  final BodyContext context = new BodyContext(this);

  /** The future {@link Scheduler#submit} returns; null for a request run on its caller. */
  final RequestFuture<T> future;

  /** The application thread that runs the body ({@link Scheduler#run}), or null for a worker. */
  final Thread caller;

  final long arrivalNanos;
  final ForkedUnits units = new ForkedUnits(this::isCancelled);

  /** Cancelled, stopped early, or past its deadline; read by every thread at its boundaries. */
  final StopState stop = new StopState(units);

  /** The one exit, and the body's outcome it hands over. */
  final Completion<T> exit = new Completion<>(this);

  private volatile int ctl; // QUEUED is 0; changed through CTL, a field rather than an object
  private static final VarHandle CTL;

  static {
    try {
      CTL = MethodHandles.lookup().findVarHandle(Request.class, "ctl", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Whether its own thread runs on a slot lent by a request that waits for it (never its own). */
  private boolean borrowsSlot;

  volatile long startNanos = UNKNOWN;
  volatile int degree; // changed under this, with the account's ledger

  /** Work, degrees, windows and the long flag; guarded by this object's monitor. */
  final WorkAccount account = new WorkAccount(this);

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
    this.future = caller == null ? new RequestFuture<>(this) : null;
  }

  /** The request whose body or unit the calling thread runs, or null. */
  static Request<?> current() {
    return CURRENT.get();
  }

  // ---- the control word -----------------------------------------------------------------------

  /** Where the request is in its life; may be read without the dispatch lock. */
  Phase phase() {
    return PHASES[ctl & PHASE_BITS];
  }

  /** Whether the body has returned (or will never run); may be read without the lock. */
  boolean bodyDone() {
    return (ctl & BODY_RETURNED) != 0;
  }

  /**
   * Admits the request at {@code now} with {@code degree}: its own thread holds the first slot.
   * Called under the dispatch lock, on a queued request. A dispatch may run on a clock reading
   * taken before it had the lock (a thread's body end, say), so before this request arrived: then
   * it starts at its arrival, never before.
   */
  void markRunning(int degree, long now) {
    long start = now - arrivalNanos < 0 ? arrivalNanos : now;
    startNanos = start;
    account.start(degree, start);
    int c = ctl;
    assert (c & PHASE_BITS) == Phase.QUEUED.ordinal() : phase();
    ctl = (c & ~PHASE_BITS) | Phase.RUNNING.ordinal() | ONE_THREAD;
  }

  /**
   * Its own thread will run on the slot of a request that waits for it ({@link
   * WorkerPool#runIfQueuedForWaiter}), and give back none when its body returns. Called under the
   * dispatch lock, before it is admitted.
   */
  void lendSlot() {
    borrowsSlot = true;
  }

  /** A helper the dispatch core sent joins: one more slot held. Called under the dispatch lock. */
  void helperJoined() {
    CTL.getAndAdd(this, ONE_THREAD + ONE_PENDING);
  }

  /**
   * A helper sent to this request starts on it, on its worker, without the lock. False if the
   * request exited before the helper woke ({@link #retire}): its slot was given back then, and it
   * has nothing to do here.
   */
  boolean helperStarts() {
    int c;
    do {
      c = ctl;
      if ((c & PHASE_BITS) == Phase.RETIRED.ordinal()) {
        return false;
      }
    } while (!CTL.compareAndSet(this, c, c - ONE_PENDING));
    return true;
  }

  /**
   * A thread leaves the request, its body's own thread if {@code body} (then the body has returned
   * and held units are dropped). Called under the dispatch lock.
   *
   * @return the slots the leaving thread gives back to the budget: 1, or 0 for an adopted request's
   *     own thread, whose slot stays with the request that lent it
   */
  int threadLeft(boolean body) {
    if (body) {
      units.drop();
    }
    CTL.getAndAdd(this, (body ? BODY_RETURNED : 0) - ONE_THREAD);
    return body && borrowsSlot ? 0 : 1;
  }

  /**
   * Takes the request out of the dispatch if its body has returned and nobody works on it: no
   * thread is left but helpers sent that have not started, which then find nothing to do, so the
   * request does not wait for their wake-up. Called under the dispatch lock; a CAS, as such a
   * helper starts without the lock ({@link #helperStarts}).
   *
   * @return how many helpers it left behind, whose slots go back to the budget now; -1 if it stays
   */
  int retire() {
    int c;
    do {
      c = ctl;
      int pending = c >>> PENDING_SHIFT;
      if ((c & BODY_RETURNED) == 0 || ((c >>> THREAD_SHIFT) & THREAD_MASK) != pending) {
        return -1;
      }
    } while (!CTL.compareAndSet(this, c, retired(c)));
    return c >>> PENDING_SHIFT;
  }

  private static int retired(int c) {
    return (c & (TERMINATING | TERMINATED)) | Phase.RETIRED.ordinal() | BODY_RETURNED;
  }

  /**
   * Takes a request that never ran (cancelled while queued, or dropped at shutdown) out of the
   * dispatch for good. Called under the dispatch lock.
   */
  void markDone() {
    ctl = retired(ctl);
  }

  /**
   * Claims the request's {@link Completion#terminate termination}: true for the first caller only,
   * on any thread, without the lock (a CAS on the word, which moves forward only).
   */
  boolean claimTermination() {
    int c;
    do {
      c = ctl;
      if ((c & TERMINATING) != 0) {
        return false;
      }
    } while (!CTL.compareAndSet(this, c, c | TERMINATING));
    return true;
  }

  /** Publishes that the request is reported: a caller that wakes now finds the report made. */
  void markTerminated() {
    CTL.getAndBitwiseOr(this, TERMINATED);
  }

  /** Whether the request has been reported ({@link #markTerminated}): its outcome may be read. */
  boolean isTerminated() {
    return (ctl & TERMINATED) != 0;
  }

  // ---- running the body and units -------------------------------------------------------------

  /**
   * Runs the body on the calling thread, which already holds one of the budget's slots. A request
   * stopped before its body starts does not run it.
   *
   * @param poolThread whether the thread is a pool worker, whose interrupt flag the body may not
   *     leave behind for what the worker runs next
   * @return when the body returned
   */
  long runBody(boolean poolThread) {
    if (!stop.isLive()) {
      return pool.nanoTime();
    }
    Request<?> outer = beginOwn();
    try {
      exit.bodyReturned(body.run(context));
    } catch (Throwable t) {
      exit.bodyFailed(t);
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
      account.beginOwnWork(pool.nanoTime());
    }
    return outer;
  }

  /** Undoes {@link #beginOwn} on the same thread; returns when the own thread stopped working. */
  long endOwn(Request<?> outer) {
    long now = pool.nanoTime();
    synchronized (this) {
      account.endWork(now);
      ownThread = null;
    }
    restore(outer);
    return now;
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
    account.beginWork(pool.nanoTime());
    int ran = 0;
    try {
      while (helperStays() && units.runOneOnHelper(helperStays)) {
        ran++;
        pool.reevaluator.reevaluate(this, false);
      }
    } finally {
      account.endWork(pool.nanoTime());
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

  // ---- what the body's context does -----------------------------------------------------------

  void fork(Runnable unit) {
    if (bodyDone()) {
      throw new IllegalStateException("request " + id + " has finished; it takes no more units");
    }
    if (stop.isCancelled()) {
      return;
    }
    units.hold(unit); // a unit forked by a unit: a joining own thread may run it
    pool.unitForked(this);
  }

  void joinUnits() {
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
      if ((isCancelled() || units.noneHeld()) && !units.helpersBusy()) {
        break;
      }
    }
    if (isCancelled()) {
      throw new CancellationException("request " + id + " was cancelled");
    }
    Throwable failure = units.failure();
    if (failure != null) {
      throw new CompletionException(failure);
    }
  }

  /** Waits for the helpers ({@link ForkedUnits#awaitHelpers}), not counting the wait as work. */
  private void awaitHelpers() {
    account.endWork(pool.nanoTime());
    try {
      units.awaitHelpers(pool.spinNanos);
    } finally {
      account.beginWork(pool.nanoTime());
    }
  }

  /**
   * Whether the calling thread takes its next piece of work: not once the request stopped (see
   * {@link StopState#stopped}); on a helper, not when the dispatch core says it leaves. Re-reads
   * the degree first, so that a rising degree sends a helper at once.
   */
  boolean mayContinue() {
    if (stop.stopped()) {
      return false;
    }
    pool.reevaluator.reevaluate(this, false);
    if (ownThread == Thread.currentThread()) {
      return !stop.stopped(); // the own thread finishes what it started, whatever the degree
    }
    return helperStays();
  }

  /**
   * Whether a helper stays for another unit or claim: not once the request stopped or its body
   * returned, and not when the dispatch core says it leaves ({@link
   * dev.tailor.core.dispatch.HelperRules#leaves}: over the degree, a budget that shrank,
   * promptness).
   */
  private boolean helperStays() {
    return !(stop.stopped() || bodyDone() || pool.dispatch.helpers().leaves(this));
  }

  /**
   * Whether a free thread would find work here: the body has not returned, the request was not
   * cancelled, and a unit is held for a helper to take. Whether the degree has room for the thread
   * is the dispatch core's to say ({@link dev.tailor.core.dispatch.HelperRules#wants}).
   */
  boolean hasWorkForHelper() {
    return !bodyDone() && !stop.isCancelled() && !units.noneHeld();
  }

  /** Whether the request was cancelled ({@link StopState#isCancelled}). */
  boolean isCancelled() {
    return stop.isCancelled();
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
    return account.workNanos(pool.nanoTime());
  }

  @Override
  public int degree() {
    return degree;
  }

  @Override
  public int threads() {
    return (ctl >>> THREAD_SHIFT) & THREAD_MASK;
  }

  @Override
  public long predictedSequentialNanos() {
    return attributes.predictedSequentialNanos();
  }

  @Override
  public long projectedSequentialNanos() {
    return account.projectedSequentialNanos();
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
    return account.isLong();
  }

  @Override
  public String toString() {
    return "Request[" + id + ", degree " + degree + ", threads " + threads() + "]";
  }
}
