package dev.tailor.opensearch;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.opensearch.common.util.concurrent.ThreadContext;

/**
 * The node's index-searcher executor: what Lucene's {@code TaskExecutor} gives work to when a shard
 * searches its slices concurrently. {@code TaskExecutor.invokeAll} calls {@link #execute} count − 1
 * times, on the query phase's thread, with runnables that each claim the next slice not yet started
 * and run it, and then runs the remaining slices on that thread itself. This executor is the
 * OpenSearch face of the drop-in's {@code SchedulingExecutor} (the one Lucene applications give
 * their {@code IndexSearcher}): it gives each runnable, in the query phase's thread context and
 * counted, to the drop-in executor of the query phase's scheduler ({@link
 * QueryPhaseListener#current()}), which holds it as a work unit of the phase's Tailor request. The
 * policy's degree decides how many run on helper threads, and those no helper takes are dropped
 * when the request ends, harmlessly, since the calling thread has run their slices.
 *
 * <p>While {@code tailor.enabled} is off, it passes every runnable to OpenSearch's own {@code
 * index_searcher} pool, as the node would run without the plugin.
 *
 * <p>It never rejects, which would fail the search. A runnable executed with no Tailor request on
 * the thread (another user of the executor, or a query phase that runs without Tailor) runs at once
 * on the calling thread. Helpers run a unit in the thread context of the query phase that forked it
 * ({@link ThreadContext#preserveContext}).
 *
 * <p>The executor belongs to the node, not to its caller: {@link #shutdown()} only makes it run
 * everything inline; the plugin stops the scheduler when the node closes.
 */
final class TailorExecutor extends AbstractExecutorService {

  private final QueryPhaseListener queryPhases;
  private final ThreadContext threadContext;
  private final NodeStats stats;
  private final LiveScheduler live;
  private final Executor openSearchOwn;
  private volatile boolean shutdown;

  /**
   * @param openSearchOwn OpenSearch's own {@code index_searcher} pool, for while {@code
   *     tailor.enabled} is off
   */
  TailorExecutor(
      QueryPhaseListener queryPhases,
      ThreadContext threadContext,
      NodeStats stats,
      LiveScheduler live,
      Executor openSearchOwn) {
    this.queryPhases = queryPhases;
    this.threadContext = threadContext;
    this.stats = stats;
    this.live = live;
    this.openSearchOwn = openSearchOwn;
  }

  @Override
  public void execute(Runnable command) {
    Objects.requireNonNull(command, "command");
    QueryPhaseListener.Open open = shutdown ? null : queryPhases.current();
    if (open == null && !shutdown && !live.enabled()) {
      openSearchOwn.execute(command); // as OpenSearch runs without the plugin
      return;
    }
    if (open == null || open.entered() == null) {
      stats.inlineWithoutRequest.increment();
      command.run();
      return;
    }
    Runnable preserved = threadContext.preserveContext(command);
    Thread owner = Thread.currentThread();
    stats.unitsForked.increment();
    open.entered()
        .executor()
        .execute(
            () -> {
              if (Thread.currentThread() != owner) {
                stats.unitsOnHelpers.increment();
              }
              preserved.run();
            });
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return shutdown;
  }
}
