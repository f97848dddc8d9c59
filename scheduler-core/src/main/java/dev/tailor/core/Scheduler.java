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
import java.util.function.LongSupplier;

/**
 * Runs search requests on a fixed budget of threads and decides, through a {@link Policy}, when
 * each request starts and how many threads work on it as it runs: the executor of a {@code
 * TailorSearcher}, which replaces {@code new IndexSearcher(reader, executor)}.
 *
 * <p>A request waits in one bounded FIFO admission queue, and while it runs it holds one slot of
 * the budget of {@link Builder#workers(int) workers} threads on its own thread. Idle threads join
 * it as helpers while its degree allows: degree {@code d} means up to {@code d} threads on the
 * request, its own included. The policy is asked for a degree every quantum and at every boundary
 * of the work, so a running request can gain threads or stop gaining them.
 *
 * <p>Every request completes exactly once, with its result, its exception or a cancellation. An
 * exception in a request fails that request only. A policy or a listener that throws fails nothing:
 * the failure is logged once per kind (then only counted) and a safe default is used; the
 * scheduler's threads survive it. Cancellation is cooperative: the scheduler never interrupts a
 * thread, since an interrupt can close the file channels of a Lucene index under every search.
 *
 * <p>Thread-safe: one scheduler is meant to be shared by every searching thread of an application,
 * as an {@code IndexSearcher}'s executor is. Who gets a free thread is decided by the {@link
 * Dispatcher dispatch core} under one short lock; degrees are re-read without it. The scheduler
 * owns its policy ({@link #setPolicy}).
 *
 * <pre>{@code
 * try (Scheduler scheduler = Scheduler.builder().workers(8).build();  // steal-first
 *     IndexReader reader = DirectoryReader.open(directory)) {
 *   TailorSearcher searcher = new TailorSearcher(reader, scheduler);
 *   TopDocs top = searcher.search(query, 10);
 * }
 * }</pre>
 */
public final class Scheduler implements AutoCloseable {

  private final OwnedPolicy policy; // closed when replaced, and at close
  private final int workers;
  private final Tuning tuning;
  private final WorkerPool pool;
  private final EntryPaths entry; // submit, run and enter

