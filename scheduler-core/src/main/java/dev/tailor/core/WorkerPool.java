package dev.tailor.core;

import dev.tailor.core.dispatch.DispatchHost;
import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.metrics.RunMetrics;
import dev.tailor.core.policy.Policy;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.function.LongToDoubleFunction;

/**
 * The runtime's host of the {@link Dispatcher}: real threads and one lock around the decisions. The
 * dispatch core decides who a free slot goes to; this class holds the lock it is called under,
 * carries its decisions out on requests (a start, a helper), hands pool work to an idle {@link
 * Worker} or wakes an admitted caller, and releases slots when a body returns or a helper leaves.
 *
 * <p>The lock guards the dispatch core, the idle workers and every change of a request's phase and
 * threads. Nothing of a policy runs under it but the admission, worker-preference and degree
 * questions: a request terminates ({@link Completion#terminate}: its record, the listener, the
 * policy's completion hook, its future) after the lock is released, and threads given work under
 * the lock are woken only after it is released ({@link DispatchLock#unlockAndWake}), so that a
 * woken thread does not run straight into the lock its waker still holds.
 *
 * <p>Whether the pool accepts work, how many accepted requests have not terminated, and the
 * shutdowns are its {@link PoolLifecycle}. A running request's degree is re-read, without the lock,
 * by the {@link Reevaluator}.
 *
 * <p>Cancellation is cooperative: nothing here interrupts a thread (see {@link
 * RequestFuture#cancel}).
 */
final class WorkerPool implements DispatchHost<Request<?>> {

  private final Scheduler scheduler;
  private final int queueCapacity;
  final RunMetrics metrics;
  final Notifications notifications;
  final FailureLog failures;

  /** The scheduler's clock: {@link System#nanoTime()} unless a test controls it. */
  private final LongSupplier clock;

  final AtomicInteger longThreads = new AtomicInteger();

  /** Workers between a request's exit and taking their next work ({@link #release}). */
  private final AtomicInteger handingOver = new AtomicInteger();

  // Guarded by lock: the dispatch core, the idle workers (and, in DispatchLock, the threads to
  // wake after unlocking).
  final DispatchLock lock = new DispatchLock();
  final Dispatcher<Request<?>> dispatch;
  private final ArrayDeque<Worker> idle = new ArrayDeque<>();

  final Worker[] workers;
  private final long longThresholdNanos;

  /** How long an idle worker, or an own thread waiting for its helpers, spins before parking. */
  final long spinNanos;

  final Reevaluator reevaluator;

  /** Whether the pool accepts work, the shutdowns, and the threads' exits. */
  final PoolLifecycle lifecycle;

  /** The cores the elastic budget returns; none while the budget is the whole pool. */
  final BackgroundCores backgroundCores;

  /** Whether the budget is elastic: the reevaluator then resizes it every period. */
  final boolean elasticBudget;

  /** The elastic budget's period; {@link Long#MAX_VALUE} if it is not elastic. */
  final long budgetPeriodNanos;

  WorkerPool(Scheduler scheduler, Settings b) {
    this.scheduler = scheduler;
    this.spinNanos = b.tuning.spinNanos;
    this.queueCapacity = b.tuning.queueCapacity;
    this.clock = b.clock;
    this.metrics = new RunMetrics(b.groups);
    this.dispatch =
        new Dispatcher<>(b.policy, b.workers, new Request<?>[0], this, false, b.classFloors());
    dispatch.decisionListener(b.decisions);
    dispatch.promptAdmission(b.tuning.promptAdmission);
    dispatch.slack(b.tuning.slack);
    this.backgroundCores = new BackgroundCores(b.workers, b.workers);
    this.elasticBudget = b.budgetPolicy != null;
    this.budgetPeriodNanos = elasticBudget ? b.budgetPeriodNanos : Long.MAX_VALUE;
    if (elasticBudget) {
      dispatch.elasticBudget(b.budgetPolicy, b.minBudget, b.budgetPeriodNanos, nanoTime());
      dispatch.budgetListener(backgroundCores::budgetChanged);
    }
    this.failures = dispatch.failures();
    this.notifications = new Notifications(b.listener, failures);
    // Enough pool threads that an admitted pool body always finds one idle: own threads reach the
    // budget while helpers, up to the budget plus the slack less one, still finish their claims.
    int threads = b.tuning.promptAdmission ? 2 * b.workers + b.tuning.slack - 1 : b.workers;
    this.lifecycle = new PoolLifecycle(this, threads + 1);
    this.workers = new Worker[threads];
    metrics.observeBusyWorkers(nanoTime(), 0);
    for (int i = 0; i < threads; i++) {
      workers[i] = new Worker(this, b.threadFactory);
      idle.push(workers[i]);
    }
    this.longThresholdNanos = b.tuning.longThresholdNanos;
    this.reevaluator = new Reevaluator(this, b.tuning.quantumNanos, b.threadFactory);
    for (Worker w : workers) {
      w.thread.start();
    }
    reevaluator.start();
  }

