package dev.tailor.core;

import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.metrics.RunMetrics;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.function.LongToDoubleFunction;

/**
 * The runtime's driver of the {@link Dispatcher}: real threads, one lock, and the life of a request
 * around the decisions. The dispatch core decides who a free slot goes to; this class holds the
 * lock it is called under, hands pool work to an idle {@link Worker} or wakes an admitted caller,
 * releases slots when a body returns or a helper leaves, completes requests exactly once, and
 * handles cancellation and shutdown.
 *
 * <p>Cancellation is cooperative: nothing here interrupts a thread (see {@link
 * RequestFuture#cancel}).
 */
final class WorkerPool {

  private final Scheduler scheduler;
  private final int queueCapacity;
  final RunMetrics metrics;
  final Notifications notifications;
  final FailureLog failures;

  /** The scheduler's clock: {@link System#nanoTime()} unless a test controls it. */
  private final LongSupplier clock;

  final AtomicInteger longThreads = new AtomicInteger();

  // Guarded by lock: the dispatch core, the idle workers, the requests finishing.
  final DispatchLock lock = new DispatchLock();
  final Dispatcher<Request<?>> dispatch;
  private final ArrayDeque<Worker> idle = new ArrayDeque<>();
  private int finishing; // requests done but not yet reported
  private volatile boolean shutdown;
  private volatile boolean stopping;

  private final Worker[] workers;
  private final long longThresholdNanos;

  /** How long an idle worker, or an own thread waiting for its helpers, spins before parking. */
  final long spinNanos;

  final Ticker ticker;
  private final CountDownLatch terminated;

  /** The cores the elastic budget returns; none while the budget is the whole pool. */
  final ReturnedCores returnedCores;

  /** Whether the budget is elastic: the ticker then resizes it every period. */
  final boolean elasticBudget;

  /** The elastic budget's period; {@link Long#MAX_VALUE} if it is not elastic. */
  final long budgetPeriodNanos;

  WorkerPool(Scheduler scheduler, Settings b) {
    this.scheduler = scheduler;
    this.spinNanos = b.spinNanos;
    this.queueCapacity = b.queueCapacity;
    this.clock = b.clock;
    this.metrics = new RunMetrics(b.groups);
    this.dispatch =
        new Dispatcher<>(
            b.policy,
            b.workers,
            new Request<?>[0],
            new RuntimeHost(metrics, longThreads, this::longThresholdNanos, clock),
            false,
            b.classFloors());
    dispatch.decisionListener(b.decisions);
    dispatch.promptAdmission(b.promptAdmission);
    this.returnedCores = new ReturnedCores(b.workers, b.workers);
    this.elasticBudget = b.budgetPolicy != null;
    this.budgetPeriodNanos = elasticBudget ? b.budgetPeriodNanos : Long.MAX_VALUE;
    if (elasticBudget) {
      dispatch.elasticBudget(b.budgetPolicy, b.minBudget, b.budgetPeriodNanos, nanoTime());
      dispatch.budgetListener(returnedCores::budgetChanged);
    }
    this.failures = dispatch.failures();
    this.notifications = new Notifications(b.listener, failures);
    this.terminated = new CountDownLatch(b.workers + 1);
    this.workers = new Worker[b.workers];
    metrics.observeBusyWorkers(nanoTime(), 0);
    for (int i = 0; i < b.workers; i++) {
      workers[i] = new Worker(this, b.threadFactory);
      idle.push(workers[i]);
    }
    this.longThresholdNanos = b.longThresholdNanos;
    this.ticker = new Ticker(this, b.quantumNanos, b.threadFactory);
    for (Worker w : workers) {
      w.thread.start();
    }
    ticker.start();
  }

  /** The scheduler's clock, the one requests' times and the policies' view are read from. */
  long nanoTime() {
    return clock.getAsLong();
  }

  /** The policy's long-request threshold if it states one, else the scheduler's. */
  long longThresholdNanos() {
    return dispatch.longThresholdNanos(longThresholdNanos);
  }

