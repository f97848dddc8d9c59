package dev.tailor.core.dispatch;

import dev.tailor.core.Internal;

/**
 * What the {@link Dispatcher} asks of the system that drives it, and what a decision does there:
 * the runtime's host sets a request's start and threads (and the runtime then moves real threads),
 * the simulator's starts a request on a virtual clock. The core decides; the host only carries the
 * decision out and answers questions about its requests.
 *
 * @param <R> the host's request type
 */
@Internal
public interface DispatchHost<R> {

  /** The current time on the host's clock, in nanoseconds. */
  long nanoTime();

  /**
   * Whether the running request has work a free thread could take now (its body runs and a unit
   * waits). Whether its degree leaves room for the thread is the core's to say ({@link
   * HelperRules#wants}).
   */
  boolean hasWorkForHelper(R request);

  /** The request leaves the queue and starts on one thread with the given degree at {@code now}. */
  void start(R request, int degree, long now);

  /** A free thread joins the running request at {@code now}. */
  void addHelper(R request, long now);

  /**
   * Whether the request's body runs on a thread of its own (a caller's) rather than a pool thread.
   * A free slot without a pool thread can only admit such a request.
   */
  boolean runsOnCaller(R request);

  /** Threads busy on requests flagged long (TPC's LongT). */
  int busyThreadsOnLongRequests();

  /** The number of busy slots changed to {@code busy} at {@code now}. */
  void busyWorkersChanged(long now, int busy);

  /**
   * Whether the calling thread holds the host's exclusion (the runtime's dispatch lock). The core
   * asserts that no question to the policy but admission, worker preference and degree is asked
   * with it held. The single-threaded simulator holds none.
   */
  default boolean holdsExclusion() {
    return false;
  }
}
