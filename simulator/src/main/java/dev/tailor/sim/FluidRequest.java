package dev.tailor.sim;

import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.policy.SystemView;
import dev.tailor.measure.DemandProfile;

/**
 * Few-to-Many's work model: the request holds its sequential time as work; while {@code t} threads
 * are on it, it completes {@code s(t)} nanoseconds of that work per nanosecond, {@code s} being its
 * speedup curve. Work is fluid, so a helper always finds some, and every thread stays until the
 * request completes or the degree falls (then the extra threads leave at once, standing for the
 * runtime's next unit boundary).
 *
 * <p>Fluid work has no windows, so {@link #projectedSequentialNanos()} is the prior: the
 * prediction, or unknown.
 */
final class FluidRequest extends SimRequest {

  private final SpeedupCurve curve;
  private double remaining; // sequential work left, settled at 'since'
  private long since;
  private long completesAt = Long.MAX_VALUE;
  private boolean done;

  FluidRequest(
      long id,
      long arrival,
      DemandProfile.Request demand,
      SpeedupCurve curve,
      SystemView clock,
      SimRequest.Told told) {
    super(id, arrival, demand, clock, told);
    this.curve = curve;
  }

  @Override
  void begin(long at) {
    // The kind is known once admitted. The wake-up is work of the fluid kind too: the model has no
    // serial part, so threads that join share it as they share the rest.
    remaining = kind.scaled(demand.sequentialNanos()) + wakeNanos;
    since = at;
    runOn(1, at);
  }

  @Override
  boolean hasWorkForHelper() {
    return !done;
  }

  @Override
  void addHelper(long at) {
    runOn(threads + 1, at);
  }

  @Override
  int shed(int n, long at) {
    if (n > 0) {
      runOn(threads - n, at);
    }
    return n;
  }

  @Override
  int yieldHelpers(int n, long at) {
    int leaving = Math.min(n, threads - 1);
    if (leaving > 0) {
      runOn(threads - leaving, at);
    }
    return Math.max(0, leaving);
  }

  @Override
  long nextEventAt() {
    return completesAt;
  }

  @Override
  int advance(long at) {
    if (completesAt > at) {
      return 0;
    }
    int leaving = threads;
    runOn(0, at);
    done = true;
    return leaving;
  }

  @Override
  boolean done() {
    return done;
  }

  @Override
  int working() {
    return threads;
  }

  @Override
  void pause(long at, long nanos) {
    if (threads == 0) {
      return;
    }
    settle(at);
    since = at + nanos; // no progress until the pause ends
    completesAt += nanos;
  }

  @Override
  void repace(long at, double newSlowdown) {
    if (threads > 0) {
      settle(at);
    }
    slowdown = newSlowdown;
    if (threads > 0) {
      schedule(threads, at);
    }
  }

  /** Settles progress up to {@code at}, then runs on with {@code t} threads. */
  private void runOn(int t, long at) {
    settle(at);
    setBusy(t, at);
    setThreads(t);
    schedule(t, at);
  }

  /** The work done since the last settling, at the threads and pace it was done with. */
  private void settle(long at) {
    long dt = at - since;
    if (dt > 0 && threads > 0) {
      remaining -= rate(threads) * dt;
    }
    since = Math.max(since, at);
  }

  /** When the work left completes on {@code t} threads from {@code at}. */
  private void schedule(int t, long at) {
    completesAt =
        t == 0 ? Long.MAX_VALUE : at + Math.max(0, (long) Math.ceil(remaining / rate(t) - 0.5));
  }

  /** Sequential work done per nanosecond on {@code t} threads at the current pace. */
  private double rate(int t) {
    return slowdown == 1 ? curve.at(t) : curve.at(t) / slowdown;
  }
}
