package dev.tailor.core.policy;

import dev.tailor.core.Experimental;
import dev.tailor.core.metrics.RequestRecord;

/**
 * Decides how many threads work on each request, moment by moment. A policy answers questions about
 * a read-only view of the system; it never touches threads or clocks, so the same instance runs
 * unchanged in the real runtime (wall clock) and in the simulator (virtual clock).
 *
 * <p>Implementations must be thread-safe: the runtime asks from several threads at once. The
 * questions are asked on hot paths, so answers should be cheap and allocate nothing.
 *
 * <p>Policies are found by name through {@link PolicyRegistry} and configured from a {@link
 * PolicySpec}, or a string such as {@code fixed:4} or {@code rampup:10ms,6} that parses into one;
 * {@link #identity()} returns that identity and {@link #spec()} its string.
 *
 * <p>A policy may hold resources, such as the watcher of a table file that a nightly rebuild
 * replaces. Whoever creates a policy closes it when it is no longer used; a {@code Scheduler} does
 * not close the policy it was given, since one policy may serve several schedulers or outlive them.
 */
public interface Policy extends AutoCloseable {

  /**
   * Decides for the request at the head of the admission queue, when a thread is free to run it.
   * Asked again after a {@linkplain Admission.Kind#DELAY delay} expires or, after {@link
   * Admission#awaitExit()}, when a request exits.
   */
  Admission admit(RequestView request, SystemView system);

  /**
   * The degree the running request should have now; asked every quantum and at every work-unit
   * boundary. Zero means "serialize": release no more helpers; units already running finish and the
   * request's own thread does the rest. A negative answer is treated as zero. A policy that fixes
   * the degree at admission returns {@code request.degree()}.
   */
  int degree(RequestView request, SystemView system);

  /**
   * What a worker that has just become free does first: help a running request (steal-first) or
   * admit a new one (admit-first). Defaults to {@link WorkerPreference#HELP_FIRST}, so that a
   * degree granted is a degree received.
   */
  default WorkerPreference workerPreference(SystemView system) {
    return WorkerPreference.HELP_FIRST;
  }

  /**
   * Whether the policy must be told each request's true sequential time and speedup curve as its
   * prediction: a clairvoyant baseline (RC, the oracle, TPC's perfect predictor). Only a simulation
   * or a replay of a measured profile knows them, so such a policy bounds what the others can win
   * and is never deployed. The simulator and the load client give a clairvoyant policy the
   * profile's times, and every other policy the predictor's. Defaults to {@code false}.
   */
  default boolean clairvoyant() {
    return false;
  }

  /**
   * Whether the policy decides from a request's {@linkplain RequestView#projectedSequentialNanos()
   * projection}, so that a request's threads should show its progress early: their first claim of
   * windows is one window, and each later claim at most as many windows as the thread has claimed
   * so far ({@link dev.tailor.core.model.GuidedClaims#probingSize}), so that the projection is
   * refined after the first window and at every doubling, instead of after half of a lone thread's
   * work. Smaller claims cost boundaries, so the default, for a policy that does not read the
   * projection, is {@code false}.
   */
  default boolean watchesProgress() {
    return false;
  }

  /**
   * The sequential time from which this policy counts a request as {@linkplain RequestView#isLong()
   * long}, or 0 to leave it to the scheduler's setting. A table-driven policy states the threshold
   * its table was built with (TPC's groups are scaled to the workload), so that its load measure,
   * {@link SystemView#busyThreadsOnLongRequests()}, means what the table assumed. Read at every
   * check, so a swapped table's threshold takes effect at once. Defaults to 0.
   */
  default long longThresholdNanos() {
    return 0;
  }

  /**
   * How many times a new table replaced the one this policy decides by since it was created: a
   * table-driven policy's watched file rebuilt, or, for a policy that tunes itself, a new policy
   * swapped in or rolled back. For monitoring; read without blocking the policy's decisions.
   * Defaults to 0, for a policy with no table.
   */
  default long tableSwaps() {
    return 0;
  }

  /**
   * Hears that a request it admitted has completed, with its record: arrival, start, end, work and
   * degrees as they ended. For a policy that learns from the requests it serves ({@code auto}); a
   * policy that decides from the present alone ignores it, as the default does. Called once per
   * admitted request, after it has left the dispatch: in the runtime on the thread that completed
   * it, outside the dispatch lock and concurrently with other calls (so it must be thread-safe), in
   * the simulator on its thread.
   */
  @Experimental
  default void completed(RequestRecord record, SystemView system) {}

  /** The specification string this policy was created from, e.g. {@code rampup:10ms,6}. */
  String spec();

  /**
   * The policy's identity, typed: its kind, its settings and its table files ({@link PolicySpec}),
   * for code that asks what a policy is without reading its {@link #spec()}. The default parses
   * {@link #spec()}; the built-in policies answer without parsing, and a table-driven one handed
   * its table in memory answers {@link PolicySpec#inMemory}.
   *
   * @throws IllegalArgumentException if {@link #spec()} does not parse, naming it
   */
  default PolicySpec identity() {
    return PolicySpec.parse(spec());
  }

  /**
   * Releases what the policy holds, for example stops watching its table file. Idempotent. A closed
   * policy may still be asked and answers from what it last had. The default holds nothing.
   */
  @Override
  default void close() {}
}
