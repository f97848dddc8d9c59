package dev.tailor.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.tailor.core.model.SpeedupCurve;
import org.junit.jupiter.api.Test;

class BaselinePoliciesTest {

  private final FakeRequest request = new FakeRequest();
  private final FakeSystem system = new FakeSystem();

  @Test
  void sequentialStartsAndStaysAtOne() {
    Policy seq = PolicyRegistry.of("seq");
    assertSame(Admission.Kind.START, seq.admit(request, system).kind());
    assertEquals(1, seq.admit(request, system).degree());
    request.elapsed = 10_000_000_000L;
    assertEquals(1, seq.degree(request, system));
  }

  @Test
  void fixedStartsAndStaysAtN() {
    Policy fixed = PolicyRegistry.of("fixed:4");
    assertEquals(4, fixed.admit(request, system).degree());
    system.queued = 100;
    assertEquals(4, fixed.degree(request, system));
  }

  @Test
  void rampUpAddsOneThreadPerIntervalUpToMax() {
    Policy rampUp = PolicyRegistry.of("rampup:10ms,3");
    assertEquals(1, rampUp.admit(request, system).degree());
    long[] elapsedMs = {0, 9, 10, 19, 20, 29, 30, 1000};
    int[] expected = {1, 1, 2, 2, 3, 3, 3, 3};
    for (int i = 0; i < elapsedMs.length; i++) {
      request.elapsed = elapsedMs[i] * 1_000_000L;
      assertEquals(expected[i], rampUp.degree(request, system), "at " + elapsedMs[i] + " ms");
    }
  }

  @Test
  void wqLinearDividesMaxByOnePlusTheRequestsWaitingBehind() {
    Policy wq = PolicyRegistry.of("wq-linear:6");
    // The request being admitted is still counted in the queue.
    int[] queued = {1, 2, 3, 4, 6, 7, 50};
    int[] expected = {6, 3, 2, 1, 1, 1, 1};
    for (int i = 0; i < queued.length; i++) {
      system.queued = queued[i];
      assertEquals(expected[i], wq.admit(request, system).degree(), "queued " + queued[i]);
    }
    request.degree = 3;
    system.queued = 40;
    assertEquals(3, wq.degree(request, system), "fixed after admission");
  }

  @Test
  void clairvoyantParallelizesOnlyKnownLongRequests() {
    Policy rc = PolicyRegistry.of("rc:80ms,3");
    request.predicted = 79_999_999L;
    assertEquals(1, rc.admit(request, system).degree());
    request.predicted = 80_000_000L;
    assertEquals(3, rc.admit(request, system).degree());
    request.predicted = RequestView.UNKNOWN;
    assertEquals(1, rc.admit(request, system).degree());
  }

  @Test
  void adaptiveGivesFullParallelismAloneAndSerializesUnderLoad() {
    // s = 1, 1.9, 2.5, 3, 3.1, 3.1 on an 8-thread budget.
    Policy ap = PolicyRegistry.of("adaptive");
    system.budget = 8;
    system.queued = 1;
    system.active = 0;
    // Alone: cost(d) = 1/s(d), lowest at d = 5 (3.1); d = 6 ties and loses to the lower degree.
    assertEquals(5, ap.admit(request, system).degree());
    // Under load the waiting dominates: with s(2) = 1.9 the sum favours degree 2 up to about 70
    // queued requests and degree 1 beyond.
    system.queued = 20;
    assertEquals(2, ap.admit(request, system).degree());
    system.queued = 200;
    assertEquals(1, ap.admit(request, system).degree());
    // Requests already running do not count: the paper's load is the queue's length.
    system.queued = 1;
    system.active = 200;
    assertEquals(5, ap.admit(request, system).degree());
  }

