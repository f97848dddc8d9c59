package dev.tailor.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.table.TableSource;
import dev.tailor.core.table.TargetTable;
import java.util.List;
import org.junit.jupiter.api.Test;

class TpcPolicyTest {

  static final long MS = 1_000_000L;

  private final FakeRequest request = new FakeRequest();
  private final FakeSystem system = new FakeSystem();

  /**
   * P = 4; medium from 30 ms, long from 80 ms; targets 20 ms at LongT 0, 50 ms up to LongT 3, 100
   * ms above.
   */
  static TargetTable table() {
    return table(TargetTable.LoadMetric.LONG_THREADS);
  }

  static TargetTable table(TargetTable.LoadMetric metric) {
    TargetTable.Inputs in =
        new TargetTable.Inputs(
            "p.json",
            "sha256:" + "0".repeat(64),
            3,
            null,
            null,
            "known",
            8,
            4,
            new double[] {100, 200},
            new double[] {1, 1},
            0.99,
            MS,
            1,
            "fluid",
            metric);
    TargetTable.Groups groups =
        new TargetTable.Groups(
            30 * MS,
            80 * MS,
            SpeedupCurve.of(1, 1.2, 1.3, 1.3),
            SpeedupCurve.of(1, 1.6, 2.0, 2.2),
            SpeedupCurve.of(1, 1.9, 2.7, 3.4));
    return new TargetTable(
        in,
        groups,
        List.of(
            new TargetTable.Row(0, 20 * MS),
            new TargetTable.Row(3, 50 * MS),
            new TargetTable.Row(TargetTable.INFINITE, 100 * MS)),
        "2026-11-23T00:00:00Z",
        1,
        new TargetTable.Search(0, 1, 0, 0));
  }

  private static Policy policy(TpcPolicy.Variant v) {
    return TpcPolicy.of(v, TableSource.fixed(table()));
  }

  private int admitted(Policy p, long predictedMs, int longThreads) {
    request.predicted = predictedMs < 0 ? RequestView.UNKNOWN : predictedMs * MS;
    system.longThreads = longThreads;
    Admission a = p.admit(request, system);
    assertEquals(Admission.Kind.START, a.kind());
    return a.degree();
  }

  @Test
  void admissionGivesTheFewestThreadsThatMeetTheTargetForTheLoad() {
    Policy tpc = policy(TpcPolicy.Variant.TPC);
    assertEquals(1, admitted(tpc, 10, 0)); // 10 <= E = 20
    assertEquals(4, admitted(tpc, 100, 0)); // long: 52.6, 37.0, 29.4 all > 20: P
    assertEquals(3, admitted(tpc, 100, 2)); // E = 50: 100 / 2.7 = 37.0
    assertEquals(3, admitted(tpc, 100, 3)); // d_1 = 3 still reads 50 ms
    assertEquals(1, admitted(tpc, 100, 4)); // E = 100
    assertEquals(2, admitted(tpc, 60, 1)); // medium: 60 / 1.6 = 37.5 <= 50
    assertEquals(4, admitted(tpc, 29, 0)); // short: 29 / 1.3 = 22.3 > 20 at every degree: P
    assertEquals(1, admitted(tpc, -1, 0)); // no prediction: sequential
  }

  @Test
  void correctionAddsIdleThreadsOnceARequestRunsPastItsTarget() {
    Policy tpc = policy(TpcPolicy.Variant.TPC);
    request.degree = 1;
    request.threads = 1;
    system.budget = 8;
    system.busy = 6;
    system.longThreads = 0; // E = 20 ms
    request.elapsed = 15 * MS;
    assertEquals(1, tpc.degree(request, system));
    request.elapsed = 25 * MS;
    assertEquals(3, tpc.degree(request, system)); // 1 thread + 2 idle
    system.busy = 2;
    assertEquals(4, tpc.degree(request, system)); // capped at P
    system.busy = 8;
    request.degree = 2;
    assertEquals(2, tpc.degree(request, system)); // no idle worker: keeps what it has
    system.longThreads = 5; // E = 100 ms: not yet past the target at this load
    system.busy = 0;
    assertEquals(2, tpc.degree(request, system));
  }

  @Test
  void underAllThreadsTheLoadIsEveryBusyThread() {
    Policy tpc =
        TpcPolicy.of(
            TpcPolicy.Variant.TPC, TableSource.fixed(table(TargetTable.LoadMetric.ALL_THREADS)));
    system.busy = 2; // E = 50 ms whatever LongT says
    assertEquals(3, admitted(tpc, 100, 0)); // 100 / 2.7 = 37.0 <= 50
    system.busy = 0; // E = 20 ms
    assertEquals(4, admitted(tpc, 100, 7));
  }

  @Test
  void tpNeverCorrects() {
    Policy tp = policy(TpcPolicy.Variant.TP);
    request.degree = 1;
    request.elapsed = 500 * MS;
    system.busy = 0;
    assertEquals(1, tp.degree(request, system));
  }

  @Test
  void onlyTheOracleIsClairvoyantAndAllCountLongFromTheTable() {
    assertFalse(policy(TpcPolicy.Variant.TPC).clairvoyant());
    assertFalse(policy(TpcPolicy.Variant.TP).clairvoyant());
    assertTrue(policy(TpcPolicy.Variant.TPC_ORACLE).clairvoyant());
    assertEquals(80 * MS, policy(TpcPolicy.Variant.TPC).longThresholdNanos());
    Policy capped = DegreeCap.of(policy(TpcPolicy.Variant.TPC_ORACLE), 2);
    assertTrue(capped.clairvoyant());
    assertEquals(80 * MS, capped.longThresholdNanos());
  }

  @Test
  void predRunsPredictedLongRequestsAtItsDegree() {
    Policy pred = PolicyRegistry.of("pred:80ms,3");
    assertEquals(3, admitted(pred, 80, 0));
    assertEquals(1, admitted(pred, 79, 0));
    assertEquals(1, admitted(pred, -1, 0));
    assertEquals("pred:80ms,3", PolicyRegistry.of("pred").spec());
  }
}
