package dev.tailor.core.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tailor.core.metrics.RequestRecord.Outcome;
import org.junit.jupiter.api.Test;

class RunMetricsTest {

  private static final long MS = 1_000_000L;

  private static RequestRecord record(long id, long queuedMs, long latencyMs, Outcome outcome) {
    return new RequestRecord(
        id,
        null,
        0,
        queuedMs * MS,
        queuedMs * MS,
        latencyMs * MS,
        latencyMs * MS,
        1,
        1,
        1.0,
        outcome);
  }

  @Test
  void onlyCompletedRequestsAreLatencies() {
    RunMetrics m = new RunMetrics(RequestGroups.tpcDefault());
    m.record(record(1, 1, 30, Outcome.COMPLETED));
    m.record(record(2, 2, 1, Outcome.FAILED)); // failed fast: no answer, so no latency
    m.record(record(3, 0, 0, Outcome.CANCELLED));
    assertEquals(1, m.latency().getTotalCount());
    assertEquals(30 * MS, m.latency().getMaxValue(), 30 * MS / 1000.0);
    // A failed request still waited to be admitted and ran at a degree.
    assertEquals(2, m.queueing().getTotalCount());
    assertEquals(
        2, m.degreeDistribution().values().stream().mapToLong(c -> c[1]).sum(), "degree 1 twice");
    assertEquals(1, m.count(Outcome.COMPLETED));
    assertEquals(1, m.count(Outcome.FAILED));
    assertEquals(1, m.count(Outcome.CANCELLED));
  }
}