  // ---- arrival and admission ------------------------------------------------------------------

  /** Queues an arrival and dispatches, or rejects it. */
  void enqueue(Request<?> r) {
    lock.lock();
    try {
      if (shutdown) {
        throw new RejectedExecutionException("scheduler is shut down; request not accepted");
      }
      if (dispatch.queued() >= queueCapacity) {
        throw new RejectedExecutionException(
            "admission queue full: limit " + queueCapacity + " queued requests");
      }
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
        boolean removed;
        lock.lock();
        try {
          removed = r.phase() == Request.Phase.QUEUED;
          if (removed) {
            r.markCancelled();
            dequeueLocked(r);
          }
        } finally {
          lock.unlockAndWake();
        }
        if (removed) {
          finish(r, nanoTime());
          finished(null);
          throw new InterruptedException("interrupted while waiting for admission");
        }
        Thread.currentThread().interrupt(); // admitted meanwhile: run, and keep the interrupt
      }
    }
  }

  /** A request left the dispatch and is being completed. Called under the lock. */
  void finishingLocked() {
    finishing++;
  }

  /** Takes a queued request out of the queue; it is then finishing. */
  private void dequeueLocked(Request<?> r) {
    if (dispatch.removeQueued(r)) {
      dispatchLocked(nanoTime());
    }
    r.markDone();
    finishing++;
    maybeStopLocked();
  }

  /**
   * Hands free slots to work while there is both, as the dispatch core decides. Pool work goes to
   * an idle worker, an admitted caller is woken.
   */
  void dispatchLocked(long now) {
    while (dispatch.freeSlots() > 0) {
      // A worker still completing its last request holds no slot but is not idle yet: then a
      // free slot can only go to a caller.
      Dispatcher.Assignment<Request<?>> work = dispatch.takeWork(now, !idle.isEmpty());
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

  // ---- running --------------------------------------------------------------------------------

  /** A worker's assignment: runs the body or helps, then releases and takes its next work. */
  void runAssignment(Worker w, Request<?> r, boolean help) {
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

  /** Runs an admitted caller's body on the caller's thread, holding its slot until it returns. */
  void runOnCaller(Request<?> r) {
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

  void admitted(Request<?> r) {
    notifications.admitted(r, dispatch.running().length, dispatch.queued());
  }

  /**
   * A body returned (on worker {@code w}, or on a caller if {@code w} is null) or a helper left its
   * request: drops held units after a body, releases the slot, completes the request if nobody is
   * left on it, and gives the worker its next work. {@code bodyEnd} is when the body returned, or
   * {@code UNKNOWN} after helping.
   */
  private void release(Worker w, Request<?> r, boolean body, long bodyEnd) {
    boolean complete;
    long now;
    lock.lock();
    try {
      now = bodyEnd != Request.UNKNOWN ? bodyEnd : nanoTime();
      complete = r.threadLeft(body);
      dispatch.releaseSlots(1, now);
      if (complete) {
        dispatch.exited(r);
        r.markDone();
        finishing++;
      } else if (w != null) {
        nextForWorkerLocked(w, now);
      }
      dispatchLocked(now);
    } finally {
      lock.unlockAndWake();
    }
    if (complete) {
      // Completing the future runs its dependent stages here: the worker takes no new work before
      // they return, and its slot is free meanwhile, so a stage may itself wait on the scheduler.
      finish(r, now);
      finished(w);
    }
  }

  /**
   * After a request's completion was reported: lets a shutdown finish, and gives the worker that
   * reported it (if any) its next work.
   */
  void finished(Worker w) {
    lock.lock();
    try {
      finishing--;
      long now = nanoTime();
      if (w != null) {
        nextForWorkerLocked(w, now);
      }
      dispatchLocked(now);
      maybeStopLocked();
    } finally {
      lock.unlockAndWake();
    }
  }

  /**
   * Gives a worker without work its next work: pool work is its own, callers it finds are woken.
   * With none, the worker joins the idle.
   */
  private void nextForWorkerLocked(Worker w, long now) {
    while (dispatch.freeSlots() > 0) {
      Dispatcher.Assignment<Request<?>> work = dispatch.takeWork(now, true);
      if (work == null) {
        break;
      }
      Request<?> r = work.request();
      boolean help = work.help();
      if (help || r.caller == null) {
        w.assign(r, help);
        return;
      }
      wakeCaller(r);
    }
    idle.push(w);
  }

  /**
   * Reports a request and completes its future; called exactly once per request, outside the lock.
   * The report comes first, so that whoever waits on the future finds it in the metrics.
   */
  void finish(Request<?> r, long end) {
    RequestRecord record = r.record(end, r.outcome());
    metrics.record(record);
    notifications.completed(record);
    r.complete();
  }

  /** A unit was forked, or a degree rose: wake a free slot if the request may take a thread. */
  void unitForked(Request<?> r) {
    if (dispatch.helpers().mayJoin(r)) {
      dispatchNow();
    }
  }

  /**
   * Resizes the elastic budget if its period has ended and gives a growth's slots to waiting work;
   * after a shrink, helpers leave at their boundaries ({@link dev.tailor.core.dispatch.Helpers}).
   * Called by the ticker; lock-free while the period runs.
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
   * Cancels a request whose future was just cancelled or completed from outside: a queued one
   * leaves the queue and completes now; a running one is flagged, its held units dropped, and it
   * completes when its body and helpers, seeing the flag, have returned. No thread is interrupted.
   */
  void cancel(Request<?> r) {
    boolean dequeued = false;
    lock.lock();
    try {
      r.markCancelled();
      if (r.phase() == Request.Phase.QUEUED) {
        dequeueLocked(r);
        dequeued = true;
      }
    } finally {
      lock.unlockAndWake();
    }
    if (dequeued) {
      finish(r, nanoTime());
      if (r.caller != null) {
        LockSupport.unpark(r.caller);
      }
      finished(null);
    }
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  boolean isShutdown() {
    return shutdown;
  }

  boolean isStopping() {
    return stopping;
  }

  void shutdown() {
    lock.lock();
    try {
      shutdown = true;
      maybeStopLocked();
    } finally {
      lock.unlockAndWake();
    }
  }

  int shutdownNow() {
    List<Request<?>> dropped = new ArrayList<>();
    Request<?>[] toCancel;
    lock.lock();
    try {
      shutdown = true;
      dispatch.drainQueue(
          r -> {
            r.markDone();
            dropped.add(r);
          });
      finishing += dropped.size();
      toCancel = dispatch.running();
      maybeStopLocked();
    } finally {
      lock.unlockAndWake();
    }
    for (Request<?> r : dropped) {
      r.future.cancel(false);
      finish(r, nanoTime());
      if (r.caller != null) {
        LockSupport.unpark(r.caller);
      }
      finished(null);
    }
    for (Request<?> r : toCancel) {
      r.future.cancel(false);
    }
    return dropped.size();
  }

  /** After a shutdown, once nothing is queued or running, stops the workers and the ticker. */
  private void maybeStopLocked() {
    if (shutdown
        && !stopping
        && dispatch.queued() == 0
        && dispatch.running().length == 0
        && finishing == 0) {
      stopping = true;
      returnedCores.budgetChanged(0); // search needs no core any more
      for (Worker w : workers) {
        w.stop();
      }
      ticker.wake();
    }
  }

  boolean awaitTermination(long nanos) throws InterruptedException {
    return terminated.await(nanos, TimeUnit.NANOSECONDS);
  }

  boolean isTerminated() {
    return terminated.getCount() == 0;
  }

  void threadExited() {
    terminated.countDown();
  }

  double meanBusyWorkers() {
    return readLocked(metrics::meanBusyWorkers);
  }
}
