package dev.tailor.bench.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a {@link FaultSoak} found, and its figures as the command prints them.
 *
 * @param requests requests planned, each started once (submitted or run by a caller)
 * @param nestedSubmitted requests submitted from inside a request and waited for there
 * @param completed outcomes as planned: completed
 * @param failed failed with the planned failure
 * @param cancelled cancelled, at once or mid-run
 * @param cancelledBeforeStart of those, the ones no thread had started on (as the listener saw)
 * @param unexpected outcomes the request's kind does not allow, with the first few described
 * @param completionsNotOnce requests whose future's callbacks ran other than once
 * @param idsReported request ids the listener reported
 * @param idsNotOnce ids reported other than once, or missing
 * @param metricsTotal the scheduler's metrics' count of every outcome
 * @param midRunNotCancelled mid-run cancellations the body never saw (within a minute)
 * @param schedulerThreads threads the scheduler's thread factory made
 * @param fewestAlive the fewest of them alive at a sample
 * @param aliveAfterClose those alive after the scheduler closed
 * @param uncaught uncaught exceptions, with the first described
 * @param threadsBefore live threads before the scheduler started
 * @param threadsAfter live threads after everything closed
 * @param leftBehind threads alive after that were not before (JIT compiler threads aside)
 * @param goodTables good tables written; swappedIn: reloads that took a new table
 * @param corruptTables corrupt files written; rejected: reloads that kept the old table
 * @param policyThrows questions the policy answered by throwing
 * @param autoRebuilds rebuilds of the {@code auto} policy among the soak's policies
 * @param autoFailures those that failed (half are made to, on purpose) and left its policy serving
 * @param autoFinished those that finished with a verdict (swapped, kept or skipped)
 * @param autoDropped samples {@code auto} dropped as impossible
 * @param warningsLogged warnings the runtime logged (by logger), the policy's failures among them
 * @param heap used heap after GC, first before any request
 * @param seconds the run's wall time
 * @param stalled how the run stalled (no progress for minutes), or null if it did not
 */
