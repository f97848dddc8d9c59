package dev.tailor.opensearch;

import java.util.Locale;

/**
 * The decider's answer for one shard request and why: whether its query phase searches its slices
 * concurrently (and so runs as a Tailor request whose policy gives it threads as it runs) or
 * sequentially on its own thread, as OpenSearch's mode {@code none} would.
 *
 * @param reason the rule that decided
 * @param predictedNanos the request's predicted sequential time, or {@link QueryCosts#UNKNOWN}
 * @param idleThreads the node's threads that were idle: its Tailor workers less those busy on
 *     Tailor requests and on sequential query phases
 * @param queued query phases waiting for a Tailor worker
 */
record Verdict(Reason reason, long predictedNanos, int idleThreads, int queued) {

  /** The rules, in the order they are tried. */
  enum Reason {
    /** Predicted shorter than {@code tailor.decider.min_cost}: runs alone at any load. */
    SHORT(false),
    /** No second thread to give: fewer than two idle threads, or query phases waiting. */
    BUSY(false),
    /** Predicted at least {@code tailor.decider.min_cost}, with threads idle. */
    LONG(true),
    /** Never seen before, with threads idle: the policy decides as it runs. */
    UNSEEN(true);

    final boolean concurrent;

    Reason(boolean concurrent) {
      this.concurrent = concurrent;
    }

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * Decides one request. A request needs a second thread to gain from concurrency: the query
   * phase's own thread is one of the node's threads, so a second needs two idle and none waiting
   * (else concurrency only adds slicing and reduction to a request that runs alone anyway). A short
   * request gains too little to pay that at any load (Few-to-Many §3 and TPC §4 both run short
   * requests on one thread). An unseen request goes to the scheduler, whose policy watches it.
   *
   * @param predictedNanos the predicted sequential time, or {@link QueryCosts#UNKNOWN}
   * @param minCostNanos the short-request cut
   * @param workers the node's Tailor workers
   * @param busyThreads threads busy on Tailor requests and sequential query phases
   * @param queued query phases waiting for admission
   */
  static Verdict decide(
      long predictedNanos, long minCostNanos, int workers, int busyThreads, int queued) {
    int idle = Math.max(0, workers - busyThreads);
    Reason reason;
    if (predictedNanos != QueryCosts.UNKNOWN && predictedNanos < minCostNanos) {
      reason = Reason.SHORT;
    } else if (idle < 2 || queued > 0) {
      reason = Reason.BUSY;
    } else if (predictedNanos != QueryCosts.UNKNOWN) {
      reason = Reason.LONG;
    } else {
      reason = Reason.UNSEEN;
    }
    return new Verdict(reason, predictedNanos, idle, queued);
  }

  boolean concurrent() {
    return reason.concurrent;
  }

  /**
   * One line for the stats and OpenSearch's debug log, such as {@code "long: predicted 4.2 ms"}.
   */
  String explain(long minCostNanos) {
    String predicted =
        predictedNanos == QueryCosts.UNKNOWN
            ? "no prediction"
            : "predicted " + millis(predictedNanos) + " ms";
    return switch (reason) {
      case SHORT -> "short: " + predicted + " < min_cost " + millis(minCostNanos) + " ms";
      case BUSY -> "busy: " + idleThreads + " idle threads, " + queued + " queued; " + predicted;
      case LONG -> "long: " + predicted + ", " + idleThreads + " idle threads";
      case UNSEEN -> "unseen: " + predicted + ", " + idleThreads + " idle threads";
    };
  }

  private static String millis(long nanos) {
    return Double.toString(Math.round(nanos / 1e4) / 100.0);
  }
}
