package dev.tailor.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyRegistryTest {

  @Test
  void findsEveryBaselineByName() {
    List<String> names =
        PolicyRegistry.standard().factories().stream().map(PolicyFactory::name).toList();
    assertEquals(
        List.of(
            "seq",
            "fixed",
            "steal-first",
            "admit-first",
            "adaptive",
            "wq-linear",
            "rampup",
            "pred",
            "rc",
            "oracle",
            "fm",
            "fm-wc",
            "tpc",
            "tp",
            "tpc-oracle",
            "tc",
            "tc-oracle",
            "progress"),
        names);
  }

  @Test
  void unknownNameListsTheKnownOnes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of("nosuch:table.json"));
    assertTrue(e.getMessage().contains("unknown policy 'nosuch'"), e.getMessage());
    for (String usage : List.of("seq", "fixed:N", "rampup:INTERVAL,MAX", "rc:THRESHOLD,N")) {
      assertTrue(e.getMessage().contains(usage), e.getMessage());
    }
  }

  @Test
  void badArgumentsSayWhatWasExpected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of("fixed:zero"));
    assertTrue(
        e.getMessage().contains("N must be a whole number >= 1, got 'zero'"), e.getMessage());
    assertTrue(e.getMessage().contains("expected fixed:N"), e.getMessage());

    e = assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of("rampup:10,6"));
    assertTrue(e.getMessage().contains("INTERVAL"), e.getMessage());
    assertTrue(e.getMessage().contains("'10' is not a duration"), e.getMessage());

    e = assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of("seq:2"));
    assertTrue(e.getMessage().contains("expected 0 argument(s), got 1"), e.getMessage());

    e = assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of("adaptive:2,3"));
    assertTrue(e.getMessage().contains("s(1) must be 1"), e.getMessage());
  }

  @Test
  void listsKeepEachSpecificationsArgumentsTogether() {
    assertEquals(
        List.of("seq", "fixed:2", "rampup:10ms,6", "adaptive:1,1.9,2.5", "rc:80ms,3"),
        PolicyRegistry.standard()
            .splitList("seq, fixed:2,rampup:10ms,6,adaptive:1,1.9,2.5,rc:80ms,3"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> PolicyRegistry.standard().splitList("seq,nope:1"));
    assertTrue(e.getMessage().contains("known policies"), e.getMessage());
    assertTrue(e.getMessage().startsWith("unknown policy 'nope'"), e.getMessage());
    // Settings (key=value) and, after one, a flag stay with their specification.
    assertEquals(
        List.of("seq", "some:a=1,b=2ms,flag", "fixed:2"),
        PolicyRegistry.standard().split("seq,some:a=1,b=2ms,flag,fixed:2"));
  }

  @Test
  void namesAreCaseInsensitiveAndTrimmed() {
    assertEquals("fixed:3", PolicyRegistry.of(" FIXED: 3 ").spec());
  }

  @Test
  void aSuffixOverridesTheWorkerPreferenceAndStaysInTheSpec() {
    FakeSystem system = new FakeSystem();
    Policy admitFirst = PolicyRegistry.of("fixed:2@admit-first");
    assertEquals(WorkerPreference.ADMIT_FIRST, admitFirst.workerPreference(system));
    assertEquals("fixed:2@admit-first", admitFirst.spec());
    assertEquals(2, admitFirst.admit(new FakeRequest(), system).degree());
    assertEquals(
        WorkerPreference.HELP_FIRST,
        PolicyRegistry.of("rampup:10ms,4@help-first").workerPreference(system));
    assertEquals(
        List.of("seq@admit-first", "rampup:10ms,6@help-first"),
        PolicyRegistry.standard().splitList("seq@admit-first,rampup:10ms,6@help-first"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of("seq@first"));
    assertTrue(e.getMessage().contains("expected @help-first or @admit-first"), e.getMessage());
  }
}
