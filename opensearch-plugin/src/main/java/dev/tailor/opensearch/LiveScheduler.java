package dev.tailor.opensearch;

import dev.tailor.core.RequestAttributes;
import dev.tailor.core.RequestContext;
import dev.tailor.core.RequestScope;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerListener;
import dev.tailor.core.metrics.RequestRecord;
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
 * The node's current {@link Scheduler}, swapped when {@code tailor.policy} changes. A swap builds a
 * scheduler for the new policy and publishes it, so that every query phase from then on enters the
 * new one; the old one stops admitting, and a retiring thread closes it once the requests it
 * admitted or queued have completed, so no request is lost. While both run, the node may briefly
 * use up to twice its budget of threads. A specification that cannot be built on this node (a table
 * file missing here) keeps the old policy and is shown in the stats.
 */
final class LiveScheduler implements Closeable {

  private static final Logger LOG = LogManager.getLogger(LiveScheduler.class);

  /** How long {@link #close()} waits for running requests before it cancels them. */
  private static final long CLOSE_GRACE_SECONDS = 10;

  private final int workers;
  private final int queueCapacity;
  private final ThreadFactory threads;
  private final NodeStats stats;
  private final AtomicReference<Generation> current = new AtomicReference<>();
  private final Set<Thread> retiring = ConcurrentHashMap.newKeySet();
  private volatile String policyError;
  private volatile boolean enabled = true;

  LiveScheduler(
      String spec, int workers, int queueCapacity, ThreadFactory threads, NodeStats stats) {
    this.workers = workers;
    this.queueCapacity = queueCapacity;
    this.threads = threads;
    this.stats = stats;
    current.set(new Generation(spec));
  }

  /** One scheduler and its policy; the records of its requests wait here for their closer. */
  private final class Generation implements SchedulerListener {
    final String spec;
    final Scheduler scheduler;
    final SchedulingExecutor executor;
    final Map<Long, RequestRecord> completed = new ConcurrentHashMap<>();

    Generation(String spec) {
      this.scheduler =
          Scheduler.builder()
              .policy(spec)
              .workers(workers)
              .queueCapacity(queueCapacity)
              .threadFactory(threads)
              .listener(this)
              .build();
      this.spec = scheduler.policy().spec();
      this.executor = new SchedulingExecutor(scheduler);
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

    private Entered(Generation generation, RequestScope scope) {
      this.generation = generation;
      this.scope = scope;
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
     * Ends the request (failed or not) and records it with the shard it searched.
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
        stats.record(record, shard, generation.spec);
        if (LOG.isDebugEnabled()) {
          LOG.debug(
              "{} policy [{}] degree {} threads {} latency {} µs queued {} µs {}",
              shard,
              generation.spec,
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
        return new Entered(g, g.scheduler.enter(attributes));
      } catch (RejectedExecutionException | CancellationException e) {
        if (current.get() == g) {
          return null; // the queue is full, or the node is closing
        } // else the policy was swapped meanwhile: enter the new scheduler
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
    return g == null ? null : g.spec;
  }

  /** Why the last policy update could not be applied on this node, or {@code null}. */
  String policyError() {
    return policyError;
  }

  /**
   * Requests running, requests waiting for admission, and busy workers in the current scheduler;
   * zeros once closed.
   */
  int[] load() {
    Generation g = current.get();
    if (g == null) {
      return new int[3];
    }
    SystemView system = g.scheduler.systemView();
    return new int[] {system.activeRequests(), system.queuedRequests(), system.busyWorkers()};
  }

  int workers() {
    return workers;
  }

  int queueCapacity() {
    return queueCapacity;
  }

  /**
   * Swaps in a scheduler running the policy {@code spec}; the old one retires once its requests
   * complete. A specification that fails here keeps the current policy and is reported.
   */
  synchronized void swap(String spec) {
    Generation old = current.get();
    if (old == null) {
      return; // closed
    }
    Generation next;
    try {
      next = new Generation(spec);
    } catch (RuntimeException e) {
      stats.policyErrors.increment();
      policyError = "[" + spec + "]: " + e.getMessage();
      LOG.error(
          "tailor.policy [{}] cannot be applied on this node; keeping [{}]", spec, old.spec, e);
      return;
    }
    policyError = null;
    current.set(next);
    stats.policySwaps.increment();
    LOG.info("tailor.policy swapped from [{}] to [{}]", old.spec, next.spec);
    retire(old);
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
            g.spec,
            CLOSE_GRACE_SECONDS);
        g.scheduler.shutdownNow();
        if (!g.scheduler.awaitTermination(CLOSE_GRACE_SECONDS, TimeUnit.SECONDS)) {
          LOG.warn("policy [{}]: not terminated; leaving {}", g.spec, g.scheduler);
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
   * grace period they are cancelled: their units stop, their own threads finish the search), and
   * the retiring schedulers are waited for.
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
