package dev.tailor.core.metrics;

import dev.tailor.core.Internal;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * What a run of requests measured: latency and its breakdown (queueing, dispatch and run, as {@link
 * RequestRecord} defines them) in HdrHistograms, the degree distribution per request group, outcome
 * counts, and the time-weighted number of busy workers. The runtime and the simulator both record
 * into it, so their results share one format. The runtime also counts its helpers ({@link
 * #recordHelper}), which the simulator's fluid model does not.
 *
 * <p>Thread-safe, except those made {@link #singleThreaded}. Recording a request allocates nothing
 * once its group has been seen.
 */
@Internal
public final class RunMetrics {

  /** The highest degree the degree distribution tells apart; higher ones count here. */
  public static final int MAX_TRACKED_DEGREE = 64;

  private static final long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L; // one hour

  private final RequestGroups groups;
  private final Histogram latency;
  private final Histogram queueing;
  private final Histogram dispatch; // null: the breakdown is not kept
  private final Histogram run;
  private final ConcurrentHashMap<String, AtomicLongArray> degreesByGroup =
      new ConcurrentHashMap<>();
  private final AtomicLongArray outcomes =
      new AtomicLongArray(RequestRecord.Outcome.values().length);
  private final LongAdder helpers = new LongAdder();
  private final LongAdder unitsOnHelpers = new LongAdder();

  // Busy-worker integral; its writer serializes the calls (the runtime holds its dispatch lock).
  private long busySinceNanos = Long.MIN_VALUE;
  private int busyNow;
  private double busyWorkerNanos;
  private long firstObservationNanos = Long.MIN_VALUE;

  /** Metrics that sort requests into the given groups, recorded from any thread. */
  public RunMetrics(RequestGroups groups) {
    this(groups, true);
  }

  private RunMetrics(RequestGroups groups, boolean concurrent, boolean breakdown) {
    this.groups = groups;
    this.latency = newHistogram(concurrent);
    this.queueing = newHistogram(concurrent);
    this.dispatch = breakdown ? newHistogram(concurrent) : null;
    this.run = breakdown ? newHistogram(concurrent) : null;
  }

  private RunMetrics(RequestGroups groups, boolean concurrent) {
    this(groups, concurrent, true);
  }

  /**
   * Metrics without the dispatch and run histograms, whose {@link #dispatch} and {@link #run} are
   * empty: only for measuring what keeping them costs a request ({@code bench scheduler-overhead}).
   */
  @Internal
  public static RunMetrics withoutBreakdown(RequestGroups groups) {
    return new RunMetrics(groups, true, false);
  }

  /**
   * Metrics recorded from one thread only, as the simulator records them: plain histograms, which
   * cost less per record than concurrent ones.
   */
  public static RunMetrics singleThreaded(RequestGroups groups) {
    return new RunMetrics(groups, false);
  }

  private static Histogram newHistogram(boolean concurrent) {
    return concurrent
        ? new ConcurrentHistogram(1, HIGHEST_TRACKABLE_NANOS, 3)
        : new Histogram(1, HIGHEST_TRACKABLE_NANOS, 3);
  }

  /**
   * Records one finished request. Cancelled requests count in the outcomes only; failed ones in the
   * outcomes, the queueing delays and the degrees, but not in the latency histogram, whose
   * percentiles describe requests answered with a result (a search that threw at once would
   * otherwise lower them).
   */
  public void record(RequestRecord r) {
    outcomes.incrementAndGet(r.outcome().ordinal());
    if (r.outcome() == RequestRecord.Outcome.CANCELLED) {
      return;
    }
    if (r.outcome() == RequestRecord.Outcome.COMPLETED) {
      latency.recordValue(Math.max(1, Math.min(HIGHEST_TRACKABLE_NANOS, r.latencyNanos())));
    }
    queueing.recordValue(Math.max(1, Math.min(HIGHEST_TRACKABLE_NANOS, r.queueingNanos())));
    if (dispatch != null) {
      dispatch.recordValue(Math.max(1, Math.min(HIGHEST_TRACKABLE_NANOS, r.dispatchNanos())));
      run.recordValue(Math.max(1, Math.min(HIGHEST_TRACKABLE_NANOS, r.runNanos())));
    }
    degreesByGroup
        .computeIfAbsent(groups.groupOf(r), k -> new AtomicLongArray(MAX_TRACKED_DEGREE + 1))
        .incrementAndGet(Math.min(r.maxDegree(), MAX_TRACKED_DEGREE));
  }

  /**
   * Records that a helper thread left a request it had joined, after running {@code units} of its
   * work units. Allocates nothing once warm. The runtime calls it; a reader needs only {@link
   * #helpers()} and {@link #unitsOnHelpers()}.
   */
  @Internal
  public void recordHelper(int units) {
    helpers.increment();
    unitsOnHelpers.add(units);
  }

  /**
   * Notes that the number of busy workers became {@code busy} at {@code nowNanos}. Not thread-safe:
   * calls must come one at a time and in time order, as the runtime makes them under its dispatch
   * lock and the simulator on its single thread.
   */
  public void observeBusyWorkers(long nowNanos, int busy) {
    if (firstObservationNanos == Long.MIN_VALUE) {
      firstObservationNanos = nowNanos;
      busySinceNanos = nowNanos;
    } else if (nowNanos > busySinceNanos) {
      busyWorkerNanos += (double) busyNow * (nowNanos - busySinceNanos);
      busySinceNanos = nowNanos;
    }
    busyNow = busy;
  }

  /**
   * Busy workers averaged over time from the first observation until {@code nowNanos}. Call it
   * under the same guard as {@link #observeBusyWorkers}.
   */
  public double meanBusyWorkers(long nowNanos) {
    if (firstObservationNanos == Long.MIN_VALUE || nowNanos <= firstObservationNanos) {
      return busyNow;
    }
    double total = busyWorkerNanos + (double) busyNow * (nowNanos - busySinceNanos);
    return total / (nowNanos - firstObservationNanos);
  }

  /**
   * A copy of the latency histogram (arrival to completion, nanoseconds) of the requests completed
   * with a result.
   */
  public Histogram latency() {
    return latency.copy();
  }

  /** A copy of the queueing-delay histogram (arrival to start, nanoseconds). */
  public Histogram queueing() {
    return queueing.copy();
  }

  /**
   * A copy of the dispatch-delay histogram (admitted to first running: the wake-up, nanoseconds) of
   * the requests that were not cancelled.
   */
  public Histogram dispatch() {
    return dispatch == null ? newHistogram(false) : dispatch.copy();
  }

  /**
   * A copy of the run-time histogram (first running to the last thread's end, nanoseconds) of the
   * requests that were not cancelled.
   */
  public Histogram run() {
    return run == null ? newHistogram(false) : run.copy();
  }

  /**
   * How many times a thread joined a running request as a helper (and has left it since): each stay
   * counts once, however many units it ran.
   */
  public long helpers() {
    return helpers.sum();
  }

  /** How many work units helpers ran: the units not run by their request's own thread. */
  public long unitsOnHelpers() {
    return unitsOnHelpers.sum();
  }

  /** How many requests ended with the given outcome. */
  public long count(RequestRecord.Outcome outcome) {
    return outcomes.get(outcome.ordinal());
  }

  /**
   * The degree distribution per group: for each group, the number of requests whose highest degree
   * was {@code d}, at index {@code d} (index 0 counts requests serialized from the start).
   */
  public Map<String, long[]> degreeDistribution() {
    Map<String, long[]> out = new TreeMap<>();
    degreesByGroup.forEach(
        (k, v) -> {
          long[] counts = new long[v.length()];
          for (int i = 0; i < counts.length; i++) {
            counts[i] = v.get(i);
          }
          out.put(k, counts);
        });
    return out;
  }
}
