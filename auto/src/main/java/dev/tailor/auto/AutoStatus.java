package dev.tailor.auto;

import dev.tailor.core.Experimental;
import java.util.List;

/**
 * What {@code auto} has learned and done, at one moment: for {@code /stats}, metrics and logs.
 *
 * @param liveSpec the policy serving now: a static baseline until a rebuild swapped something
 *     better in, then the chosen candidate
 * @param samplesHeld samples in the reservoir
 * @param samplesCapacity the samples it holds at most
 * @param reservoirBytes the memory the reservoirs' arrays hold (the samples' and the probes')
 * @param samplesDropped records dropped as impossible (a negative time, an overflow)
 * @param probes requests run at a probing degree (1 or a second degree) instead of the live
 *     policy's
 * @param rebuilds rebuilds finished, whatever their outcome
 * @param swaps rebuilds whose candidate was swapped in
 * @param kept rebuilds whose guard kept the live policy (no candidate simulated better)
 * @param skipped rebuilds that found too few samples or probes to build from
 * @param failures rebuilds that threw or ran past their time limit; the live policy kept serving
 * @param lastFailure the last failure's message, or null
 * @param shifts workload shifts detected
 * @param cpuNanos CPU time all rebuilds took
 * @param cpuShare that CPU time over the time since the policy was made: the share of one core the
 *     rebuilds used on average
 * @param nextPeriodNanos the time the next rebuild waits for after the last: the configured period,
 *     shortened after a shift, lengthened so that rebuilds keep within their CPU share
 * @param rollbacks swaps undone because the swapped-in policy served a P99 {@code 1.25} times the
 *     replaced one's at about the same load, measured, whatever the guard had simulated
 * @param lastRollback why the last one was undone, or null
 * @param firstRebuildNanos when the first rebuild that compared candidates ended, on the
 *     scheduler's clock, or -1 before it
 * @param last the last rebuild's verdict, or null before the first
 */
@Experimental
public record AutoStatus(
    String liveSpec,
    int samplesHeld,
    int samplesCapacity,
    long reservoirBytes,
    long samplesDropped,
    long probes,
    long rebuilds,
    long swaps,
    long kept,
    long skipped,
    long failures,
    String lastFailure,
    long shifts,
    long cpuNanos,
    double cpuShare,
    long nextPeriodNanos,
    long rollbacks,
    String lastRollback,
    long firstRebuildNanos,
    Verdict last) {

  /**
   * One rebuild's outcome: what it built from, what the guard compared and why it swapped or not.
   *
   * @param samples the samples it built from
   * @param rateRps the arrival rate over their span, the load the guard simulated
   * @param measuredDegrees the degrees above 1 whose speedup the probes measured
   * @param speedups the speedup measured at those degrees for small, middling and large requests,
   *     in words, or empty when nothing was measured
   * @param medianNanos the median sequential time of the profile built from the samples, or 0
   * @param trials every candidate's simulated P99 at that load, the live policy's first
   * @param chosen the candidate with the lowest P99, or null when the rebuild was skipped
   * @param swapped whether the chosen candidate replaced the live policy
   * @param reason why, in words
   * @param cpuNanos the CPU time the rebuild took
   * @param wallNanos the wall time it took
   */
  public record Verdict(
      int samples,
      double rateRps,
      int[] measuredDegrees,
      String speedups,
      long medianNanos,
      List<Trial> trials,
      String chosen,
      boolean swapped,
      String reason,
      long cpuNanos,
      long wallNanos) {

    /** Copies the lists. */
    public Verdict {
      measuredDegrees = measuredDegrees.clone();
      trials = List.copyOf(trials);
    }
  }

  /**
   * A policy the guard simulated.
   *
   * @param spec its specification ({@code progress:(in memory)} for the progress-aware policy on
   *     the target table the rebuild built)
   * @param p99Nanos its simulated P99 at the samples' load, averaged over the guard's seeds;
   *     infinite if it saturated
   * @param live whether it is the policy serving when the rebuild ran
   */
  public record Trial(String spec, double p99Nanos, boolean live) {}
}
