package dev.tailor.core.dispatch;

import dev.tailor.core.policy.SystemView;

/** The load measures a policy reads from the dispatch core, read live. */
final class CoreView implements SystemView {

  private final Dispatcher<?> core;

  CoreView(Dispatcher<?> core) {
    this.core = core;
  }

  @Override
  public long nanoTime() {
    return core.host.nanoTime();
  }

  @Override
  public int budget() {
    return core.budget();
  }

  @Override
  public int threadLimit() {
    return core.threadLimit();
  }

  @Override
  public int activeRequests() {
    return core.running().length;
  }

  @Override
  public int queuedRequests() {
    return core.queued();
  }

  @Override
  public int busyWorkers() {
    return core.busySlots();
  }

  @Override
  public int busyThreadsOnLongRequests() {
    return core.host.busyThreadsOnLongRequests();
  }
}