public record SoakReport(
    FaultSoak.Options options,
    long requests,
    long nestedSubmitted,
    long completed,
    long failed,
    long cancelled,
    long cancelledBeforeStart,
    long unexpected,
    List<String> unexpectedExamples,
    long completionsNotOnce,
    long idsReported,
    long idsNotOnce,
    long metricsTotal,
    long midRunNotCancelled,
    int schedulerThreads,
    int fewestAlive,
    int aliveAfterClose,
    long uncaught,
    String firstUncaught,
    int threadsBefore,
    int threadsAfter,
    List<String> leftBehind,
    long goodTables,
    long swappedIn,
    long corruptTables,
    long rejected,
    long policyThrows,
    long autoRebuilds,
    long autoFailures,
    long autoFinished,
    long autoDropped,
    Map<String, Long> warningsLogged,
    List<HeapSample> heap,
    double seconds,
    String stalled) {

  /** One heap sample: used bytes after a full collection, once {@code requests} were started. */
  public record HeapSample(long requests, long usedBytes) {}

  /** Whether every check held. */
  public boolean passed() {
    return stalled == null
        && unexpected == 0
        && completionsNotOnce == 0
        && idsNotOnce == 0
        && idsReported == requests + nestedSubmitted
        && metricsTotal == idsReported
        && midRunNotCancelled == 0
        && schedulerThreads == poolThreads(options.workers()) + 1
        && fewestAlive == schedulerThreads
        && aliveAfterClose == 0
        && uncaught == 0
        && leftBehind.isEmpty()
        && swappedIn == goodTables
        && rejected == corruptTables
        && autoRebuilds == autoFailures + autoFinished
        && autoDropped == 0;
  }

  /** The spread (max - min) of the heap samples after the first, in bytes; 0 with fewer. */
  public long heapSpread() {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (HeapSample s : heap.subList(Math.min(1, heap.size()), heap.size())) {
      min = Math.min(min, s.usedBytes());
      max = Math.max(max, s.usedBytes());
    }
    return max < min ? 0 : max - min;
  }

  /** The report, one figure a line. */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            Locale.ROOT,
            "soak: %,d requests on %d workers and %d callers, seed %d; tables swapped every %,d"
                + " requests",
            requests,
            options.workers(),
            options.callers(),
            options.seed(),
            options.swapEvery()));
    out.add(
        String.format(
            Locale.ROOT,
            "outcomes          %,d completed, %,d failed as planned, %,d cancelled (%,d before"
                + " they started, %,d while running); %,d nested requests submitted and waited"
                + " for from inside a request",
            completed,
            failed,
            cancelled,
            cancelledBeforeStart,
            cancelled - cancelledBeforeStart,
            nestedSubmitted));
    out.add(
        String.format(
            Locale.ROOT,
            "exactly once      futures: %,d requests completed other than once; listener: %,d"
                + " ids of %,d expected, %,d other than once; metrics count %,d",
            completionsNotOnce,
            idsReported,
            requests + nestedSubmitted,
            idsNotOnce,
            metricsTotal));
    out.add(
        String.format(
            Locale.ROOT,
            "as planned        %,d unexpected outcomes%s; %,d mid-run cancellations unseen",
            unexpected,
            unexpectedExamples.isEmpty() ? "" : " (" + String.join("; ", unexpectedExamples) + ")",
            midRunNotCancelled));
    out.add(
        String.format(
            Locale.ROOT,
            "workers           %d scheduler threads (%d pool threads for %d workers + the"
                + " reevaluator), fewest alive at a sample %d, alive after close %d; uncaught"
                + " exceptions %d%s",
            schedulerThreads,
            poolThreads(options.workers()),
            options.workers(),
            fewestAlive,
            aliveAfterClose,
            uncaught,
            firstUncaught == null ? "" : " (" + firstUncaught + ")"));
    out.add(
        String.format(
            Locale.ROOT,
            "threads           %d live before, %d after; left behind: %s",
            threadsBefore,
            threadsAfter,
            leftBehind.isEmpty() ? "none" : String.join(", ", leftBehind)));
    out.add(
        String.format(
            Locale.ROOT,
            "tables            %d good written, %d swapped in; %d corrupt written, %d rejected"
                + " (the last good table kept serving)",
            goodTables,
            swappedIn,
            corruptTables,
            rejected));
    out.add(
        String.format(
            Locale.ROOT,
            "policy failures   %,d questions answered by throwing; warnings logged: %s",
            policyThrows,
            warningsLogged.isEmpty() ? "none" : warningsLogged));
    out.add(
        String.format(
            Locale.ROOT,
            "auto              %d rebuilds: %d failed on purpose (its policy kept serving), %d"
                + " finished; %d samples dropped",
            autoRebuilds,
            autoFailures,
            autoFinished,
            autoDropped));
    StringBuilder series = new StringBuilder();
    for (HeapSample s : heap) {
      if (series.length() > 0) {
        series.append(", ");
      }
      series.append(String.format(Locale.ROOT, "%,d: %.1f", s.requests(), mb(s.usedBytes())));
    }
    out.add("heap after GC     MB at requests started: " + series);
    out.add(
        String.format(
            Locale.ROOT,
            "heap spread       %.1f MB (max - min of the samples after the first)",
            mb(heapSpread())));
    out.add(
        String.format(
            Locale.ROOT,
            "time              %.1f s (%,.0f requests/s)",
            seconds,
            (requests + nestedSubmitted) / Math.max(seconds, 1e-9)));
    if (stalled != null) {
      out.add("stalled           " + stalled);
    }
    out.add("result            " + (passed() ? "PASS" : "FAIL"));
    return out;
  }

  private static double mb(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }

  /**
   * The pool threads of a scheduler of {@code workers} with prompt admission and the default slack:
   * twice the workers plus the slack less one, so that an admitted pool body always finds one idle
   * while helpers finish their claims.
   */
  static int poolThreads(int workers) {
    return 2 * workers + dev.tailor.core.Scheduler.DEFAULT_SLACK - 1;
  }
}
