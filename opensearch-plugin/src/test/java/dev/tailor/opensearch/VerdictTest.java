package dev.tailor.opensearch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.opensearch.Verdict.Reason;
import org.junit.jupiter.api.Test;

/** The decider's rules, in their order: short first, then load, then long or unseen. */
class VerdictTest {

  private static final long MS = 1_000_000;
  private static final long UNKNOWN = QueryCosts.UNKNOWN;

  @Test
  void aShortRequestRunsAloneAtAnyLoad() {
    Verdict idle = Verdict.decide(MS / 2, MS, 4, 0, 0);
    assertEquals(Reason.SHORT, idle.reason());
    assertFalse(idle.concurrent());
    assertEquals(Reason.SHORT, Verdict.decide(MS / 2, MS, 4, 4, 3).reason());
    assertTrue(idle.explain(MS).contains("0.5 ms < min_cost 1.0 ms"), idle.explain(MS));
  }

  @Test
  void aLongOrUnseenRequestGoesConcurrentOnlyWithASecondThreadFree() {
    assertEquals(Reason.LONG, Verdict.decide(5 * MS, MS, 4, 2, 0).reason());
    assertEquals(Reason.UNSEEN, Verdict.decide(UNKNOWN, MS, 4, 2, 0).reason());
    assertTrue(Verdict.decide(5 * MS, MS, 4, 2, 0).concurrent());
    // One idle thread is the request's own: no second to give.
    Verdict busy = Verdict.decide(5 * MS, MS, 4, 3, 0);
    assertEquals(Reason.BUSY, busy.reason());
    assertFalse(busy.concurrent());
    assertEquals(1, busy.idleThreads());
    // Someone waiting for a worker: concurrency would only delay them.
    assertEquals(Reason.BUSY, Verdict.decide(UNKNOWN, MS, 4, 0, 1).reason());
    // More busy threads than workers (sequential phases beside Tailor's): none idle, not negative.
    assertEquals(0, Verdict.decide(UNKNOWN, MS, 2, 5, 0).idleThreads());
  }

  @Test
  void aZeroCutSendsEveryRequestWithThreadsToTheScheduler() {
    assertEquals(Reason.LONG, Verdict.decide(0, 0, 2, 0, 0).reason());
  }

  @Test
  void theExplanationNamesTheRuleAndItsFigures() {
    assertEquals(
        "busy: 1 idle threads, 2 queued; predicted 3.25 ms",
        Verdict.decide(3_250_000, MS, 4, 3, 2).explain(MS));
    assertEquals(
        "unseen: no prediction, 4 idle threads", Verdict.decide(UNKNOWN, MS, 4, 0, 0).explain(MS));
  }
}
