package dev.tailor.core.policy;

/** A system view whose every value a test sets; shared with other modules through the test jar. */
public final class FakeSystem implements SystemView {
  public long now;
  public int budget = 8;
  public int active;
  public int queued;
  public int busy;
  public int longThreads;

  @Override
  public long nanoTime() {
    return now;
  }

  @Override
  public int budget() {
    return budget;
  }

  @Override
  public int activeRequests() {
    return active;
  }

  @Override
  public int queuedRequests() {
    return queued;
  }

  @Override
  public int busyWorkers() {
    return busy;
  }

  @Override
  public int busyThreadsOnLongRequests() {
    return longThreads;
  }
}
