package dev.tailor.core;

import dev.tailor.core.dispatch.DispatchHost;
import dev.tailor.core.metrics.RunMetrics;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * What the dispatch core's decisions do to a runtime {@link Request}: admission sets its start,
 * degree and first thread, a helper counts one more thread. Called under the dispatch lock; the
 * threads themselves are moved by {@link WorkerPool} once the core has decided.
 */
final class RuntimeHost implements DispatchHost<Request<?>> {

  private final RunMetrics metrics;
  private final AtomicInteger longThreads;
  private final LongSupplier longThresholdNanos;
  private final LongSupplier clock;

  RuntimeHost(
      RunMetrics metrics,
      AtomicInteger longThreads,
      LongSupplier longThresholdNanos,
      LongSupplier clock) {
    this.metrics = metrics;
    this.longThreads = longThreads;
    this.longThresholdNanos = longThresholdNanos;
    this.clock = clock;
  }

  @Override
  public long nanoTime() {
    return clock.getAsLong();
  }

  @Override
  public boolean hasWorkForHelper(Request<?> r) {
    return r.hasWorkForHelper();
  }

  @Override
  public void start(Request<?> r, int degree, long now) {
    r.markRunning(degree, now);
    // A request predicted long counts in LongT from its start, not from the next tick.
    r.checkLong(longThresholdNanos.getAsLong(), now);
  }

  @Override
  public void addHelper(Request<?> r, long now) {
    r.helperJoined();
  }

  @Override
  public boolean runsOnCaller(Request<?> r) {
    return r.caller != null;
  }

  @Override
  public int busyThreadsOnLongRequests() {
    return longThreads.get();
  }

  @Override
  public void busyWorkersChanged(long now, int busy) {
    metrics.observeBusyWorkers(now, busy);
  }
}
