package dev.tailor.core.policy;

/**
 * A read-only view of the whole scheduler, as a {@link Policy} sees it: the clock and the load
 * measures the published policies use. Counts are instantaneous and may change between two calls;
 * each is exact at the moment it is read.
 */
public interface SystemView {

  /** The current time on this system's clock, in nanoseconds. */
  long nanoTime();

  /** The number of threads that can run request work at once: the parallelism budget. */
  int budget();

  /**
   * The most threads that may work on requests at once: the {@linkplain #budget() budget} plus the
   * slack lent beyond it to helpers, which the operating system time-slices over the cores
   * (Lucene's own executor runs the caller beside its pool the same way). A policy that gives a
   * request every thread there is asks for this; the budget, by default.
   */
  default int threadLimit() {
    return budget();
  }

  /** Requests admitted and not yet complete. */
  int activeRequests();

  /** Requests waiting in the admission queue. */
  int queuedRequests();

  /** Threads of the budget busy on request work (request threads and helpers). */
  int busyWorkers();

  /** Threads of the budget free for work: {@code budget() - busyWorkers()}. */
  default int idleWorkers() {
    return budget() - busyWorkers();
  }

  /** Threads busy on requests flagged {@linkplain RequestView#isLong() long} (TPC's LongT). */
  int busyThreadsOnLongRequests();

  /** Requests in the system, waiting or running: Few-to-Many's load. */
  default int requestsInSystem() {
    return activeRequests() + queuedRequests();
  }
}
