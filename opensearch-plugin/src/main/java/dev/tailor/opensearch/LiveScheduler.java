package dev.tailor.opensearch;

import dev.tailor.core.RequestAttributes;
import dev.tailor.core.RequestContext;
import dev.tailor.core.RequestScope;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.SchedulerListener;
import dev.tailor.core.Tuning;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.SystemView;
import dev.tailor.lucene.SchedulingExecutor;
import java.io.Closeable;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The node's {@link Scheduler}: one for the node's life, whose policy {@code tailor.policy} swaps
 * live ({@link #swap}, through {@link Scheduler#setPolicy}): the same threads and admission queue
 * serve every query phase, and every later admission and degree question, running query phases'
 * too, goes to the new policy. The scheduler owns a policy it built from a specification, so it
 * closes the one it swaps out. A specification that cannot be built on this node (a table file
 * missing here) keeps the current policy and is shown in the stats.
 *
 * <p>Only a change of the thread budget or the admission queue's capacity ({@code tailor.workers},
 * {@code tailor.queue_capacity}), which a scheduler fixes when it is built, builds a new scheduler
 * ({@link #resize}).
 */
final class LiveScheduler implements Closeable {

  private static final Logger LOG = LogManager.getLogger(LiveScheduler.class);

  /** How long {@link #close()} waits for running requests before it cancels them. */
  private static final long CLOSE_GRACE_SECONDS = 10;

  private final ThreadFactory threads;
  private final NodeStats stats;
  private final AtomicReference<Generation> current = new AtomicReference<>();
  private final Set<Thread> retiring = ConcurrentHashMap.newKeySet();
  private volatile String policyError;
  private volatile boolean enabled = true;

  /**
   * @param spec the policy specification ({@code tailor.policy})
   * @param workers the thread budget ({@code tailor.workers})
   * @param queueCapacity query phases that may wait for admission ({@code tailor.queue_capacity})
   * @param threads makes the scheduler's threads
   * @param stats the node's stats, which the query phases' records go to
   * @throws IllegalArgumentException if {@code spec} names no policy or its arguments are bad
   */
  LiveScheduler(
      String spec, int workers, int queueCapacity, ThreadFactory threads, NodeStats stats) {
    this.threads = threads;
    this.stats = stats;
    current.set(new Generation(spec, workers, queueCapacity));
  }

  /**
   * A scheduler, with the capacity it was built for; the records of its requests wait here for
   * their closer. The node has one, and a second only while a resize retires the first.
   */
  private final class Generation implements SchedulerListener {
    final Scheduler scheduler;
    final int queueCapacity;
    final SchedulingExecutor executor;
    final Map<Long, RequestRecord> completed = new ConcurrentHashMap<>();

    Generation(String spec, int workers, int queueCapacity) {
      this.scheduler =
          SchedulerInternals.policy(Scheduler.builder(), spec)
              .workers(workers)
              .tuning(Tuning.defaults().withQueueCapacity(queueCapacity))
              .threadFactory(threads)
              .listener(this)
              .build();
      this.queueCapacity = queueCapacity;
      this.executor = new SchedulingExecutor(scheduler);
    }

    String spec() {
      return scheduler.policy().spec();
    }

    @Override
    public void requestCompleted(RequestRecord record) {
      if (record.outcome() == RequestRecord.Outcome.CANCELLED
          && record.startNanos() == record.endNanos()) {
        // Left the queue before admission (interrupted, or the node closing): no scope was opened,
        // so no closer will come for the record.
        stats.cancelled.increment();
        return;
      }
      completed.put(record.id(), record); // before the request's future completes, so before close
    }
  }

  /** A query phase's open request; {@link #close} it on the thread that opened it. */
  final class Entered {
    private final Generation generation;
    private final RequestScope scope;
    private final String policy;

    private Entered(Generation generation, RequestScope scope) {
      this.generation = generation;
      this.scope = scope;
      this.policy = generation.spec(); // the one that admitted it, for its record
    }

    RequestContext context() {
      return scope.context();
    }

    /**
     * The drop-in's executor for this request's scheduler: it holds a runnable as a unit of the
     * request open on the calling thread, and runs it inline on any other thread.
     */
    SchedulingExecutor executor() {
      return generation.executor;
    }

    /**
     * Ends the request (failed or not) and records it with the shard it searched and the policy
     * that admitted it (a swap while it ran gave its later degrees to the new one).
     *
     * @return its record, or {@code null} if it has none (cancelled before it was admitted)
     */
    RequestRecord close(boolean failed, String shard) {
      if (failed) {
        scope.fail(new IllegalStateException("query phase failed on " + shard));
      }
      scope.close();
      RequestRecord record = generation.completed.remove(scope.context().view().id());
      if (record != null) {
        stats.record(record, shard, policy);
        if (LOG.isDebugEnabled()) {
          LOG.debug(
              "{} policy [{}] degree {} threads {} latency {} µs queued {} µs {}",
              shard,
              policy,
              record.maxDegree(),
              record.maxThreads(),
              record.latencyNanos() / 1000,
              record.queueingNanos() / 1000,
              record.outcome());
        }
      }
      return record;
    }
  }

  /**
   * Opens a request for a query phase on the calling thread, waiting for admission.
   *
   * @return the open request, or {@code null} if the query phase must run without Tailor: the
   *     admission queue is full, the node is closing, or the thread was interrupted while it waited
   *     (its flag is restored)
   */
  Entered enter(RequestAttributes attributes) {
    while (true) {
      Generation g = current.get();
      if (g == null) {
        return null;
      }
      try {
        return new Entered(g, SchedulerInternals.enter(g.scheduler, attributes));
      } catch (RejectedExecutionException | CancellationException e) {
        if (current.get() == g) {
          return null; // the queue is full, or the node is closing
        } // else a resize retired this scheduler meanwhile: enter the new one
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
  }

  /** Whether Tailor schedules the node's searches ({@code tailor.enabled}). */
  boolean enabled() {
    return enabled;
  }

  void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  /** The current policy's specification, or {@code null} once closed. */
  String policy() {
    Generation g = current.get();
    return g == null ? null : g.spec();
  }

  /**
   * Why the last update of the policy (or of the capacity, which builds the policy again) could not
   * be applied on this node, or {@code null} if the last one was.
   */
  String policyError() {
    return policyError;
  }

  /** The node's load now; the capacity it was built for and zeros once closed. */
  NodeLoad load() {
    Generation g = current.get();
    int sequential = stats.sequentialRunning.get();
    if (g == null) {
      return new NodeLoad(0, 0, 0, 0, sequential);
    }
    SystemView system = SchedulerInternals.systemView(g.scheduler);
    return new NodeLoad(
        g.scheduler.workers(),
        system.activeRequests(),
        system.queuedRequests(),
        system.busyWorkers(),
        sequential);
  }

  /** The thread budget of the current scheduler, or 0 once closed. */
  int workers() {
    Generation g = current.get();
    return g == null ? 0 : g.scheduler.workers();
  }

  /** The admission queue's capacity in the current scheduler, or 0 once closed. */
  int queueCapacity() {
    Generation g = current.get();
    return g == null ? 0 : g.queueCapacity;
  }

  /** The current scheduler, or {@code null} once closed; for tests. */
  Scheduler scheduler() {
    Generation g = current.get();
    return g == null ? null : g.scheduler;
  }

  /**
   * Swaps the policy to {@code spec} in the node's scheduler ({@link Scheduler#setPolicy}), which
   * closes the policy it replaces. A specification that fails here keeps the current policy and is
   * reported.
   */
  synchronized void swap(String spec) {
    Generation g = current.get();
    if (g == null) {
      return; // closed
    }
    Policy old = g.scheduler.policy();
    try {
      g.scheduler.setPolicy(PolicyRegistry.of(spec)); // closes the policy it replaces
    } catch (RuntimeException e) {
      refused("tailor.policy [" + spec + "]", g, e);
      return;
    }
    policyError = null;
    stats.policySwaps.increment();
    LOG.info("tailor.policy swapped from [{}] to [{}]", old.spec(), g.spec());
  }

  /**
   * Builds a scheduler with {@code workers} threads and room for {@code queueCapacity} waiting
   * query phases, running the current policy, for a change of {@code tailor.workers} or {@code
   * tailor.queue_capacity}: a scheduler fixes both when it is built, so only these settings take
   * this path (a policy change is a {@link #swap}). The new scheduler takes every query phase from
   * then on; the old one admits nothing new, finishes the query phases it admitted or queued, and
   * is closed with its policy by a retiring thread, so no request is lost, and while both run the
   * node may use up to both budgets of threads. Equal values change nothing. If the current policy
   * cannot be built again here (its table file is gone), the node keeps its scheduler and reports
   * it.
   */
  synchronized void resize(int workers, int queueCapacity) {
    Generation old = current.get();
    if (old == null || (workers == old.scheduler.workers() && queueCapacity == old.queueCapacity)) {
      return; // closed, or nothing to change
    }
    String spec = old.spec();
    Generation next;
    try {
      next = new Generation(spec, workers, queueCapacity);
    } catch (RuntimeException e) {
      refused(
          "tailor.workers ["
              + workers
              + "], tailor.queue_capacity ["
              + queueCapacity
              + "] with policy ["
              + spec
              + "]",
          old,
          e);
      return;
    }
    current.set(next);
    LOG.info(
        "tailor.workers [{}], tailor.queue_capacity [{}]: a new scheduler running [{}] replaces"
            + " the one of [{}] workers, [{}] queue, which finishes its query phases",
        workers,
        queueCapacity,
        spec,
        old.scheduler.workers(),
        old.queueCapacity);
    retire(old);
  }

  /**
   * Records an update that could not be applied on this node, which keeps {@code kept}: the policy
   * it names could not be built here.
   */
  private void refused(String update, Generation kept, RuntimeException e) {
    stats.policyErrors.increment();
    policyError = update + ": " + e.getMessage();
    LOG.error("{} cannot be applied on this node; keeping [{}]", update, kept.spec(), e);
  }

  private void retire(Generation old) {
    old.scheduler.shutdown(); // admits nothing new; what it queued and runs completes
    Thread t =
        threads.newThread(
            () -> {
              try {
                closeGracefully(old);
              } finally {
                retiring.remove(Thread.currentThread());
              }
            });
    retiring.add(t);
    t.start();
  }

  /**
   * Waits for a scheduler's requests, cancels them after the grace period (their units stop; their
   * own threads finish the search), and closes it with its policy once it has terminated. A request
   * whose thread never closes it after a second grace period is left behind with a warning rather
   * than hanging the node.
   */
  private static void closeGracefully(Generation g) {
    try {
      if (!g.scheduler.awaitTermination(CLOSE_GRACE_SECONDS, TimeUnit.SECONDS)) {
        LOG.warn(
            "policy [{}]: requests still running after {} s; cancelling them",
            g.spec(),
            CLOSE_GRACE_SECONDS);
        g.scheduler.shutdownNow();
        if (!g.scheduler.awaitTermination(CLOSE_GRACE_SECONDS, TimeUnit.SECONDS)) {
          LOG.warn("policy [{}]: not terminated; leaving {}", g.spec(), g.scheduler);
          return;
        }
      }
    } catch (InterruptedException e) {
      g.scheduler.shutdownNow();
      Thread.currentThread().interrupt();
      return;
    }
    g.scheduler.close();
  }

  /**
   * Stops the node's scheduler: new query phases run without Tailor, running ones complete (after a
   * grace period they are cancelled: their units stop, their own threads finish the search), and a
   * scheduler a resize is retiring is waited for.
   */
  @Override
  public void close() {
    Generation g;
    synchronized (this) {
      g = current.getAndSet(null);
    }
    if (g != null) {
      g.scheduler.shutdown();
      closeGracefully(g);
    }
    for (Thread t : retiring) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(2 * CLOSE_GRACE_SECONDS));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