  @Test
  void adaptiveMatchesHandComputedCosts() {
    BaselinePolicies.AdaptivePolicy ap =
        (BaselinePolicies.AdaptivePolicy) PolicyRegistry.of("adaptive:1,1.5,2");
    // P = 4, q = 2: cost(1) = (1+1)/1 = 2; cost(2) = (1+1)/1.5 = 1.33; cost(3) = (1+2)/2 = 1.5.
    assertEquals(2, ap.bestDegree(2, 4));
    // P = 4, q = 4: cost(1) = 4; cost(2) = (1+1+2+2)/1.5 = 4; cost(3) = (1+2+3+3)/2 = 4.5.
    // A tie between 1 and 2 goes to the lower degree.
    assertEquals(1, ap.bestDegree(4, 4));
    // q = 1: cost(d) = 1/s(d), so the highest degree the budget allows.
    assertEquals(3, ap.bestDegree(1, 4));
    assertEquals(2, ap.bestDegree(1, 2));
    system.budget = 4;
    system.queued = 1;
    request.degree = 2;
    assertEquals(2, ap.degree(request, system), "fixed after admission");
  }

  @Test
  void specsRoundTrip() {
    for (String spec :
        new String[] {
          "seq", "fixed:4", "rampup:10ms,6", "wq-linear:6", "rc:80ms,3", "adaptive:1,1.9,2.5,3"
        }) {
      assertEquals(spec, PolicyRegistry.of(spec).spec());
      assertEquals(spec, PolicyRegistry.of(PolicyRegistry.of(spec).spec()).spec());
    }
  }

  @Test
  void everyBaselineButAdmitFirstHelpsFirst() {
    for (PolicyFactory f : BaselinePolicies.factories()) {
      if (f.name().equals("admit-first")) {
        continue; // its whole point; TailControlPolicyTest checks it
      }
      String spec =
          switch (f.name()) {
            case "fixed" -> "fixed:2";
            case "rampup" -> "rampup:5ms,4";
            case "rc" -> "rc:10ms,2";
            case "oracle" -> "oracle:10ms";
            default -> f.name();
          };
      assertSame(
          WorkerPreference.HELP_FIRST, PolicyRegistry.of(spec).workerPreference(system), spec);
    }
  }

  @Test
  void oracleGivesTheFewestThreadsThatMeetItsBudgetFromTheTruth() {
    system.budget = 8;
    request.speedup = SpeedupCurve.of(1, 1.9, 2.5, 3.0, 3.0);
    Policy oracle = PolicyRegistry.of("oracle:10ms,4");
    request.predicted = 10_000_000L; // within the budget alone
    assertEquals(1, oracle.admit(request, system).degree());
    request.predicted = 19_000_000L; // 19/1.9 = 10 ms: two threads suffice
    assertEquals(2, oracle.admit(request, system).degree());
    request.predicted = 19_000_001L; // 19.000001/2.5 < 10 ms: three
    assertEquals(3, oracle.admit(request, system).degree());
    request.predicted = 60_000_000L; // 60/3 = 20 ms: no degree meets it, the fastest is 4
    assertEquals(4, oracle.admit(request, system).degree());
    request.speedup = SpeedupCurve.of(1, 1.2, 1.1);
    assertEquals(2, oracle.admit(request, system).degree(), "fastest degree, not the highest");
    request.speedup = null; // linear: 60/4 = 15 ms, still over: the fastest is 4
    assertEquals(4, oracle.admit(request, system).degree());
    request.predicted = RequestView.UNKNOWN;
    assertEquals(1, oracle.admit(request, system).degree(), "no truth, no threads");
    request.predicted = 60_000_000L;
    system.budget = 2;
    assertEquals(2, oracle.admit(request, system).degree(), "never above the budget of threads");
    request.degree = 2;
    assertEquals(2, oracle.degree(request, system), "fixed after admission");
    assertEquals("oracle:10ms,4", oracle.spec());
    assertEquals("oracle:0ns", PolicyRegistry.of("oracle:0ms").spec());
  }
}
