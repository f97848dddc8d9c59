package dev.tailor.core.metrics;

/**
 * The account of one finished request. Times are nanoseconds on the clock of the system that ran
 * it; a request that never started has {@code startNanos == endNanos}.
 *
 * @param id the request's id
 * @param label the class label it was submitted with, or {@code null}
 * @param arrivalNanos when it was submitted
 * @param startNanos when it was admitted and began to run
 * @param endNanos when its last thread finished
 * @param workNanos busy time summed over its threads
 * @param maxThreads the most threads that worked on it at once
 * @param maxDegree the highest degree the policy gave it
 * @param meanDegree its degree averaged over its run time
 * @param outcome how it ended
 */
public record RequestRecord(
    long id,
    String label,
    long arrivalNanos,
    long startNanos,
    long endNanos,
    long workNanos,
    int maxThreads,
    int maxDegree,
    double meanDegree,
    Outcome outcome) {

  /** How a request ended. */
  public enum Outcome {
    /** Its body returned and none of its units failed. */
    COMPLETED,
    /** Its body or one of its units threw. */
    FAILED,
    /** It was cancelled, or failed by {@code shutdownNow}, before it completed. */
    CANCELLED
  }

  /** Arrival to completion. */
  public long latencyNanos() {
    return endNanos - arrivalNanos;
  }

  /** Arrival to start: the time spent waiting for admission. */
  public long queueingNanos() {
    return startNanos - arrivalNanos;
  }

  /** Start to completion. */
  public long runNanos() {
    return endNanos - startNanos;
  }
}