  /** The scheduler's clock, the one requests' times and the policies' view are read from. */
  @Override
  public long nanoTime() {
    return clock.getAsLong();
  }

  /** The policy's long-request threshold if it states one, else the scheduler's. */
  long longThresholdNanos() {
    return dispatch.longThresholdNanos(longThresholdNanos);
  }

  @Override
  public boolean holdsExclusion() {
    return lock.isHeldByCurrentThread(); // the dispatch lock, DispatchLock
  }

  // ---- arrival and admission ------------------------------------------------------------------

  /** Queues an arrival and dispatches, or rejects it. */
  void enqueue(Request<?> r) {
    lock.lock();
    try {
      if (lifecycle.isShutdown()) {
        throw new RejectedExecutionException("scheduler is shut down; request not accepted");
      }
      if (dispatch.queued() >= queueCapacity) {
        throw new RejectedExecutionException(
            "admission queue full: limit " + queueCapacity + " queued requests");
      }
      lifecycle.accepted();
      dispatch.enqueue(r);
      dispatchLocked(nanoTime());
    } finally {
      lock.unlockAndWake();
    }
  }

  /**
   * Parks a caller until its request is admitted. Interrupted while still queued, the request
   * leaves the queue and completes as cancelled.
   */
  void awaitAdmission(Request<?> r) throws InterruptedException {
    while (r.phase() == Request.Phase.QUEUED) {
      LockSupport.park(scheduler);
      if (Thread.interrupted()) {
        if (cancelQueued(r)) {
          throw new InterruptedException("interrupted while waiting for admission");
        }
        Thread.currentThread().interrupt(); // admitted meanwhile: run, and keep the interrupt
      }
    }
  }

  /**
   * Hands free slots to work while there is both, as the dispatch core decides. Pool work goes to
   * an idle worker, an admitted caller is woken.
   */
  void dispatchLocked(long now) {
    dispatchLocked(now, true);
  }

  /**
   * As {@link #dispatchLocked(long)}, but with {@code toIdle} false only callers are admitted: pool
   * work is left for a worker that is about to come back for it ({@link #release}).
   */
  private void dispatchLocked(long now, boolean toIdle) {
    while (dispatch.freeSlots() > 0) {
      // A worker still completing its last request holds no slot but is not idle yet: then a
      // free slot can only go to a caller.
      Dispatcher.Assignment<Request<?>> work = dispatch.takeWork(now, toIdle && !idle.isEmpty());
      if (work == null) {
        return;
      }
      Request<?> r = work.request();
      boolean help = work.help();
      if (!help && r.caller != null) {
        wakeCaller(r);
        continue;
      }
      Worker w = idle.pollFirst();
      w.assign(r, help);
      lock.wakeAfter(w.thread);
    }
  }

  private void wakeCaller(Request<?> r) {
    if (r.caller != Thread.currentThread()) {
      lock.wakeAfter(r.caller);
    }
  }

  // ---- the dispatch core's decisions, carried out (under the lock) ----------------------------

  @Override
  public boolean hasWorkForHelper(Request<?> r) {
    return r.hasWorkForHelper();
  }

  @Override
  public void start(Request<?> r, int degree, long now) {
    r.markRunning(degree, now);
  }

  @Override
  public void addHelper(Request<?> r, long now) {
    r.helperJoined();
  }

  @Override
  public boolean runsOnCaller(Request<?> r) {
    return r.caller != null;
  }

  @Override
  public int busyThreadsOnLongRequests() {
    return longThreads.get();
  }

  @Override
  public void busyWorkersChanged(long now, int busy) {
    metrics.observeBusyWorkers(now, busy);
  }

  // ---- running --------------------------------------------------------------------------------

  /** A worker's assignment: runs the body or helps, then releases and takes its next work. */
  void runAssignment(Worker w, Request<?> r, boolean help) {
    if (help && !r.helperStarts()) {
      nextForWorker(w, false); // the request exited before this helper woke, and took its slot
      return;
    }
    long end = Request.UNKNOWN;
    try {
      if (help) {
        r.help();
      } else {
        admitted(r);
        end = r.runBody(true);
      }
    } finally {
      release(w, r, !help, end);
    }
  }

