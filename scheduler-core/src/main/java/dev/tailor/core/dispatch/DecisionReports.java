package dev.tailor.core.dispatch;

import dev.tailor.core.FailureLog;
import dev.tailor.core.dispatch.Dispatcher.Decision;
import dev.tailor.core.dispatch.Dispatcher.DecisionListener;
import dev.tailor.core.policy.RequestView;

/**
 * The dispatch core's reports to its {@link DecisionListener}: every decision, in order, on the
 * thread that made it, and a listener that throws is reported to the {@link FailureLog} and heard
 * no further for that decision, which stands.
 *
 * <p>It stands apart from the decisions because a listener is an observer, the same hook for the
 * runtime and the simulator (the simulator's trace, {@code SameDecisionsTest}), and no decision may
 * depend on it. The listener is set before any request is queued and read without the host's
 * exclusion by {@link Dispatcher#askDegree}, as the core has always read it: a plain field.
 */
final class DecisionReports {

  private final FailureLog failures;
  private DecisionListener listener; // set before requests are queued; null: nobody hears

  DecisionReports(FailureLog failures) {
    this.failures = failures;
  }

  /** Reports every later decision to {@code l} (null: to nobody). */
  void listener(DecisionListener l) {
    this.listener = l;
  }

  /** Whether anybody hears the decisions, so that a caller may skip what only a report needs. */
  boolean heard() {
    return listener != null;
  }

  /** Tells the decision listener, if any; what it throws is reported and goes no further. */
  void decided(Decision decision, RequestView request, long value) {
    DecisionListener l = listener;
    if (l != null) {
      try {
        l.decided(decision, request.id(), value);
      } catch (Throwable e) {
        failures.report("decisionListener", "the decision stands", e);
      }
    }
  }
}
