package dev.tailor.core.policy;

/** A system view whose every value a test sets. */
final class FakeSystem implements SystemView {
  long now;
  int budget = 8;
  int active;
  int queued;
  int busy;
  int longThreads;

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
