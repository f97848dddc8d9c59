package dev.tailor.bench;

import dev.tailor.core.metrics.RequestGroups;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.metrics.RunMetrics;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * What the latency breakdown adds to a request's path: recording a finished request into the
 * scheduler's metrics with the dispatch and run histograms, against without them. That is the
 * breakdown's whole cost per request: its one other step, noting when the body first ran, reuses a
 * clock reading taken anyway and writes one field under a monitor already held. {@code ./tailor
 * bench scheduler-overhead} prints the difference.
 */
public class BreakdownCostBenchmark extends NanosecondBenchmark {

  private final RunMetrics with = new RunMetrics(RequestGroups.tpcDefault());
  private final RunMetrics without = RunMetrics.withoutBreakdown(RequestGroups.tpcDefault());

  // A request that waited 40 µs, woke in 12 µs and ran 900 µs: values inside every histogram.
  private final RequestRecord record =
      new RequestRecord(
          1,
          null,
          1_000_000,
          1_040_000,
          1_052_000,
          1_952_000,
          900_000,
          1,
          1,
          1.0,
          RequestRecord.Outcome.COMPLETED);

  @Benchmark
  public void withBreakdown() {
    with.record(record);
  }

  @Benchmark
  public void withoutBreakdown() {
    without.record(record);
  }
}
