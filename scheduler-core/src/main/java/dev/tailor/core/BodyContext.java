package dev.tailor.core;

import dev.tailor.core.policy.RequestView;

/**
 * A request as its own code reaches it ({@link RequestContext}): the body, its units and the
 * drop-in's windowed search fork, join and check here. Kept apart from the {@link Request} that
 * policies read, so that a policy's {@link RequestView} cannot be cast into something that acts.
 */
final class BodyContext implements RequestContext {

  private final Request<?> request;

  BodyContext(Request<?> request) {
    this.request = request;
  }

  @Override
  public void fork(Runnable unit) {
    request.fork(unit);
  }

  @Override
  public void joinUnits() {
    request.joinUnits();
  }

  @Override
  public void dropHeldUnits() {
    request.units.drop();
  }

  @Override
  public boolean mayContinue() {
    return request.mayContinue();
  }

  @Override
  public void windowsPlanned(int windows) {
    request.account.windowsPlanned(windows);
  }

  @Override
  public void windowsFinished(int windows, long nanos) {
    request.account.windowsFinished(windows, nanos);
  }

  @Override
  public boolean isCancelled() {
    return request.stop.isCancelled();
  }

  @Override
  public long stopAt(long deadlineNanos) {
    return request.stop.deadline(deadlineNanos);
  }

  @Override
  public void restoreDeadline(long deadlineNanos) {
    request.stop.restoreDeadline(deadlineNanos);
  }

  @Override
  public long deadlineNanos() {
    return request.stop.deadlineNanos();
  }

  @Override
  public void stopEarly() {
    request.stop.stopEarly();
  }

  @Override
  public boolean stoppedEarly() {
    return request.stop.stoppedEarly();
  }

  @Override
  public Scheduler scheduler() {
    return request.scheduler;
  }

  @Override
  public RequestView view() {
    return request;
  }

  @Override
  public String toString() {
    return "RequestContext[" + request.id + "]";
  }
}
