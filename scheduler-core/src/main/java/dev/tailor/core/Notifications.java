package dev.tailor.core;

import dev.tailor.core.metrics.RequestRecord;

/**
 * Tells the outside world about a request's life: a JDK Flight Recorder event and the user's {@link
 * SchedulerListener}, for admission, each change of degree and completion. What a listener throws
 * is reported to the scheduler's {@link FailureLog} (logged once per method, then counted) and
 * otherwise ignored, so a faulty listener never fails a request or kills a thread. Called outside
 * the dispatch lock.
 */
final class Notifications {

  private static final String IGNORED = "the scheduler listener's failure is ignored";

  private final SchedulerListener listener;
  private final FailureLog failures;

  Notifications(SchedulerListener listener, FailureLog failures) {
    this.listener = listener;
    this.failures = failures;
  }

  /** The request was admitted and its body is about to run on the calling thread. */
  void admitted(Request<?> r, int active, int queued) {
    SchedulerEvents.Admission e = new SchedulerEvents.Admission();
    if (e.shouldCommit()) {
      e.requestId = r.id;
      e.degree = r.degree;
      e.queueingNanos = r.startNanos - r.arrivalNanos;
      e.active = active;
      e.queued = queued;
      e.commit();
    }
    if (listener != null) {
      try {
        listener.requestAdmitted(r, r.degree);
      } catch (Throwable ex) {
        failures.report("listener.requestAdmitted", IGNORED, ex);
      }
    }
  }

  /** The policy changed a running request's degree at {@code now}. */
  void degreeChanged(Request<?> r, int from, int to, long now) {
    SchedulerEvents.DegreeChange e = new SchedulerEvents.DegreeChange();
    if (e.shouldCommit()) {
      e.requestId = r.id;
      e.from = from;
      e.to = to;
      e.elapsedNanos = now - r.startNanos;
      e.workNanos = r.account.workNanos(now);
      e.commit();
    }
    if (listener != null) {
      try {
        listener.degreeChanged(r, from, to);
      } catch (Throwable ex) {
        failures.report("listener.degreeChanged", IGNORED, ex);
      }
    }
  }

  /** The request completed, failed or was cancelled; called exactly once per request. */
  void completed(RequestRecord record) {
    SchedulerEvents.Completed e = new SchedulerEvents.Completed();
    if (e.shouldCommit()) {
      e.requestId = record.id();
      e.outcome = record.outcome().name();
      e.latencyNanos = record.latencyNanos();
      e.queueingNanos = record.queueingNanos();
      e.dispatchNanos = record.dispatchNanos();
      e.runNanos = record.runNanos();
      e.workNanos = record.workNanos();
      e.maxDegree = record.maxDegree();
      e.commit();
    }
    if (listener != null) {
      try {
        listener.requestCompleted(record);
      } catch (Throwable ex) {
        failures.report("listener.requestCompleted", IGNORED, ex);
      }
    }
  }
}
