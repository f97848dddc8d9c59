package dev.tailor.lucene;

import dev.tailor.core.Internal;
import dev.tailor.core.RequestContext;
import dev.tailor.core.Scheduler;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The {@link Executor} behind an {@code IndexSearcher}'s {@code TaskExecutor}. {@link
 * TailorSearcher} searches its windows itself; what still goes through the {@code TaskExecutor} is
 * work Lucene forks per leaf elsewhere, such as the per-segment searches of a vector query's
 * rewrite. {@code TaskExecutor} calls {@link #execute} count − 1 times, on the query's own thread,
 * with runnables that each claim and run at most one task, and runs the remaining tasks on that
 * thread itself. This executor holds those runnables as work units of the request the query runs
 * in, so the {@link Scheduler} releases them to helper threads as the request's degree allows.
 *
 * <p>Called outside any request of its scheduler (a search that was not started through {@link
 * TailorSearcher} or {@link Scheduler#run}), it runs the runnable at once on the calling thread, as
 * {@code TaskExecutor} does when an executor rejects work: the search stays correct and sequential.
 */
@Internal
public final class SchedulingExecutor implements Executor {

  private final Scheduler scheduler;

  /** An executor whose units go to requests of {@code scheduler}. */
  public SchedulingExecutor(Scheduler scheduler) {
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
  }

  @Override
  public void execute(Runnable command) {
    RequestContext ctx = RequestContext.current();
    if (ctx != null && ctx.scheduler() == scheduler) {
      ctx.fork(command);
    } else {
      command.run();
    }
  }

  /** The scheduler this executor feeds. */
  public Scheduler scheduler() {
    return scheduler;
  }
}
