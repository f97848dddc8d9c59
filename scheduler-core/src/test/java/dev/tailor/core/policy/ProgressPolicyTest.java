package dev.tailor.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.table.TableSource;
import dev.tailor.core.table.ThresholdTable;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress-aware policy's three kinds of decision on scripted requests, against {@link
 * TpcPolicyTest#table()} (P = 4; medium from 30 ms, long from 80 ms; targets 20 ms at LongT 0, 50
 * ms up to 3, 100 ms above) and thresholds of 100 ms with one request in the system, 40 ms with
 * two, 10 ms from three on.
 */
class ProgressPolicyTest {

  private static final long MS = 1_000_000L;

  private final FakeRequest request = new FakeRequest();
  private final FakeSystem system = new FakeSystem();

  private static ProgressPolicy policy(boolean serializes) {
    return ProgressPolicy.of(
        TableSource.fixed(TpcPolicyTest.table()),
        serializes ? TableSource.fixed(TailControlPolicyTest.table(100, 40, 10)) : null);
  }

  /**
   * A running request: degree and threads 1, run and work {@code ranMs}, projected at {@code L}.
   */
  private void running(long ranMs, long projectedMs) {
    request.degree = 1;
    request.threads = 1;
    request.elapsed = ranMs * MS;
    request.work = ranMs * MS;
    request.projected = projectedMs < 0 ? RequestView.UNKNOWN : projectedMs * MS;
    system.active = 1;
  }

  @Test
  void atArrivalItGivesTheDegreeTpcGivesAndWithoutAPredictionALongRequestsDegree() {
    Policy progress = policy(true);
    Policy tpc = TpcPolicy.of(TpcPolicy.Variant.TPC, TableSource.fixed(TpcPolicyTest.table()));
    request.predicted = RequestView.UNKNOWN;
    assertEquals(Admission.start(4), progress.admit(request, system), "80 ms > E = 20 at every i");
    system.longThreads = 2;
    assertEquals(Admission.start(2), progress.admit(request, system), "E = 50: 80 / 1.9 = 42.1");
    system.longThreads = 4;
    assertEquals(Admission.start(1), progress.admit(request, system), "E = 100 ms: alone");
    for (long predictedMs : new long[] {10, 29, 60, 100, 400}) {
      for (int longThreads : new int[] {0, 2, 3, 4, 9}) {
        request.predicted = predictedMs < 0 ? RequestView.UNKNOWN : predictedMs * MS;
        system.longThreads = longThreads;
        Admission expected = tpc.admit(request, system);
        assertEquals(
            expected,
            progress.admit(request, system),
            predictedMs + " ms predicted at LongT " + longThreads);
      }
    }
  }

  @Test
  void aRequestProjectedToMissItsTargetGetsTheFewestThreadsThatMeetIt() {
    Policy progress = policy(false);
    Policy tpc = TpcPolicy.of(TpcPolicy.Variant.TPC, TableSource.fixed(TpcPolicyTest.table()));
    system.budget = 8; // E = 20 ms at LongT 0; 2 ms run leaves 18 ms of slack
    running(2, 12);
    assertEquals(1, progress.degree(request, system), "10 ms left fits in 18 alone");
    running(2, 30);
    assertEquals(2, progress.degree(request, system), "medium: 28 / 1.6 = 17.5 <= 18");
    assertEquals(1, tpc.degree(request, system), "TPC waits until it has run past 20 ms");
    running(2, 40);
    assertEquals(4, progress.degree(request, system), "38 / 2.0 = 19 > 18: P");
    system.busy = 8;
    assertEquals(4, progress.degree(request, system), "granted now, helped as workers come free");
    system.queued = 1;
    system.busy = 7;
    assertEquals(2, progress.degree(request, system), "a request waits: 1 thread + 1 idle");
    system.busy = 8;
    assertEquals(1, progress.degree(request, system), "a request waits and no worker is idle");
    system.queued = 0;
    system.busy = 0;
    running(2, 12);
    request.degree = 3;
    assertEquals(3, progress.degree(request, system), "never lowered");
    system.longThreads = 5; // E = 100 ms
    running(2, 40);
    assertEquals(1, progress.degree(request, system), "on target at this load");
  }

