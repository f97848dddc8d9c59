package dev.tailor.core;

import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.metrics.RequestGroups;
import dev.tailor.core.metrics.RunMetrics;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.PolicySpec;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.SystemView;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

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
 * exception in a body or a unit fails that request only. A policy or a listener that throws fails
 * nothing: the failure is logged once per kind (then only counted, so a policy that throws at every
 * question does not flood the log) and a safe default is used; the scheduler's threads survive it.
 *
 * <p>Cancellation is cooperative: the scheduler never interrupts a thread, since an interrupt can
 * close the file channels of a Lucene index under every search (see {@link
 * CompletableFuture#cancel} on the future {@link #submit} returns). A cancelled request's body and
 * units see it through {@link RequestContext#isCancelled()} and {@link
 * RequestContext#mayContinue()}.
 *
 * <p>Thread-safe: one scheduler is meant to be shared by every searching thread of an application,
 * as an {@code IndexSearcher}'s executor is. Who gets a free thread is decided by the {@link
 * Dispatcher dispatch core} under one short lock; degrees are re-read without it.
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

  private final Object policyLock = new Object(); // orders swaps and the close
  private volatile Policy policy;
  private volatile boolean ownsPolicy;
  private final int workers;
  private final long promptBoundNanos;
  private final AtomicLong ids = new AtomicLong();
  private final WorkerPool pool;

  private Scheduler(Settings s) {
    this.policy = s.policy;
    this.ownsPolicy = s.ownsPolicy;
    this.workers = s.workers;
    this.promptBoundNanos = s.promptBoundNanos;
    this.pool = new WorkerPool(this, s);
  }

  /**
   * The policy a scheduler runs unless told otherwise: tail-control's steal-first (Li et al.,
   * PPoPP'16), which needs no table, with prompt admission. A free thread helps the oldest running
   * request that has work for it, and an arrival takes a helper's thread within about a
   * millisecond. Chosen by the regret tables: in the simulator at 16 cores its worst P99 ratio
   * across loads of 30-90% to the best policy at each load was 1.00 on three measured profiles (3
   * seeds); in one real sweep on 2 cores (5 interleaved runs a point) its P99 was 0.72 [0.66-0.88]
   * of plain Lucene's at 5% of capacity and not distinguishable from it at 15% and 40%
   * (docs/results/one-configuration.md).
   */
  public static final String DEFAULT_POLICY = "steal-first";

  /**
   * The threads lent to helpers beyond the budget unless {@link Builder#slack(int)} says otherwise:
   * one, as Lucene's executor runs its caller beside a pool of one thread per core.
   */
  public static final int DEFAULT_SLACK = 1;

  /** A builder with the defaults: {@value #DEFAULT_POLICY}, one worker per available processor. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Queues a request whose body runs on a pool worker.
   *
   * @return a future completed exactly once with the body's result or failure; cancelling it
   *     cancels the request, cooperatively: no thread is interrupted. Waiting for it from inside a
   *     request of this scheduler runs it on the waiting thread if it is still queued, so that
   *     nested work cannot deadlock
   * @throws RejectedExecutionException if the scheduler is shut down or the admission queue is full
   */
  public <T> CompletableFuture<T> submit(RequestBody<T> body, RequestAttributes attributes) {
    Request<T> r = newRequest(body, attributes, null);
    pool.enqueue(r);
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
   * @return the body's result, handed back on this thread (no future is made)
   * @throws Exception what the body threw, as it threw it; a failure of one of its units that the
   *     body did not see (it forked and returned without joining) as a {@link
   *     java.util.concurrent.CompletionException} whose cause is that failure
   * @throws CancellationException if the request was cancelled or the scheduler shut down now
   * @throws RejectedExecutionException if the scheduler is shut down or the admission queue is full
   * @throws InterruptedException if interrupted while waiting for admission (the request leaves the
   *     queue)
   */
  public <T> T run(RequestBody<T> body, RequestAttributes attributes) throws Exception {
    Request<?> outer = Request.current();
    if (outer != null && outer.scheduler == this) {
      return body.run(outer.context);
    }
    Request<T> r = newRequest(body, attributes, Thread.currentThread());
    pool.enqueue(r);
    pool.awaitAdmission(r);
    if (r.phase() == Request.Phase.DONE) {
      throw new CancellationException("request " + r.id + " was cancelled before it ran");
    }
    pool.runOnThisThread(r);
    return r.awaitOnCaller();
  }

  /** {@link #run(RequestBody, RequestAttributes)} with no attributes. */
  public <T> T run(RequestBody<T> body) throws Exception {
    return run(body, RequestAttributes.NONE);
  }

  /**
   * Opens a request on the calling thread and returns at once when it is admitted, for a caller
   * whose work runs on its own thread between two callbacks rather than as a body it can hand over
   * (a search engine's query phase). The request waits for admission like any queued request; once
   * admitted, the thread holds one slot of the budget and is the request's own thread until the
   * returned scope is {@linkplain RequestScope#close() closed} on it: {@link
   * RequestContext#current()} is the request and the units it forks go to helpers as its degree
   * allows. Called from inside a request of this scheduler, the scope is part of that request (as a
   * nested {@link #run} is) and its close ends nothing.
   *
   * @return the open scope; close it on this thread, also when the work fails
   * @throws CancellationException if the request was cancelled, or the scheduler shut down now,
   *     while it waited for admission
   * @throws RejectedExecutionException if the scheduler is shut down or the admission queue is full
   * @throws InterruptedException if interrupted while waiting for admission (the request leaves the
   *     queue and completes as cancelled)
   */
  @Experimental
  public RequestScope enter(RequestAttributes attributes) throws InterruptedException {
    Request<?> outer = Request.current();
    if (outer != null && outer.scheduler == this) {
      return RequestScope.nested(outer);
    }
    Request<Void> r = newRequest(RequestScope.NO_BODY, attributes, Thread.currentThread());
    pool.enqueue(r);
    pool.awaitAdmission(r);
    if (r.phase() == Request.Phase.DONE) {
      throw new CancellationException("request " + r.id + " was cancelled before it was admitted");
    }
    return RequestScope.open(pool, r);
  }

  private <T> Request<T> newRequest(RequestBody<T> body, RequestAttributes attrs, Thread caller) {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(attrs, "attributes");
    return new Request<>(this, pool, ids.incrementAndGet(), attrs, body, caller, pool.nanoTime());
  }

  /** The policy deciding admissions and degrees now. */
  public Policy policy() {
    return policy;
  }

  /**
   * Swaps the policy, live: every later question (admissions, degrees of running requests too) goes
   * to {@code policy}, on the same threads and queue; a question being answered as it is swapped
   * may still reach the old one. The scheduler does not own {@code policy}: whoever made it closes
   * it. The policy it replaces is returned; if the scheduler owned that one (built from a
   * specification) it has been closed.
   *
   * @return the policy that decided until now
   */
  public Policy setPolicy(Policy policy) {
    return swapPolicy(Objects.requireNonNull(policy, "policy"), false);
  }

  /**
   * {@link #setPolicy(Policy)} with the policy named by a specification, through {@link
   * PolicyRegistry#standard()}: the scheduler owns it and closes it when it is swapped out or the
   * scheduler is closed.
   *
   * @throws IllegalArgumentException if the specification names no policy or its arguments are bad
   */
  public Policy setPolicy(String spec) {
    return swapPolicy(PolicyRegistry.of(spec), true);
  }

  /**
   * {@link #setPolicy(Policy)} with the policy a typed specification names (its table files given
   * as paths), through {@link PolicyRegistry#standard()}: the scheduler owns it, as {@link
   * #setPolicy(String)}.
   *
   * @throws IllegalArgumentException if the specification names no policy or its arguments are bad
   */
  public Policy setPolicy(PolicySpec spec) {
    return swapPolicy(PolicyRegistry.of(spec), true);
  }

  private Policy swapPolicy(Policy next, boolean owned) {
    Policy old;
    boolean closeOld;
    synchronized (policyLock) {
      old = pool.setPolicy(next);
      closeOld = ownsPolicy;
      policy = next;
      ownsPolicy = owned;
    }
    if (closeOld) {
      old.close();
    }
    return old;
  }

  /**
   * Whether arrivals are admitted promptly ({@link Builder#promptAdmission(boolean)}): then a
   * helper claims at most {@link dev.tailor.core.model.GuidedClaims#PROMPT_NANOS} of its request's
   * work at a time.
   */
  public boolean promptAdmission() {
    return pool.dispatch.promptAdmission();
  }

  /**
   * How many threads helpers may hold beyond the budget under prompt admission ({@link
   * Builder#slack(int)}).
   */
  public int slack() {
    return pool.dispatch.slack();
  }

  /**
   * The most time a helper's claim takes under prompt admission ({@link
   * Builder#promptBound(Duration)}): how long an arriving request waits, about, for a helper's
   * thread.
   */
  public long promptBoundNanos() {
    return promptBoundNanos;
  }

  /** The live load measures policies see. */
  public SystemView systemView() {
    return pool.dispatch.view();
  }

  /** Runs one tick of the ticker now, on the calling thread; for tests, instead of waiting. */
  void tick() {
    pool.ticker.tick();
  }

  /** The failures this scheduler survived; for tests. */
  FailureLog failures() {
    return pool.failures;
  }

  /**
   * The failures this scheduler survived so far, counted by kind: a policy, a listener or a
   * scheduler thread that threw, whose first failure of each kind was logged (see the class
   * comment). A kind names what failed, such as {@code policy.degree}, {@code policy.admit}, {@code
   * listener.requestCompleted}, {@code ticker} or {@code worker}: a fixed name in the scheduler's
   * code, so there are a few at most. Only kinds that failed at least once are present. Failures of
   * requests' own bodies are not here: they fail their request and count in {@link #metrics()}.
   *
   * @return a copy, kinds in name order
   */
  public Map<String, Long> failureCounts() {
    return pool.failures.counts();
  }

  /** The metrics of every request completed so far. */
  public RunMetrics metrics() {
    return pool.metrics;
  }

  /** Busy threads of the budget, averaged over time since the scheduler started. */
  public double meanBusyWorkers() {
    return pool.meanBusyWorkers();
  }

  /** The worker threads: the most threads search can use, and the elastic budget's maximum. */
  public int workers() {
    return workers;
  }

  /**
   * The threads search may use now: {@link #workers()} unless the budget is {@linkplain
   * Builder#elasticBudget elastic}.
   */
  public int budget() {
    return pool.dispatch.budget();
  }

  /** The budget, averaged over time since the scheduler started. */
  public double meanBudget() {
    return pool.meanBudget();
  }

  /**
   * The cores the elastic budget gives back, for the application's background work; none while the
   * budget is static, all once the scheduler has stopped.
   */
  public ReturnedCores returnedCores() {
    return pool.returnedCores;
  }

  /** Stops admitting new requests; queued and running ones finish. Idempotent. */
  public void shutdown() {
    pool.shutdown();
  }

  /**
   * Stops admitting, fails every queued request with a {@link CancellationException} and cancels
   * every running one: held units are dropped and the request is flagged, as a cancelled future
   * does; no thread is interrupted, so a running body ends when it sees the flag or returns.
   *
   * @return the number of queued requests that were failed
   */
  public int shutdownNow() {
    return pool.shutdownNow();
  }

  /** Whether {@link #shutdown()} or {@link #shutdownNow()} has been called. */
  public boolean isShutdown() {
    return pool.isShutdown();
  }

  /** Whether the scheduler has shut down and every thread of it has exited. */
  public boolean isTerminated() {
    return pool.isTerminated();
  }

  /** Waits until every thread has exited after a shutdown, as {@code ExecutorService} does. */
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return pool.awaitTermination(unit.toNanos(timeout));
  }

  /**
   * Shuts down and waits for termination, as {@code ExecutorService.close()} does, then closes the
   * policy if the scheduler created it from a specification ({@link Builder#policy(String)}). A
   * policy handed in as an object is not closed: whoever created it closes it.
   */
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
    synchronized (policyLock) {
      if (ownsPolicy) {
        policy.close();
        ownsPolicy = false;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    SystemView v = systemView();
    return "Scheduler[policy "
        + policy.spec()
        + ", "
        + workers
        + " workers, "
        + v.activeRequests()
        + " active, "
        + v.queuedRequests()
        + " queued]";
  }

  /** Work (or prediction) from which a request counts as long unless configured: 80 ms, as TPC. */
  public static final long DEFAULT_LONG_THRESHOLD_NANOS = 80_000_000L;

  /** How often the policy is asked again for every running request unless configured: 5 ms. */
  public static final long DEFAULT_QUANTUM_NANOS = 5_000_000L;

  /**
   * How often an elastic budget is resized unless configured: 1 ms, half of a typical 2 ms search,
   * as McClure et al.'s 5 µs interval is half of their 10 µs tasks (NSDI'22, Section 4.1).
   */
  public static final long DEFAULT_BUDGET_PERIOD_NANOS = 1_000_000L;

  /** Configures a {@link Scheduler}. */
  public static final class Builder {
    final Settings settings = new Settings();

    private Builder() {}

    /** The policy; default {@value Scheduler#DEFAULT_POLICY}. */
    public Builder policy(Policy policy) {
      settings.policy(policy, false);
      return this;
    }

    /**
     * The policy named by a specification, through {@link PolicyRegistry#standard()}. The scheduler
     * owns this policy and closes it when it is closed.
     */
    public Builder policy(String spec) {
      return policy(PolicySpec.parse(spec));
    }

    /**
     * The policy a typed specification names, its table files given as paths ({@link
     * PolicySpec#of}, {@link PolicySpec#ofTables}), through {@link PolicyRegistry#standard()}. The
     * scheduler owns this policy and closes it when it is closed.
     */
    public Builder policy(PolicySpec spec) {
      settings.once("policy");
      settings.policy = PolicyRegistry.of(spec);
      settings.ownsPolicy = true;
      return this;
    }

    /**
     * The parallelism budget: worker threads, and slots shared with callers of {@link #run};
     * default one per available processor. More than the processors oversubscribes, as FM and TPC
     * do slightly.
     */
    public Builder workers(int workers) {
      settings.workers(workers);
      return this;
    }

    /** The most requests that may wait for admission; beyond it submissions are rejected. */
    public Builder queueCapacity(int capacity) {
      settings.queueCapacity(capacity);
      return this;
    }

    /** How often running requests are re-evaluated; default 5 ms. */
    public Builder quantum(Duration quantum) {
      settings.quantum(quantum);
      return this;
    }

    /**
     * How long an idle worker, and a request's own thread waiting for its helpers in {@link
     * RequestContext#joinUnits()}, spin before they park: they re-check for work with {@link
     * Thread#onSpinWait()}, yielding the processor every few microseconds. Work that comes within
     * the spin is taken without waking a parked thread, which saves a request that goes parallel
     * one or two wake-ups (several to tens of microseconds each, the most on virtual machines). A
     * worker spins once after each assignment, never after a wake-up without work, so an idle
     * scheduler parks every thread and uses no processor; under load the spinning costs at most
     * this long per assignment and per join. Default 20 µs, or zero on a single processor, where a
     * spinning thread only holds up the one it waits for; {@link Duration#ZERO} disables spinning.
     *
     * @throws IllegalArgumentException if {@code spin} is negative
     */
    public Builder spinBeforePark(Duration spin) {
      settings.spinBeforePark(spin);
      return this;
    }

    /**
     * Whether a request that arrives while every thread is busy is admitted promptly; default on.
     * On, a helper claims at most about a millisecond of its request's windows at a time, by the
     * request's pace so far, and at the end of a claim gives its thread to a request of the same
     * class that waits for admission when the policy would admit it now; a free thread goes to such
     * a request before any running request gets a helper, whatever the policy's preference. A
     * request's own thread is never preempted. Off, a policy that helps first (tail-control's
     * steal-first) keeps free threads on running requests while they want helpers, as the paper
     * describes it (Li et al., PPoPP'16, Section 4).
     */
    public Builder promptAdmission(boolean on) {
      settings.promptAdmission(on);
      return this;
    }

    /**
     * Under prompt admission, how many threads helpers may hold beyond the budget; default 1. A
     * request the policy admits starts at once on its own thread whenever the own threads of
     * running requests are fewer than the budget, whatever helpers hold: own threads never exceed
     * the budget; a helper joins only while own threads and helpers are fewer than the budget plus
     * the slack and own threads fewer than the budget, and leaves at the end of its claim while
     * they are more, the operating system time-slicing the cores among them meanwhile. The slack
     * hides a helper's late start (Lucene's executor runs its caller beside a pool of one thread
     * per core for the same reason); 0 keeps every thread within the budget but the helpers told to
     * leave. Without prompt admission no thread is lent and the slack does nothing.
     *
     * @throws IllegalArgumentException if {@code threads} is negative; building fails if it exceeds
     *     the workers
     */
    public Builder slack(int threads) {
      settings.slack(threads);
      return this;
    }

    /**
     * Under prompt admission, the most time a helper's claim of its request's windows takes, at the
     * request's pace so far: about how long an arrival waits for a helper's thread (a window more
     * where one window is longer). Default 1 ms ({@link
     * dev.tailor.core.model.GuidedClaims#PROMPT_NANOS}). Shorter bounds cost more claims; {@code
     * ./tailor bench prompt-claims} prints what the default costs.
     *
     * @throws IllegalArgumentException if {@code bound} is zero, negative or longer than a minute
     */
    public Builder promptBound(Duration bound) {
      settings.promptBound(bound);
      return this;
    }

    /**
     * Work (or prediction) from which a request counts as long; default 80 ms, as in TPC.
     *
     * @throws IllegalArgumentException if {@code threshold} is not positive
     */
    public Builder longRequestThreshold(Duration threshold) {
      settings.longRequestThreshold(threshold);
      return this;
    }

    /** The groups the metrics' degree distribution is kept by; default TPC's. */
    public Builder requestGroups(RequestGroups groups) {
      settings.once("requestGroups");
      settings.groups = Objects.requireNonNull(groups, "groups");
      return this;
    }

    /**
     * The share of the thread budget a priority class is entitled to whenever it has work: its
     * floor. The rule: the floor is {@code share * workers} threads rounded down, but at least one
     * if the share is above zero. While the class has work (a queued request, or a running one that
     * wants a helper) and holds fewer threads than its floor, a free slot goes to it before any
     * higher class; and promptness (a lower-class helper leaving at its next unit boundary when a
     * higher class's request waits) never takes the class below its floor. The floor holds within
     * the budget: once requests' own threads fill it, every helper leaves, whatever its class, as
     * it would only time-slice with them. A share of 0 is strict priority: the class runs only on
     * what higher classes leave, and may starve under sustained higher-class load.
     *
     * <p>Default: every class below {@link PriorityClass#INTERACTIVE} keeps one thread (the rule's
     * minimum), so background work always progresses, as operators expect, at the cost of at most
     * one thread of the budget for interactive requests while background work is present. The
     * highest class needs no floor: it is never preempted.
     *
     * @throws IllegalArgumentException if the share is not in [0, 1] or the class is the highest
     */
    public Builder classShare(PriorityClass priorityClass, double share) {
      settings.classShare(priorityClass, share);
      return this;
    }

    /**
     * Makes the budget of threads elastic: it starts at {@link #workers(int) workers}, and at the
     * end of every {@code period} {@code policy} resizes it, within [{@code minWorkers}, workers],
     * from the period's utilization and queueing delay (McClure et al., NSDI'22, Section 4.1).
     * Threads the budget does not give search are {@linkplain Scheduler#returnedCores() returned}
     * for the application's background work. A shrink takes no thread away mid-unit: helpers leave
     * at their next unit boundary, a request's own thread finishes its body, and no slot is handed
     * out until the busy threads are within the budget. A growth frees slots at once.
     *
     * @param minWorkers the least budget, at least 1 (no request is ever stranded) and at most
     *     workers (checked when the scheduler is built)
     * @throws IllegalArgumentException if {@code minWorkers < 1} or the period is not positive
     */
    @Experimental
    public Builder elasticBudget(BudgetPolicy policy, int minWorkers, Duration period) {
      settings.elasticBudget(policy, minWorkers, period);
      return this;
    }

    /** A listener for admissions, degree changes and completions. */
    public Builder listener(SchedulerListener listener) {
      settings.once("listener");
      settings.listener = listener;
      return this;
    }

    /**
     * Hears every decision of the dispatch core, in order: the same hook as the simulator's. Not
     * API: Tailor's own tests reach it through {@link SchedulerInternals}.
     */
    Builder decisionListener(Dispatcher.DecisionListener listener) {
      settings.once("decisionListener");
      settings.decisions = listener;
      return this;
    }

    /**
     * The clock requests' times are read from, and the one policies see ({@link
     * SystemView#nanoTime()}); default {@link System#nanoTime()}. For tests that must control time
     * rather than wait for it: the ticker still ticks every quantum of real time, and spinning
     * threads spin in real time.
     */
    Builder clock(LongSupplier clock) {
      settings.once("clock");
      settings.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Makes the worker and ticker threads; default: daemon threads named {@code tailor-*}. */
    public Builder threadFactory(ThreadFactory factory) {
      settings.once("threadFactory");
      settings.threadFactory = Objects.requireNonNull(factory, "threadFactory");
      return this;
    }

    /**
     * Checks the options against each other, then starts the scheduler's threads and returns it.
     *
     * @throws IllegalStateException if the options contradict each other (an elastic budget's least
     *     size above the workers)
     */
    public Scheduler build() {
      settings.check();
      return new Scheduler(settings);
    }
  }
}
