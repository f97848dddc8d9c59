package dev.tailor.core;

import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.policy.RequestView;

/**
 * Hears a request's life in a {@link Scheduler}: admission, each change of degree, completion.
 * Called on scheduler threads, never under the scheduler's locks; keep it quick. What a listener
 * throws is logged and otherwise ignored.
 */
public interface SchedulerListener {

  /** The request was admitted with the given degree and starts to run. */
  default void requestAdmitted(RequestView request, int degree) {}

  /** The policy changed a running request's degree. */
  default void degreeChanged(RequestView request, int from, int to) {}

  /** The request completed, failed or was cancelled; called exactly once per request. */
  default void requestCompleted(RequestRecord record) {}
}