  /**
   * Runs an admitted request's body on the calling thread, which holds its slot (its caller's) or
   * lent one ({@link #runIfQueuedForWaiter}), until the body returns.
   */
  void runOnThisThread(Request<?> r) {
    long end = Request.UNKNOWN;
    try {
      admitted(r);
      end = r.runBody(false);
    } finally {
      release(null, r, true, end);
    }
  }

  /** An admitted caller's request opened by {@link RequestScope}: its thread now works on it. */
  void openOnCaller(Request<?> r) {
    admitted(r);
  }

  /** A {@link RequestScope} closed: as a body returning on its caller at {@code end}. */
  void closeOnCaller(Request<?> r, long end) {
    release(null, r, true, end);
  }

  /**
   * The request's body is about to run on the calling thread: a request predicted long counts in
   * LongT from its start, not from the next tick, and the listener hears it. Outside the lock.
   */
  private void admitted(Request<?> r) {
    r.account.checkLong(longThresholdNanos(), r.startNanos);
    notifications.admitted(r, dispatch.running().length, dispatch.queued());
  }

  /**
   * A body returned (on worker {@code w}, or on a caller if {@code w} is null) or a helper left its
   * request: releases the thread's slot and, if nobody is left on the request, takes it out of the
   * dispatch and then, after the lock, terminates it. The worker then takes its next work. {@code
   * bodyEnd} is when the body returned, or {@code UNKNOWN} after helping.
   */
  private void release(Worker w, Request<?> r, boolean body, long bodyEnd) {
    boolean exits;
    long now;
    lock.lock();
    try {
      now = bodyEnd != Request.UNKNOWN ? bodyEnd : nanoTime();
      int back = r.threadLeft(body);
      dispatch.releaseSlots(body ? 0 : back, body ? back : 0, now);
      int leftBehind = r.retire();
      exits = leftBehind >= 0;
      if (exits) {
        dispatch.releaseSlots(leftBehind, 0, now);
        dispatch.exited(r);
        // A worker takes the pool work its slot frees itself once the request has terminated
        // (nextForWorker), rather than wake an idle one: on a busy machine a woken thread waits
        // for a core, up to a scheduler slice, while its waker goes idle. Callers are woken now.
        dispatchLocked(now, w == null);
        if (w != null) {
          handingOver.incrementAndGet();
        }
      } else if (w == null || nextForWorkerLocked(w, now)) {
        dispatchLocked(now); // a worker that found no work for itself leaves none for others
      }
    } finally {
      lock.unlockAndWake();
    }
    if (exits) {
      // Terminating completes the future, which runs its dependent stages here: the worker takes
      // no new work before they return, and its slot is free meanwhile, so a stage may itself
      // wait on the scheduler.
      try {
        r.exit.terminate(now);
      } finally {
        if (w != null) {
          nextForWorker(w, true);
        }
      }
    }
  }

  /**
   * Gives a worker without work its next work, or makes it idle, then hands any other free slot on:
   * a worker that terminated a request ({@code handedOver}: its slot was held back for it), or a
   * helper whose request exited before it woke.
   */
  private void nextForWorker(Worker w, boolean handedOver) {
    lock.lock();
    try {
      if (handedOver) {
        handingOver.decrementAndGet();
      }
      long now = nanoTime();
      if (nextForWorkerLocked(w, now)) {
        dispatchLocked(now);
      }
    } finally {
      lock.unlockAndWake();
    }
  }

  /**
   * Whether pool work waits for a slot that a worker, still terminating its request, holds back: a
   * future's dependent stage running there may take long, so the reevaluator hands such a slot to
   * an idle worker at its next tick instead.
   */
  boolean slotHeldForHandOver() {
    return handingOver.get() > 0 && dispatch.queued() > 0 && dispatch.admissionSlots() > 0;
  }

  /**
   * Gives a worker without work its next work: pool work is its own, callers it finds are woken.
   * With none, the worker joins the idle.
   *
   * @return whether the worker got work; if not, no free slot has any
   */
  private boolean nextForWorkerLocked(Worker w, long now) {
    while (dispatch.freeSlots() > 0) {
      Dispatcher.Assignment<Request<?>> work = dispatch.takeWork(now, true);
      if (work == null) {
        break;
      }
      Request<?> r = work.request();
      boolean help = work.help();
      if (help || r.caller == null) {
        w.assign(r, help);
        return true;
      }
      wakeCaller(r);
    }
    idle.push(w);
    return false;
  }

