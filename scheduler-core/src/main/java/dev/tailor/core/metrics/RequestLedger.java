package dev.tailor.core.metrics;

import dev.tailor.core.Internal;

/**
 * A request's accounting, kept once for the runtime's requests and the simulator's so that both
 * measure and report alike: its degree over time ({@link DegreeHistory}), the thread time worked on
 * it (the number of threads working, integrated over time and settled at every change), the most
 * threads seen on it at once, and the {@link RequestRecord} made of them. Which threads count as
 * working, and which as on the request, is the caller's to say. Not thread-safe: the runtime guards
 * it with its request's monitor.
 */
@Internal
public final class RequestLedger {

  private final DegreeHistory degrees = new DegreeHistory();
  private long work; // thread time worked, settled at 'since'
  private int working;
  private long since;
  private int maxThreads;

  /** The request starts with degree {@code degree} at {@code at}. */
  public void start(int degree, long at) {
    degrees.start(degree, at);
  }

  /** The degree changes to {@code degree} at {@code at}; returns the degree before. */
  public int changeDegree(int degree, long at) {
    return degrees.change(degree, at);
  }

  /** From {@code at}, {@code n} threads work on the request. */
  public void working(int n, long at) {
    work += (long) working * (at - since);
    since = at;
    working = n;
  }

  /** The threads working on the request now. */
  public int working() {
    return working;
  }

  /** {@code n} threads are on the request at once: the record reports the most. */
  public void threadsSeen(int n) {
    maxThreads = Math.max(maxThreads, n);
  }

  /** The thread time worked on the request up to {@code now}, in nanoseconds. */
  public long workNanos(long now) {
    return work + (long) working * (now - since);
  }

  /**
   * The request's record, with the work settled at the last change (no thread works on a request
   * that ended), the most threads seen and the degree's maximum and time-weighted mean.
   */
  public RequestRecord record(
      long id,
      String label,
      long arrivalNanos,
      long startNanos,
      long firstRunNanos,
      long endNanos,
      RequestRecord.Outcome outcome) {
    return new RequestRecord(
        id,
        label,
        arrivalNanos,
        startNanos,
        firstRunNanos,
        endNanos,
        work,
        maxThreads,
        degrees.maxDegree(),
        degrees.mean(startNanos, endNanos),
        outcome);
  }
}
