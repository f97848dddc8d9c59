package dev.tailor.load;

import dev.tailor.core.metrics.RunMetrics;
import dev.tailor.measure.CoRun;
import java.util.concurrent.CompletableFuture;

/**
 * Where a replay sends its requests. {@link #send} must not block: an open-loop client sends on
 * schedule whatever the backlog, so a target that cannot take a request fails its future instead.
 */
public interface Target extends AutoCloseable {

  /**
   * Sends the trace's query number {@code query}.
   *
   * @return completes with a result when one arrives; exceptionally if the request got none, with a
   *     {@link RequestFailedException} saying why where the target can tell (any other exception
   *     counts as an {@linkplain dev.tailor.measure.Failures.Kind#ERROR error}); never, if no
   *     answer comes: the replay counts it unanswered at its drain deadline
   */
  CompletableFuture<?> send(int query);

  /**
   * Starts a fresh account of the scheduler's side, counting requests that arrive from {@code
   * nanoTime} on: queueing delay and degrees. Targets that cannot see the scheduler return null.
   */
  default RunMetrics measureFrom(long nanoTime) {
    return null;
  }

  /**
   * What the server says the request answered with {@code answer} (the value its {@link #send}
   * future completed with) spent queued, waking and running, or null where it does not say: the
   * replay then records no latency breakdown for it.
   */
  default ServerTiming timing(Object answer) {
    return null;
  }

  /**
   * When the request answered with {@code answer} first ran and ended on this process's clock
   * ({@link System#nanoTime}), on how many threads at most, and its profiled sequential time, or
   * null where the target cannot say (another process's server): the replay then records no co-run
   * measurement ({@link dev.tailor.measure.CoRun}) for its point.
   */
  default CoRun.Span span(Object answer) {
    return null;
  }

  /** What the policy deciding on this target is, e.g. {@code fixed:2}. */
  String policy();

  @Override
  void close();
}
