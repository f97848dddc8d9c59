package dev.tailor.core.policy;

import dev.tailor.core.Experimental;
import dev.tailor.core.model.SpeedupCurve;

/**
 * A read-only view of one request, as a {@link Policy} sees it. All times are in nanoseconds on the
 * clock of the {@link SystemView} the request is viewed with: the wall clock in the runtime, a
 * virtual clock in the simulator.
 *
 * <p>Implementations are live views: values change as the request runs. A policy reads them while
 * answering one question and keeps no reference afterwards.
 */
public interface RequestView {

  /** Returned by the time accessors when the time is not known (yet). */
  long UNKNOWN = -1L;

  /** A number unique to this request within its scheduler, increasing in arrival order. */
  long id();

  /** When the request arrived, that is, when it was submitted. */
  long arrivalNanos();

  /** When the request started to run, or {@link #UNKNOWN} while it waits for admission. */
  long startNanos();

  /** How long the request has been running; zero while it waits. */
  long elapsedNanos();

  /** Work done so far: busy time summed over every thread that has worked on the request. */
  long workNanos();

  /**
   * The request's current degree: up to this many threads may work on it, counting the thread that
   * runs the request itself. Zero means "serialize": no further helpers are released.
   */
  int degree();

  /** The number of threads working on the request right now, its own thread included. */
  int threads();

  /**
   * The request's sequential time as predicted, or as known to a clairvoyant oracle, or {@link
   * #UNKNOWN} when no prediction was supplied.
   */
  long predictedSequentialNanos();

  /**
   * The request's total sequential time projected from its own progress: from the windows (the
   * pieces its search is cut into and claimed by its threads) that have finished, the time they
   * took, the work done and the windows left, by {@link dev.tailor.core.model.Projection}'s rule,
   * with {@link #predictedSequentialNanos()} as the prior when there is one, else none. Refined as
   * each claim of windows ends. Before any window has finished it is the prior, never below the
   * work done, or {@link #UNKNOWN} when there is none.
   *
   * <p>The default, for a view that does not follow windows, returns {@link
   * #predictedSequentialNanos()}.
   */
  @Experimental
  default long projectedSequentialNanos() {
    return predictedSequentialNanos();
  }

  /**
   * The request's speedup curve as predicted, or as known to a clairvoyant oracle, or {@code null}
   * when none was supplied. The default supplies none.
   */
  default SpeedupCurve predictedSpeedup() {
    return null;
  }

  /**
   * The request's priority class: the dispatch core gives free slots to the highest class with work
   * first. The default, and every request's unless its submitter says otherwise, is {@link
   * PriorityClass#INTERACTIVE}.
   */
  default PriorityClass priorityClass() {
    return PriorityClass.INTERACTIVE;
  }

  /** The class label the request was submitted with, or {@code null} if it has none. */
  String label();

  /**
   * Whether the request counts as long: its prediction or its work so far has reached the
   * scheduler's long-request threshold. Once long, a request stays long.
   */
  boolean isLong();
}
