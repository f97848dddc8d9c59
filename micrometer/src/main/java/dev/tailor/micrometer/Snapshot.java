package dev.tailor.micrometer;

import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.metrics.RunMetrics;
import java.util.function.Supplier;

/**
 * One reading of the scheduler's metrics, reused while no request has ended since: the meters of
 * one histogram, or of the degree distribution, then share one copy of it rather than copying the
 * whole of it each. A request's record reaches every histogram before its future completes, but a
 * reading may catch one between its outcome count and its histograms; so a reading is reused for at
 * most {@link #MAX_AGE_NANOS}, and readings come in time order, so counters built on them never go
 * backwards.
 */
final class Snapshot<T> {

  /** The longest a reading is reused for. */
  static final long MAX_AGE_NANOS = 1_000_000_000L;

  private static final RequestRecord.Outcome[] OUTCOMES = RequestRecord.Outcome.values();

  private final RunMetrics metrics;
  private final Supplier<T> source;
  private T value;
  private long ended;
  private long readAtNanos;

  Snapshot(RunMetrics metrics, Supplier<T> source) {
    this.metrics = metrics;
    this.source = source;
  }

  synchronized T get() {
    long now = System.nanoTime();
    long endedNow = ended(metrics);
    if (value == null || endedNow != ended || now - readAtNanos > MAX_AGE_NANOS) {
      value = source.get();
      ended = endedNow;
      readAtNanos = now;
    }
    return value;
  }

  /** The requests ended so far, whatever their outcome: counted before they are recorded. */
  private static long ended(RunMetrics metrics) {
    long sum = 0;
    for (RequestRecord.Outcome outcome : OUTCOMES) {
      sum += metrics.count(outcome);
    }
    return sum;
  }
}