  /**
   * Reports a terminating request (its record to the metrics and the listener, then, if it ran, to
   * the policy), outside the lock. The report comes before its outcome is handed over, so that
   * whoever waits on it finds it in the metrics.
   */
  void reportCompleted(Request<?> r, RequestRecord record, boolean ran) {
    metrics.record(record);
    notifications.completed(record);
    if (ran) {
      dispatch.completed(record);
    }
  }

  /** A unit was forked, or a degree rose: wake a free slot if the request may take a thread. */
  void unitForked(Request<?> r) {
    if (dispatch.helpers().mayJoin(r)) {
      dispatchNow();
    }
  }

  /**
   * Resizes the elastic budget if its period has ended and gives a growth's slots to waiting work;
   * after a shrink, helpers leave at their boundaries ({@link
   * dev.tailor.core.dispatch.HelperRules}). Called by the reevaluator; lock-free while the period
   * runs.
   */
  void checkBudget() {
    if (!elasticBudget || nanoTime() - dispatch.nextBudgetCheck() < 0) {
      return;
    }
    lock.lock();
    try {
      long now = nanoTime();
      if (dispatch.checkBudget(now)) {
        dispatchLocked(now);
      }
    } finally {
      lock.unlockAndWake();
    }
  }

  /** The budget's time-weighted mean since the start; the pool size if it is not elastic. */
  double meanBudget() {
    return readLocked(dispatch::meanBudget);
  }

  /** A time-weighted mean up to now, read under the lock, which keeps its observations. */
  private double readLocked(LongToDoubleFunction meanUpTo) {
    lock.lock();
    try {
      return meanUpTo.applyAsDouble(nanoTime());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Hands free slots to waiting work now: at a tick when the delayed head's time has come, or when
   * a request may take one more thread.
   */
  void dispatchNow() {
    lock.lock();
    try {
      dispatchLocked(nanoTime()); // busy-time observations stay in time order
    } finally {
      lock.unlockAndWake();
    }
  }

  /**
   * Runs {@code r} at once on the calling thread if that thread is about to wait for it from inside
   * a request of this pool and {@code r} is still queued: the runtime's way out of the deadlock
   * that nested waits would otherwise make (a body submitting a request and waiting for its
   * future). Such a wait holds a slot of the budget while {@code r} waits for one: with every slot
   * held so, nothing would ever run again. As {@link Scheduler#run} nested in a request does, the
   * waiting thread then does the work itself; unlike it, {@code r} stays a request of its own, run,
   * released and terminated on the path every request takes. The dispatch core adopts it ({@link
   * Dispatcher#adopt}): it leaves the queue without an admission question, at degree 1, on the
   * waiting thread's slot, which it gives back to nobody when its body returns.
   */
  void runIfQueuedForWaiter(Request<?> r) {
    Request<?> waiter = Request.current();
    if (waiter == null
        || waiter.pool != this
        || r.caller != null
        || r.phase() != Request.Phase.QUEUED) {
      return;
    }
    lock.lock();
    try {
      if (r.phase() != Request.Phase.QUEUED || r.isCancelled()) {
        return;
      }
      long now = nanoTime();
      r.lendSlot();
      if (dispatch.adopt(r, now)) {
        dispatchLocked(now); // a new head: it may be admitted now
      }
    } finally {
      lock.unlockAndWake();
    }
    runOnThisThread(r);
  }

  // ---- cancellation ---------------------------------------------------------------------------

  /**
   * Cancels a request whose future was just cancelled or completed from outside: a queued one
   * leaves the queue and terminates now; a running one is flagged, its held units dropped, and it
   * terminates when its body and helpers, seeing the flag, have returned. No thread is interrupted.
   */
  void cancel(Request<?> r) {
    if (!cancelQueued(r)) {
      r.stop.cancel();
    }
  }

  /** Cancels {@code r} if it is still queued, and terminates it; returns whether it was. */
  private boolean cancelQueued(Request<?> r) {
    lock.lock();
    try {
      if (r.phase() != Request.Phase.QUEUED) {
        return false;
      }
      r.stop.cancel();
      if (dispatch.removeQueued(r)) {
        dispatchLocked(nanoTime());
      }
      r.markDone();
    } finally {
      lock.unlockAndWake();
    }
    r.exit.terminate(nanoTime());
    return true;
  }

  /** Swaps the policy (see {@link Scheduler#setPolicy}); returns the one it replaced. */
  Policy setPolicy(Policy policy) {
    return dispatch.setPolicy(policy);
  }

  double meanBusyWorkers() {
    return readLocked(metrics::meanBusyWorkers);
  }
}
