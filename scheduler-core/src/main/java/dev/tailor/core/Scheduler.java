package dev.tailor.core;

import dev.tailor.core.metrics.RequestClasses;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.metrics.RunMetrics;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.policy.WorkerPreference;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs requests on a fixed budget of threads and decides, through a {@link Policy}, when each
 * request starts and how many threads work on it as it runs.
 *
 * <p>A request's body runs either on a pool worker ({@link #submit}) or on the caller's own thread
 * ({@link #run}); either way it first waits in one bounded FIFO admission queue, and while it runs
 * it holds one slot of the budget of {@link Builder#workers(int) workers} threads. The body hands
 * work units to its {@link RequestContext}; idle slots run them as helpers while the request's
 * degree allows: degree {@code d} means up to {@code d} threads on the request, its own included.
 * The policy is asked for a degree every quantum and at every unit boundary, so a running request
 * can gain threads or stop gaining them.
 *
 * <p>Every request completes exactly once, with its result, its exception or a cancellation. An
 * exception in a body or a unit fails that request only.
 *
 * <pre>{@code
 * try (Scheduler scheduler = Scheduler.builder().policy("rampup:10ms,4").workers(8).build()) {
 *   CompletableFuture<Long> matches = scheduler.submit(ctx -> {
 *     LongAdder total = new LongAdder();
 *     for (int part = 0; part < 16; part++) {
 *       int from = part * 1_000;
 *       ctx.fork(() -> total.add(countMatches(from, from + 1_000)));
 *     }
 *     ctx.joinUnits();
 *     return total.sum();
 *   });
 * }
 * }</pre>
 */
public final class Scheduler implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(Scheduler.class.getName());
  private static final long NOT_DELAYED = Long.MIN_VALUE;
  private static final Request<?>[] NONE_RUNNING = new Request<?>[0];

  private final Policy policy;
  private final int poolSize;
  private final int queueCapacity;
  private final long quantumNanos;
  private final long longThresholdNanos;
  private final SchedulerListener listener;
  private final RunMetrics metrics;
  private final View view = new View();
  private final AtomicLong ids = new AtomicLong();
  private final AtomicInteger longThreads = new AtomicInteger();

  // Dispatch state, guarded by lock. Volatile fields are also read without it on hot paths.
  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Request<?>> queue = new ArrayDeque<>();
  private final ArrayDeque<Worker> idle = new ArrayDeque<>();
  private final ArrayDeque<Thread> toWake = new ArrayDeque<>();
  private volatile Request<?>[] running = NONE_RUNNING;
  private volatile int freeSlots;
  private volatile int queued;
  private volatile long headDelayedUntil = NOT_DELAYED;
  private boolean headAwaitsExit;
  private int finishing; // requests done but not yet reported
  private boolean tookHelp;
  private volatile boolean shutdown;
  private volatile boolean stopping;

  private final Worker[] workers;
  private final Thread ticker;
  private final CountDownLatch terminated;

  private Scheduler(Builder b) {
    this.policy = b.policy;
    this.poolSize = b.workers;
    this.queueCapacity = b.queueCapacity;
    this.quantumNanos = b.quantumNanos;
    this.longThresholdNanos = b.longThresholdNanos;
    this.listener = b.listener;
    this.metrics = new RunMetrics(b.classes);
    this.freeSlots = poolSize;
    this.terminated = new CountDownLatch(poolSize + 1);
    this.workers = new Worker[poolSize];
    metrics.observeBusyWorkers(System.nanoTime(), 0);
    for (int i = 0; i < poolSize; i++) {
      workers[i] = new Worker(this, b.threadFactory);
      idle.push(workers[i]);
    }
    this.ticker = b.threadFactory.newThread(this::tick);
    ticker.setName("tailor-ticker");
    ticker.setDaemon(true);
    for (Worker w : workers) {
      w.thread.start();
    }
    ticker.start();
  }

  /** A builder with the defaults: sequential policy, one worker per available processor. */
  public static Builder builder() {
    return new Builder();
  }

  // ---- public API -----------------------------------------------------------------------------

  /**
   * Queues a request whose body runs on a pool worker.
   *
   * @return a future completed exactly once with the body's result or failure; cancelling it
   *     cancels the request
   * @throws RejectedExecutionException if the scheduler is shut down or the admission queue is full
   */
  public <T> CompletableFuture<T> submit(RequestBody<T> body, RequestAttributes attributes) {
    Request<T> r = newRequest(body, attributes, null);
    enqueue(r);
    return r.future;
  }

  /** {@link #submit(RequestBody, RequestAttributes)} with no attributes. */
  public <T> CompletableFuture<T> submit(RequestBody<T> body) {
    return submit(body, RequestAttributes.NONE);
  }

  /** Submits a plain task as a one-unit request. */
  public <T> CompletableFuture<T> submit(Callable<T> task) {
    Objects.requireNonNull(task, "task");
    return submit(ctx -> task.call(), RequestAttributes.NONE);
  }

  /**
   * Runs a request on the calling thread: waits for admission like any queued request, then runs
   * the body here, holding one slot of the budget until the request completes. Called from inside a
   * request of this scheduler, the body runs at once as part of that request, so nested work can
   * never deadlock waiting for a slot its own caller holds.
   *
   * @return the body's result
   * @throws Exception what the body threw, or the first failure of one of its units
   * @throws CancellationException if the request was cancelled or the scheduler shut down now
   * @throws RejectedExecutionException if the scheduler is shut down or the admission queue is full
   * @throws InterruptedException if interrupted while waiting for admission (the request leaves the
   *     queue)
   */
  public <T> T run(RequestBody<T> body, RequestAttributes attributes) throws Exception {
    Request<?> outer = Request.current();
    if (outer != null && outer.scheduler == this) {
      return body.run(outer);
    }
    Request<T> r = newRequest(body, attributes, Thread.currentThread());
    enqueue(r);
    awaitAdmission(r);
    if (r.phase == Request.DONE) {
      throw new CancellationException("request " + r.id + " was cancelled before it ran");
    }
    long end = Request.UNKNOWN;
    try {
      admitted(r);
      end = r.runBody(false);
    } finally {
      release(null, r, true, end);
    }
    // Helpers finish their current unit quickly; wait for them without giving up on an interrupt.
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return r.future.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof Exception ex) {
            throw ex;
          }
          if (cause instanceof Error err) {
            throw err;
          }
          throw e;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** {@link #run(RequestBody, RequestAttributes)} with no attributes. */
  public <T> T run(RequestBody<T> body) throws Exception {
    return run(body, RequestAttributes.NONE);
  }

  /** The policy deciding admissions and degrees. */
  public Policy policy() {
    return policy;
  }

  /** The live load measures policies see. */
  public SystemView systemView() {
    return view;
  }

  /** The metrics of every request completed so far. */
  public RunMetrics metrics() {
    return metrics;
  }

  /** Busy threads of the budget, averaged over time since the scheduler started. */
  public double meanBusyWorkers() {
    lock.lock();
    try {
      return metrics.meanBusyWorkers(System.nanoTime());
    } finally {
      lock.unlock();
    }
  }

  /** Stops admitting new requests; queued and running ones finish. Idempotent. */
  public void shutdown() {
    lock.lock();
    try {
      shutdown = true;
      maybeStopLocked();
    } finally {
      unlockAndWake();
    }
  }

  /**
   * Stops admitting, fails every queued request with a {@link CancellationException} and cancels
   * every running one (held units dropped, pool bodies interrupted).
   *
   * @return the number of queued requests that were failed
   */
  public int shutdownNow() {
    List<Request<?>> dropped = new ArrayList<>();
    Request<?>[] toCancel;
    lock.lock();
    try {
      shutdown = true;
      for (Request<?> r; (r = queue.pollFirst()) != null; ) {
        r.phase = Request.DONE;
        dropped.add(r);
      }
      queued = 0;
      headDelayedUntil = NOT_DELAYED;
      headAwaitsExit = false;
      finishing += dropped.size();
      toCancel = running;
      maybeStopLocked();
    } finally {
      unlockAndWake();
    }
    for (Request<?> r : dropped) {
      r.future.cancel(false);
      finish(r, System.nanoTime());
      if (r.caller != null) {
        LockSupport.unpark(r.caller);
      }
      finished(null);
    }
    for (Request<?> r : toCancel) {
      r.future.cancel(true);
    }
    return dropped.size();
  }

  /** Whether {@link #shutdown()} or {@link #shutdownNow()} has been called. */
  public boolean isShutdown() {
    return shutdown;
  }

  /** Whether the scheduler has shut down and every thread of it has exited. */
  public boolean isTerminated() {
    return terminated.getCount() == 0;
  }

  /** Waits until every thread has exited after a shutdown, as {@code ExecutorService} does. */
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return terminated.await(timeout, unit);
  }

  /** Shuts down and waits for termination, as {@code ExecutorService.close()} does. */
  @Override
  public void close() {
    shutdown();
    boolean interrupted = false;
    while (!isTerminated()) {
      try {
        awaitTermination(1, TimeUnit.DAYS);
      } catch (InterruptedException e) {
        if (!interrupted) {
          shutdownNow();
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "Scheduler[policy "
        + policy.spec()
        + ", "
        + poolSize
        + " workers, "
        + view.activeRequests()
        + " active, "
        + queued
        + " queued]";
  }

  // ---- admission ------------------------------------------------------------------------------

  private <T> Request<T> newRequest(RequestBody<T> body, RequestAttributes attrs, Thread caller) {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(attrs, "attributes");
    return new Request<>(this, ids.incrementAndGet(), attrs, body, caller, System.nanoTime());
  }

  private void enqueue(Request<?> r) {
    lock.lock();
    try {
      if (shutdown) {
        throw new RejectedExecutionException("scheduler is shut down; request not accepted");
      }
      if (queue.size() >= queueCapacity) {
        throw new RejectedExecutionException(
            "admission queue full: limit " + queueCapacity + " queued requests");
      }
      queue.addLast(r);
      queued = queue.size();
      dispatchLocked(System.nanoTime());
    } finally {
      unlockAndWake();
    }
  }

  private void awaitAdmission(Request<?> r) throws InterruptedException {
    while (r.phase == Request.QUEUED) {
      LockSupport.park(this);
      if (Thread.interrupted()) {
        boolean removed;
        lock.lock();
        try {
          removed = r.phase == Request.QUEUED;
          if (removed) {
            r.cancelled = true;
            removeQueuedLocked(r);
            r.phase = Request.DONE;
            finishing++;
          }
        } finally {
          unlockAndWake();
        }
        if (removed) {
          finish(r, System.nanoTime());
          finished(null);
          throw new InterruptedException("interrupted while waiting for admission");
        }
        Thread.currentThread().interrupt(); // admitted meanwhile: run, and keep the interrupt
      }
    }
  }

  private void removeQueuedLocked(Request<?> r) {
    boolean wasHead = queue.peekFirst() == r;
    queue.remove(r);
    queued = queue.size();
    if (wasHead) {
      headDelayedUntil = NOT_DELAYED;
      headAwaitsExit = false;
      dispatchLocked(System.nanoTime());
    }
    maybeStopLocked();
  }

  /**
   * Hands free slots to work while there is both: helping or admitting in the order the policy
   * prefers. Pool work goes to an idle worker, an admitted caller is woken.
   */
  private void dispatchLocked(long now) {
    while (freeSlots > 0) {
      // A worker still completing its last request holds no slot but is not idle yet: then a
      // free slot can only go to a caller.
      Request<?> r = takeWorkLocked(now, !idle.isEmpty());
      if (r == null) {
        return;
      }
      if (!tookHelp && r.caller != null) {
        wakeCaller(r);
        continue;
      }
      Worker w = idle.pollFirst();
      w.assign(r, tookHelp);
      toWake.addLast(w.thread);
    }
  }

  private void wakeCaller(Request<?> r) {
    if (r.caller != Thread.currentThread()) {
      toWake.addLast(r.caller);
    }
  }

  /**
   * Releases the lock, then wakes the threads given work under it. Waking after the unlock keeps a
   * woken thread from running straight into the lock its waker still holds.
   */
  private void unlockAndWake() {
    Thread first = toWake.pollFirst();
    Thread[] more = toWake.isEmpty() ? null : toWake.toArray(Thread[]::new);
    toWake.clear();
    lock.unlock();
    if (first != null) {
      LockSupport.unpark(first);
    }
    if (more != null) {
      for (Thread t : more) {
        LockSupport.unpark(t);
      }
    }
  }

  /**
   * Takes one slot for the next piece of work, or returns null if there is none. Sets {@link
   * #tookHelp} to say whether the request is to be helped or was just admitted. Without a pool
   * thread to give work to, only a caller's request can be admitted.
   */
  private Request<?> takeWorkLocked(long now, boolean poolThread) {
    boolean helpFirst = poolThread && preference() == WorkerPreference.HELP_FIRST;
    Request<?> r = helpFirst ? helpLocked(now) : null;
    if (r != null) {
      return r;
    }
    r = admitHeadLocked(now, poolThread);
    if (r != null || helpFirst || !poolThread) {
      return r;
    }
    return helpLocked(now);
  }

  private WorkerPreference preference() {
    try {
      WorkerPreference p = policy.workerPreference(view);
      return p != null ? p : WorkerPreference.HELP_FIRST;
    } catch (Throwable e) {
      LOG.log(System.Logger.Level.WARNING, "policy " + policy.spec() + " failed; helping first", e);
      return WorkerPreference.HELP_FIRST;
    }
  }

  /** The oldest running request that may take another thread and has a unit for it. */
  private Request<?> helpLocked(long now) {
    for (Request<?> r : running) {
      if (!r.bodyDone && !r.cancelled && r.threads < Math.max(1, r.degree) && !r.held.isEmpty()) {
        r.threads++;
        takeSlotLocked(now);
        tookHelp = true;
        return r;
      }
    }
    return null;
  }

  private Request<?> admitHeadLocked(long now, boolean poolThread) {
    Request<?> head = queue.peekFirst();
    if (head == null || headAwaitsExit || (!poolThread && head.caller == null)) {
      return null;
    }
    long until = headDelayedUntil;
    if (until != NOT_DELAYED && now - until < 0) {
      return null;
    }
    Admission a = decideAdmission(head);
    switch (a.kind()) {
      case DELAY -> {
        headDelayedUntil = a.untilNanos();
        if (now - a.untilNanos() < 0) {
          return null;
        }
      }
      case AWAIT_EXIT -> {
        if (running.length > 0) {
          headAwaitsExit = true;
          return null;
        }
      }
      case START -> {}
    }
    int degree = a.kind() == Admission.Kind.START ? a.degree() : 1;
    queue.pollFirst();
    queued = queue.size();
    headDelayedUntil = NOT_DELAYED;
    head.startNanos = now;
    head.startWithDegree(degree, now);
    head.threads = 1;
    head.phase = Request.RUNNING;
    Request<?>[] rs = Arrays.copyOf(running, running.length + 1);
    rs[rs.length - 1] = head;
    running = rs;
    takeSlotLocked(now);
    tookHelp = false;
    return head;
  }

  private Admission decideAdmission(Request<?> head) {
    try {
      Admission a = policy.admit(head, view);
      return a != null ? a : Admission.start(1);
    } catch (Throwable e) {
      LOG.log(System.Logger.Level.WARNING, "policy " + policy.spec() + " failed; starting", e);
      return Admission.start(1);
    }
  }

  private void takeSlotLocked(long now) {
    freeSlots--;
    metrics.observeBusyWorkers(now, poolSize - freeSlots);
  }

  private void releaseSlotLocked(long now) {
    freeSlots++;
    metrics.observeBusyWorkers(now, poolSize - freeSlots);
  }

  /** Announces an admission; called by the thread about to run the body, outside the lock. */
  private void admitted(Request<?> r) {
    SchedulerEvents.Admission e = new SchedulerEvents.Admission();
    if (e.shouldCommit()) {
      e.requestId = r.id;
      e.degree = r.degree;
      e.queueingNanos = r.startNanos - r.arrivalNanos;
      e.active = running.length;
      e.queued = queued;
      e.commit();
    }
    if (listener != null) {
      try {
        listener.requestAdmitted(r, r.degree);
      } catch (Throwable ex) {
        LOG.log(System.Logger.Level.WARNING, "scheduler listener failed", ex);
      }
    }
  }

  // ---- running --------------------------------------------------------------------------------

  /**
   * A worker's loop body: runs what it was assigned, then either assigns the worker its next work
   * or parks it among the idle.
   */
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
      now = bodyEnd != Request.UNKNOWN ? bodyEnd : System.nanoTime();
      if (body) {
        r.bodyDone = true;
        r.held.clear();
      }
      r.threads--;
      releaseSlotLocked(now);
      complete = r.bodyDone && r.threads == 0;
      if (complete) {
        removeRunningLocked(r);
        r.phase = Request.DONE;
        headAwaitsExit = false;
        finishing++;
      } else if (w != null) {
        nextForWorkerLocked(w, now);
      }
      dispatchLocked(now);
    } finally {
      unlockAndWake();
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
  private void finished(Worker w) {
    lock.lock();
    try {
      finishing--;
      long now = System.nanoTime();
      if (w != null) {
        nextForWorkerLocked(w, now);
      }
      dispatchLocked(now);
      maybeStopLocked();
    } finally {
      unlockAndWake();
    }
  }

  /**
   * Gives a worker without work its next work: pool work is its own, callers it finds are woken.
   * With none, the worker joins the idle.
   */
  private void nextForWorkerLocked(Worker w, long now) {
    while (freeSlots > 0) {
      Request<?> r = takeWorkLocked(now, true);
      if (r == null) {
        break;
      }
      if (tookHelp || r.caller == null) {
        w.assign(r, tookHelp);
        return;
      }
      wakeCaller(r);
    }
    idle.push(w);
  }

  private void removeRunningLocked(Request<?> r) {
    Request<?>[] rs = running;
    int i = 0;
    while (rs[i] != r) {
      i++;
    }
    Request<?>[] out = new Request<?>[rs.length - 1];
    System.arraycopy(rs, 0, out, 0, i);
    System.arraycopy(rs, i + 1, out, i, rs.length - i - 1);
    running = out.length == 0 ? NONE_RUNNING : out;
  }

  /**
   * Reports a request and completes its future; called exactly once per request, outside the lock.
   * The report comes first, so that whoever waits on the future finds it in the metrics.
   */
  private void finish(Request<?> r, long end) {
    RequestRecord record = r.record(end, outcome(r));
    metrics.record(record);
    SchedulerEvents.Completed e = new SchedulerEvents.Completed();
    if (e.shouldCommit()) {
      e.requestId = r.id;
      e.outcome = record.outcome().name();
      e.latencyNanos = record.latencyNanos();
      e.workNanos = record.workNanos();
      e.maxDegree = record.maxDegree();
      e.commit();
    }
    if (listener != null) {
      try {
        listener.requestCompleted(record);
      } catch (Throwable ex) {
        LOG.log(System.Logger.Level.WARNING, "scheduler listener failed", ex);
      }
    }
    complete(r);
  }

  private static RequestRecord.Outcome outcome(Request<?> r) {
    if (r.future.isCancelled() || r.cancelled) {
      return RequestRecord.Outcome.CANCELLED;
    }
    return r.bodyFailure != null || r.unitFailure() != null
        ? RequestRecord.Outcome.FAILED
        : RequestRecord.Outcome.COMPLETED;
  }

  private static <T> void complete(Request<T> r) {
    Throwable failure = r.bodyFailure != null ? r.bodyFailure : r.unitFailure();
    if (r.cancelled) {
      r.future.cancel(false);
    } else if (failure != null) {
      r.future.failFromRequest(failure);
    } else {
      r.future.completeFromRequest(r.result);
    }
  }

  /** A unit was forked: wake a free slot if the request may take another thread. */
  void unitForked(Request<?> r) {
    if (freeSlots > 0 && r.threads < Math.max(1, r.degree)) {
      lock.lock();
      try {
        dispatchLocked(System.nanoTime());
      } finally {
        unlockAndWake();
      }
    }
  }

  /**
   * Asks the policy for a running request's degree and applies the answer, lock-free. The tick also
   * refreshes the request's long flag; unit boundaries leave that to the tick.
   */
  void reevaluate(Request<?> r, boolean tick) {
    long now = System.nanoTime();
    if (tick) {
      r.checkLong(longThresholdNanos, now);
    }
    int d;
    try {
      d = Math.max(0, policy.degree(r, view));
    } catch (Throwable e) {
      LOG.log(System.Logger.Level.WARNING, "policy " + policy.spec() + " failed; degree kept", e);
      return;
    }
    if (d == r.degree || r.phase != Request.RUNNING) {
      return;
    }
    int old = r.changeDegree(d, now);
    if (old == d) {
      return; // another thread applied the same answer first
    }
    SchedulerEvents.DegreeChange e = new SchedulerEvents.DegreeChange();
    if (e.shouldCommit()) {
      e.requestId = r.id;
      e.from = old;
      e.to = d;
      e.elapsedNanos = now - r.startNanos;
      e.workNanos = r.workNanos(now);
      e.commit();
    }
    if (listener != null) {
      try {
        listener.degreeChanged(r, old, d);
      } catch (Throwable ex) {
        LOG.log(System.Logger.Level.WARNING, "scheduler listener failed", ex);
      }
    }
    if (d > old && !r.held.isEmpty()) {
      unitForked(r);
    }
  }

  void longThreadsChanged(int delta) {
    longThreads.addAndGet(delta);
  }

  /** Cancels a request whose future was just cancelled. */
  void cancel(Request<?> r, boolean interrupt) {
    boolean dequeued = false;
    lock.lock();
    try {
      r.cancelled = true;
      r.held.clear();
      if (r.phase == Request.QUEUED) {
        removeQueuedLocked(r);
        r.phase = Request.DONE;
        finishing++;
        dequeued = true;
      }
    } finally {
      unlockAndWake();
    }
    if (dequeued) {
      finish(r, System.nanoTime());
      if (r.caller != null) {
        LockSupport.unpark(r.caller);
      }
      finished(null);
    } else if (interrupt && r.caller == null) {
      r.interruptBody();
    }
  }

  /** The quantum tick: re-evaluates every running request without taking the lock. */
  private void tick() {
    try {
      while (!stopping) {
        LockSupport.parkNanos(this, quantumNanos);
        long now = System.nanoTime();
        for (Request<?> r : running) {
          reevaluate(r, true);
        }
        long until = headDelayedUntil;
        if (until != NOT_DELAYED && now - until >= 0 && freeSlots > 0) {
          lock.lock();
          try {
            dispatchLocked(System.nanoTime()); // busy-time observations stay in time order
          } finally {
            unlockAndWake();
          }
        }
      }
    } finally {
      terminated.countDown();
    }
  }

  /** After a shutdown, once nothing is queued or running, stops the workers and the ticker. */
  private void maybeStopLocked() {
    if (shutdown && !stopping && queue.isEmpty() && running.length == 0 && finishing == 0) {
      stopping = true;
      for (Worker w : workers) {
        w.stop();
      }
      LockSupport.unpark(ticker);
    }
  }

  void workerExited() {
    terminated.countDown();
  }

  /** The load measures, read live. */
  private final class View implements SystemView {
    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public int poolSize() {
      return poolSize;
    }

    @Override
    public int activeRequests() {
      return running.length;
    }

    @Override
    public int queuedRequests() {
      return queued;
    }

    @Override
    public int busyWorkers() {
      return poolSize - freeSlots;
    }

    @Override
    public int busyThreadsOnLongRequests() {
      return longThreads.get();
    }
  }

  /** Work (or prediction) from which a request counts as long unless configured: 80 ms, as TPC. */
  public static final long DEFAULT_LONG_THRESHOLD_NANOS = 80_000_000L;

  /** Configures a {@link Scheduler}. */
  public static final class Builder {
    private Policy policy = PolicyRegistry.of("seq");
    private int workers = Runtime.getRuntime().availableProcessors();
    private int queueCapacity = 10_000;
    private long quantumNanos = 5_000_000L;
    private long longThresholdNanos = DEFAULT_LONG_THRESHOLD_NANOS;
    private RequestClasses classes = RequestClasses.tpcDefault();
    private SchedulerListener listener;
    private ThreadFactory threadFactory = Worker.DEFAULT_FACTORY;

    private Builder() {}

    /** The policy; default {@code seq}. */
    public Builder policy(Policy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** The policy named by a specification, through {@link PolicyRegistry#standard()}. */
    public Builder policy(String spec) {
      return policy(PolicyRegistry.of(spec));
    }

    /**
     * The parallelism budget: worker threads, and slots shared with callers of {@link #run};
     * default one per available processor. More than the processors oversubscribes, as FM and TPC
     * do slightly.
     */
    public Builder workers(int workers) {
      if (workers < 1) {
        throw new IllegalArgumentException("workers must be >= 1, got " + workers);
      }
      this.workers = workers;
      return this;
    }

    /** The most requests that may wait for admission; beyond it submissions are rejected. */
    public Builder queueCapacity(int capacity) {
      if (capacity < 1) {
        throw new IllegalArgumentException("queueCapacity must be >= 1, got " + capacity);
      }
      this.queueCapacity = capacity;
      return this;
    }

    /** How often running requests are re-evaluated; default 5 ms. */
    public Builder quantum(Duration quantum) {
      long nanos = quantum.toNanos();
      if (nanos <= 0) {
        throw new IllegalArgumentException("quantum must be positive, got " + quantum);
      }
      this.quantumNanos = nanos;
      return this;
    }

    /** Work (or prediction) from which a request counts as long; default 80 ms, as in TPC. */
    public Builder longRequestThreshold(Duration threshold) {
      this.longThresholdNanos = threshold.toNanos();
      return this;
    }

    /** The classes the metrics' degree distribution is kept by; default TPC's. */
    public Builder requestClasses(RequestClasses classes) {
      this.classes = Objects.requireNonNull(classes, "classes");
      return this;
    }

    /** A listener for admissions, degree changes and completions. */
    public Builder listener(SchedulerListener listener) {
      this.listener = listener;
      return this;
    }

    /** Makes the worker and ticker threads; default: daemon threads named {@code tailor-*}. */
    public Builder threadFactory(ThreadFactory factory) {
      this.threadFactory = Objects.requireNonNull(factory, "threadFactory");
      return this;
    }

    /** Starts the scheduler's threads and returns it. */
    public Scheduler build() {
      return new Scheduler(this);
    }
  }
}
