package dev.tailor.core;

import dev.tailor.core.dispatch.Dispatcher;

/**
 * What Tailor's own modules and tests reach inside a {@link Scheduler} that is not API: the
 * dispatch core's decision hook, so that a scenario can be checked to decide alike in the runtime
 * and the simulator.
 */
@Internal
public final class SchedulerInternals {

  private SchedulerInternals() {}

  /** Makes the built scheduler report every decision of its dispatch core to {@code listener}. */
  public static Scheduler.Builder decisionListener(
      Scheduler.Builder builder, Dispatcher.DecisionListener listener) {
    return builder.decisionListener(listener);
  }
}
