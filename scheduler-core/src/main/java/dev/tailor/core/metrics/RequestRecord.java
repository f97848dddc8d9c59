package dev.tailor.core.metrics;

/**
 * The account of one finished request. Times are nanoseconds on the clock of the system that ran
 * it; a request that never started has {@code startNanos == endNanos}. Its latency splits into
 * three parts that add up to it: queueing (arrival to admitted), dispatch (admitted to its body
 * first running: the wake-up of the thread that runs it) and run (first running to its last
 * thread's end).
 *
 * @param id the request's id
 * @param label the class label it was submitted with, or {@code null}
 * @param arrivalNanos when it was submitted
 * @param startNanos when it was admitted and began to run
 * @param firstRunNanos when its body first ran on its own thread; {@code startNanos} if it never
 *     ran
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
    long firstRunNanos,
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

  /** Admitted to first running: the wake-up of the thread that runs the request. */
  public long dispatchNanos() {
    return firstRunNanos - startNanos;
  }

  /** First running to completion, with its helpers. */
  public long runNanos() {
    return endNanos - firstRunNanos;
  }
}