  private Scheduler(Settings s) {
    this.policy = new OwnedPolicy(s.policy);
    this.workers = s.workers;
    this.tuning = s.tuning;
    this.pool = new WorkerPool(this, s);
    this.entry = new EntryPaths(this, pool);
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
   * The threads lent to helpers beyond the budget unless {@link Tuning#withSlack(int)} says
   * otherwise: one, as Lucene's executor runs its caller beside a pool of one thread per core.
   */
  public static final int DEFAULT_SLACK = 1;

  /** A builder with the defaults: {@value #DEFAULT_POLICY}, one worker per available processor. */
  public static Builder builder() {
    return new Builder();
  }

  /** Queues a request whose body runs on a pool worker ({@link EntryPaths#submit}). */
  <T> CompletableFuture<T> submit(RequestBody<T> body, RequestAttributes attributes) {
    return entry.submit(body, attributes);
  }

  /** {@link #submit(RequestBody, RequestAttributes)} with no attributes. */
  <T> CompletableFuture<T> submit(RequestBody<T> body) {
    return submit(body, RequestAttributes.NONE);
  }

  /**
   * Queues a plain task as a request whose body runs on a pool worker, as {@code
   * ExecutorService.submit} does; searches of a {@code TailorSearcher} on this scheduler called
   * from the task run as part of its request.
   *
   * @return a future completed exactly once with the task's result or failure; cancelling it
   *     cancels the request, cooperatively: no thread is interrupted
   * @throws RejectedExecutionException if the scheduler is shut down or the admission queue is full
   */
  public <T> CompletableFuture<T> submit(Callable<T> task) {
    return submit(task, RequestAttributes.NONE);
  }

  /**
   * {@link #submit(Callable)} with the request's attributes: a label, a predicted time, a priority
   * class.
   */
  public <T> CompletableFuture<T> submit(Callable<T> task, RequestAttributes attributes) {
    Objects.requireNonNull(task, "task");
    return submit(ctx -> task.call(), attributes);
  }

  /**
   * Runs a request on the calling thread once it is admitted, or at once as part of the request the
   * thread is in ({@link EntryPaths#run}).
   */
  <T> T run(RequestBody<T> body, RequestAttributes attributes) throws Exception {
    return entry.run(body, attributes);
  }

  /** {@link #run(RequestBody, RequestAttributes)} with no attributes. */
  <T> T run(RequestBody<T> body) throws Exception {
    return run(body, RequestAttributes.NONE);
  }

  /**
   * Opens a request on the calling thread without a body, once it is admitted ({@link
   * EntryPaths#enter}); close the scope on this thread.
   */
  RequestScope enter(RequestAttributes attributes) throws InterruptedException {
    return entry.enter(attributes);
  }

  /** The policy deciding admissions and degrees now. */
  public Policy policy() {
    return policy.current();
  }

  /**
   * Swaps the policy, live: every later question (admissions, degrees of running requests too) goes
   * to {@code policy}, on the same threads and queue; a question being answered as it is swapped
   * may still reach the old one, which answers it though closed. The scheduler owns every policy it
   * is given, at build time or here: it closes the one this replaces (the same policy given again
   * is kept, not closed), and the one it holds when it is closed.
   */
  public void setPolicy(Policy policy) {
    Objects.requireNonNull(policy, "policy");
    this.policy.swap(policy, pool);
  }

  /** The tuning this scheduler was built with. */
  public Tuning tuning() {
    return tuning;
  }

  /** The live load measures policies see. */
  SystemView systemView() {
    return pool.dispatch.view();
  }

  /** Runs one tick of the reevaluator now, on the calling thread; for tests, instead of waiting. */
  void tick() {
    pool.reevaluator.tick();
  }

  /** The failures this scheduler survived; for tests. */
  FailureLog failures() {
    return pool.failures;
  }

  /**
   * The failures this scheduler survived so far, counted by kind: a policy, a listener or a
   * scheduler thread that threw, whose first failure of each kind was logged (see the class
   * comment). A kind names what failed, such as {@code policy.degree}, {@code policy.admit}, {@code
   * listener.requestCompleted}, {@code reevaluator} or {@code worker}: a fixed name in the
   * scheduler's code, so there are a few at most. Only kinds that failed at least once are present.
   * Failures of requests' own bodies are not here: they fail their request and count in {@link
   * #metrics()}.
   *
   * @return a copy, kinds in name order
   */
  Map<String, Long> failureCounts() {
    return pool.failures.counts();
  }

  /** The metrics of every request completed so far. */
  RunMetrics metrics() {
    return pool.metrics;
  }

  /** Busy threads of the budget, averaged over time since the scheduler started. */
  double meanBusyWorkers() {
    return pool.meanBusyWorkers();
  }

  /** The worker threads: the most threads search can use, and the elastic budget's maximum. */
  public int workers() {
    return workers;
  }

  /**
   * The threads search may use now: {@link #workers()} unless the budget is elastic ({@link
   * SchedulerInternals#elasticBudget}).
   */
  public int budget() {
    return pool.dispatch.budget();
  }

  /** The budget, averaged over time since the scheduler started. */
  double meanBudget() {
    return pool.meanBudget();
  }

  /**
   * The cores the elastic budget gives back, for the application's background work; none while the
   * budget is static, all once the scheduler has stopped.
   */
  BackgroundCores backgroundCores() {
    return pool.backgroundCores;
  }

  /** Stops admitting new requests; queued and running ones finish. Idempotent. */
  public void shutdown() {
    pool.lifecycle.shutdown();
  }

  /**
   * Stops admitting, fails every queued request with a {@link CancellationException} and cancels
   * every running one: held units are dropped and the request is flagged, as a cancelled future
   * does; no thread is interrupted, so a running body ends when it sees the flag or returns.
   *
   * @return the number of queued requests that were failed
   */
  public int shutdownNow() {
    return pool.lifecycle.shutdownNow();
  }

  /** Whether {@link #shutdown()} or {@link #shutdownNow()} has been called. */
  public boolean isShutdown() {
    return pool.lifecycle.isShutdown();
  }

  /** Whether the scheduler has shut down and every thread of it has exited. */
  public boolean isTerminated() {
    return pool.lifecycle.isTerminated();
  }

  /** Waits until every thread has exited after a shutdown, as {@code ExecutorService} does. */
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return pool.lifecycle.awaitTermination(unit.toNanos(timeout));
  }

  /**
   * Shuts down and waits for termination, as {@code ExecutorService.close()} does, then closes the
   * policy it holds (the scheduler owns its policies, see {@link #setPolicy}).
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
    policy.close();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    SystemView v = systemView();
    return "Scheduler[policy "
        + policy.current().spec()
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

  /**
   * Configures a {@link Scheduler}: its workers, its policy, its listener and thread factory, and
   * one {@link Tuning} value for everything else. Each option is set at most once.
   */
  public static final class Builder {
    final Settings settings = new Settings();

    private Builder() {}

    /**
     * The policy, from {@link dev.tailor.core.policy.Policies}; default {@value
     * Scheduler#DEFAULT_POLICY}. The scheduler owns it and closes it when it is replaced or the
     * scheduler is closed.
     */
    public Builder policy(Policy policy) {
      settings.policy(policy);
      return this;
    }

    /**
     * The parallelism budget: worker threads, and slots shared with callers of searches; default
     * one per available processor, at most 4,096.
     */
    public Builder workers(int workers) {
      settings.workers(workers);
      return this;
    }

    /** The tuning knobs; default {@link Tuning#defaults()}. */
    public Builder tuning(Tuning tuning) {
      settings.tuning(tuning);
      return this;
    }

    /** A listener for admissions, degree changes and completions. */
    public Builder listener(SchedulerListener listener) {
      settings.once("listener");
      settings.listener = listener;
      return this;
    }

    /** Makes the worker and reevaluator threads; default: daemon threads named {@code tailor-*}. */
    public Builder threadFactory(ThreadFactory factory) {
      settings.once("threadFactory");
      settings.threadFactory = Objects.requireNonNull(factory, "threadFactory");
      return this;
    }

    /**
     * Checks the options against each other, then starts the scheduler's threads and returns it.
     *
     * @throws IllegalStateException if the options contradict each other (a slack or an elastic
     *     budget's least size above the workers)
     */
    public Scheduler build() {
      settings.check();
      return new Scheduler(settings);
    }

    // The knobs one at a time, and the options that are not API, for Tailor's own modules
    // (SchedulerInternals) and this package's tests.

    Builder policy(String spec) {
      return policy(PolicyRegistry.of(spec));
    }

    Builder policy(PolicySpec spec) {
      return policy(PolicyRegistry.of(spec));
    }

    Builder queueCapacity(int capacity) {
      settings.knob("queueCapacity", t -> t.withQueueCapacity(capacity));
      return this;
    }

    Builder quantum(Duration quantum) {
      settings.knob("quantum", t -> t.withQuantum(quantum));
      return this;
    }

    Builder spinBeforePark(Duration spin) {
      settings.knob("spinBeforePark", t -> t.withSpinBeforePark(spin));
      return this;
    }

    Builder promptAdmission(boolean on) {
      settings.knob("promptAdmission", t -> t.withPromptAdmission(on));
      return this;
    }

    Builder slack(int threads) {
      settings.knob("slack", t -> t.withSlack(threads));
      return this;
    }

    Builder promptBound(Duration bound) {
      settings.knob("promptBound", t -> t.withPromptBound(bound));
      return this;
    }

    Builder longRequestThreshold(Duration threshold) {
      settings.knob("longRequestThreshold", t -> t.withLongRequestThreshold(threshold));
      return this;
    }

    Builder classShare(PriorityClass priorityClass, double share) {
      settings.knob(
          "classShare(" + priorityClass.label() + ")", t -> t.withClassShare(priorityClass, share));
      return this;
    }

    /** The groups the metrics' degree distribution is kept by; default TPC's. */
    Builder requestGroups(RequestGroups groups) {
      settings.once("requestGroups");
      settings.groups = Objects.requireNonNull(groups, "groups");
      return this;
    }

    /**
     * Makes the budget of threads elastic: it starts at {@link #workers(int) workers}, and at the
     * end of every {@code period} {@code policy} resizes it, within [{@code minWorkers}, workers],
     * from the period's utilization and queueing delay (McClure et al., NSDI'22, Section 4.1).
     * Threads the budget does not give search are lent to the application's background work ({@link
     * BackgroundCores}). A shrink takes no thread away mid-unit: helpers leave at their next unit
     * boundary, a request's own thread finishes its body, and no slot is handed out until the busy
     * threads are within the budget. A growth frees slots at once.
     *
     * @throws IllegalArgumentException if {@code minWorkers < 1} or the period is not positive
     */
    Builder elasticBudget(BudgetPolicy policy, int minWorkers, Duration period) {
      settings.elasticBudget(policy, minWorkers, period);
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
     * rather than wait for it: the reevaluator still ticks every quantum of real time, and spinning
     * threads spin in real time.
     */
    Builder clock(LongSupplier clock) {
      settings.once("clock");
      settings.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }
  }
}