  @Test
  void withoutAProjectionItCorrectsOnceARequestRunsPastItsTargetAsTpcDoes() {
    Policy progress = policy(false);
    Policy tpc = TpcPolicy.of(TpcPolicy.Variant.TPC, TableSource.fixed(TpcPolicyTest.table()));
    system.budget = 8;
    system.busy = 6;
    for (long ranMs : new long[] {5, 19}) {
      running(ranMs, -1);
      assertEquals(1, progress.degree(request, system), ranMs + " ms");
      assertEquals(tpc.degree(request, system), progress.degree(request, system), ranMs + " ms");
    }
    running(25, -1);
    assertEquals(4, progress.degree(request, system), "past the target: P");
    assertEquals(3, tpc.degree(request, system), "where TPC grants 1 thread + 2 idle");
  }

  @Test
  void aProjectedGiantIsSerializedWhileTheLoadMakesItHopelessAndOnlyThen() {
    Policy progress = policy(true);
    system.budget = 8;
    running(2, 30);
    assertEquals(2, progress.degree(request, system), "one request: threshold 100 ms");
    system.active = 2;
    assertEquals(2, progress.degree(request, system), "two: 30 <= 40 ms");
    system.active = 2;
    system.queued = 1;
    assertEquals(0, progress.degree(request, system), "three in the system: 30 > 10 ms");
    request.degree = 0;
    system.queued = 0;
    assertEquals(2, progress.degree(request, system), "the pileup is over: threads again");
    system.active = 5;
    request.projected = 9 * MS;
    request.degree = 1;
    assertEquals(1, progress.degree(request, system), "projected under the threshold");
    assertEquals(
        1, policy(false).degree(request, system), "without thresholds it never serializes");
    request.projected = 400 * MS;
    assertEquals(
        4, policy(false).degree(request, system), "without thresholds it never serializes");
  }

  @Test
  void itCountsRequestsAsLongFromItsTargetTable() {
    assertEquals(80 * MS, policy(true).longThresholdNanos());
  }

  @Test
  void itIsFoundByNameWithOneOrTwoTableFiles(@TempDir Path dir) throws IOException {
    Path targets = dir.resolve("targets.json");
    Path thresholds = dir.resolve("thresholds.json");
    TpcPolicyTest.table().write(targets);
    TailControlPolicyTest.table(100, 40, 10).write(thresholds);
    try (Policy one = PolicyRegistry.of("progress:" + targets);
        Policy two = PolicyRegistry.of("progress:" + targets + "+" + thresholds)) {
      assertEquals("progress:" + targets, one.spec());
      assertEquals("progress:" + targets + "+" + thresholds, two.spec());
      running(2, 400);
      system.active = 3;
      assertEquals(4, one.degree(request, system));
      assertEquals(0, two.degree(request, system));
    }
  }

  @Test
  void badSpecificationsAndTablesAreRejectedNamingWhatIsWrong(@TempDir Path dir)
      throws IOException {
    Path targets = dir.resolve("targets.json");
    TpcPolicyTest.table().write(targets);
    assertMessage("expected the target table's file", "progress");
    assertMessage("expected two files around '+'", "progress:" + targets + "+");
    assertMessage(
        "no such file: " + dir.resolve("none.json"), "progress:" + dir.resolve("none.json"));
    Path wrongKind = dir.resolve("wrong.json");
    TpcPolicyTest.table().write(wrongKind); // a target table where thresholds belong
    String message =
        assertThrows(
                IllegalArgumentException.class,
                () -> PolicyRegistry.of("progress:" + targets + "+" + wrongKind))
            .getMessage();
    assertTrue(message.contains(wrongKind.toString()), message);
    assertTrue(message.contains(ThresholdTable.KIND), message);
  }

  private static void assertMessage(String expected, String spec) {
    String message =
        assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of(spec)).getMessage();
    assertTrue(message.contains(expected), message);
  }
}
