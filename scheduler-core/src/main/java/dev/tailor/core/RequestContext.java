package dev.tailor.core;

import dev.tailor.core.policy.RequestView;

/**
 * A running request, as its own code sees it: the place to hand over work units and to wait for
 * them. Units handed over are held by the scheduler and released to helper threads while the
 * request's degree allows; the rest are run by the request's own thread in {@link #joinUnits()}.
 *
 * <p>Lucene's {@code TaskExecutor} needs no join: it gives the executor one-slice runnables that
 * claim work from a shared counter and runs the remaining slices on the calling thread itself.
 * Units still held when the request's body returns are dropped, as such runnables would be no-ops.
 */
@Internal
public interface RequestContext {

  /** The request whose body or unit the calling thread is running, or {@code null} if none. */
  static RequestContext current() {
    Request<?> r = Request.current();
    return r == null ? null : r.context;
  }

  /**
   * Hands a work unit to the scheduler. It runs on a helper as soon as the request's degree and a
   * free thread allow, else on the request's own thread in {@link #joinUnits()}. A unit that throws
   * fails the request; its remaining held units are dropped. Units handed to a cancelled request
   * are dropped.
   *
   * @throws IllegalStateException if the request's body has already returned
   */
  void fork(Runnable unit);

  /**
   * Runs the held units on the calling thread, then waits for those running on helpers. Call it
   * from the request's own thread.
   *
   * @throws java.util.concurrent.CompletionException wrapping the first failure of a unit
   * @throws java.util.concurrent.CancellationException if the request was cancelled meanwhile
   * @throws IllegalStateException if called from another thread
   */
  void joinUnits();

  /**
   * Drops the units held and not yet started, for a body that knows they are no longer needed:
   * Lucene's slice runnables once {@code invokeAll} has returned, or every unit once a deadline has
   * passed. Units already running finish.
   */
  void dropHeldUnits();

  /**
   * A boundary inside a long unit, for units that work through many small pieces (the drop-in's
   * doc-id windows): says whether the calling thread should take the next piece. Like the end of a
   * unit, it re-reads the request's degree, so that a rising degree sends a helper at once, and a
   * helper the degree no longer counts is told to stop: it leaves the request here rather than at
   * the end of its unit. So is a helper of a lower {@linkplain dev.tailor.core.policy.PriorityClass
   * priority class} while a higher class's request waits for admission (promptness), unless its
   * class is at its floor of threads. On the request's own thread, which must finish what it
   * started, it says only whether the request is still live.
   *
   * @return {@code false} if the request was cancelled or stopped early (its deadline passed) or,
   *     on a helper, if the helper should leave
   */
  boolean mayContinue();

  /**
   * A search of the request is about to start, cut into {@code windows} windows that its threads
   * claim: they count towards {@link RequestView#projectedSequentialNanos()}. For the drop-in's
   * windowed search; the default ignores it.
   */
  @Internal
  default void windowsPlanned(int windows) {}

  /**
   * {@code windows} of the request's planned windows have finished on the calling thread, having
   * taken {@code nanos}: what refines {@link RequestView#projectedSequentialNanos()}. Called once
   * per claim; it allocates nothing and never throws. The default ignores it.
   */
  @Internal
  default void windowsFinished(int windows, long nanos) {}

  /** Whether the request has been cancelled; a long body should check and stop early. */
  boolean isCancelled();

  /**
   * Gives the request a deadline on {@link System#nanoTime()}, or keeps the one it has if that is
   * earlier. Once it passes, the request stops early: {@link #mayContinue()} says no on every
   * thread, and {@link #stoppedEarly()} says its result is partial. A search nested in a request
   * with a deadline keeps the earlier of the two and puts the request's back when it returns
   * ({@link #restoreDeadline}).
   *
   * @return the deadline the request had, {@link Long#MAX_VALUE} for none
   */
  @Experimental
  long stopAt(long deadlineNanos);

  /** Puts back the deadline {@link #stopAt} returned; {@link Long#MAX_VALUE} for none. */
  @Experimental
  void restoreDeadline(long deadlineNanos);

  /** The request's deadline on {@link System#nanoTime()}, {@link Long#MAX_VALUE} for none. */
  @Experimental
  long deadlineNanos();

  /**
   * Stops the request early, its result partial: held units are dropped and {@link #mayContinue()}
   * says no on every thread; units already running finish. For a body whose own timeout has passed.
   * A cancelled request stays cancelled.
   */
  @Experimental
  void stopEarly();

  /**
   * Whether the request was stopped early ({@link #stopEarly()}, or its deadline passed): its
   * result is partial.
   */
  @Experimental
  boolean stoppedEarly();

  /** The scheduler the request runs in. */
  Scheduler scheduler();

  /** The live view of this request that policies see. */
  RequestView view();
}
