package dev.tailor.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.policy.PriorityClass;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GuidedClaimsTest {

  private static final PriorityClass TOP = PriorityClass.INTERACTIVE;
  private static final PriorityClass LOW = PriorityClass.BACKGROUND;

  @Test
  void aThreadAloneClaimsHalfOfWhatIsLeftAndTwoThreadsAQuarter() {
    assertEquals(8, GuidedClaims.size(16, 1, false, TOP));
    assertEquals(4, GuidedClaims.size(16, 2, false, TOP));
    assertEquals(4, GuidedClaims.size(16, 2, true, TOP));
    assertEquals(2, GuidedClaims.size(16, 4, true, TOP));
  }

  @Test
  void claimsShrinkToOneUnitNearTheEnd() {
    assertEquals(1, GuidedClaims.size(3, 1, false, TOP));
    assertEquals(1, GuidedClaims.size(2, 1, false, TOP));
    assertEquals(1, GuidedClaims.size(1, 4, true, TOP));
    assertEquals(1, GuidedClaims.size(5, 8, true, TOP), "more sharers than units: one each");
    assertEquals(0, GuidedClaims.size(0, 1, false, TOP), "nothing left, nothing claimed");
  }

  @Test
  void everyUnitIsClaimedOnceWhateverTheSharers() {
    for (int units = 1; units <= 70; units++) {
      for (int sharers = 1; sharers <= 5; sharers++) {
        int left = units;
        int claims = 0;
        while (left > 0) {
          int n = GuidedClaims.size(left, sharers, claims % sharers != 0, TOP);
          assertTrue(n >= 1 && n <= left, "a claim of " + n + " of " + left);
          left -= n;
          claims++;
        }
        assertTrue(claims <= units);
      }
    }
  }

  @Test
  void whileProgressIsWatchedAClaimIsAtMostWhatTheThreadHasClaimedSoFar() {
    List<Integer> claims = new ArrayList<>();
    int claimed = 0;
    for (int left = 16; left > 0; left -= claims.get(claims.size() - 1)) {
      claims.add(GuidedClaims.probingSize(left, 1, false, TOP, claimed));
      claimed += claims.get(claims.size() - 1);
    }
    assertEquals(List.of(1, 1, 2, 4, 4, 2, 1, 1), claims, "alone on 16 units");
    assertEquals(2, GuidedClaims.probingSize(16, 4, false, TOP, 8), "never above the guided size");
    assertEquals(0, GuidedClaims.probingSize(0, 1, false, TOP, 5), "nothing left");
  }

  @Test
  void aHelperOfALowerClassClaimsOneUnitSoThatItStaysPrompt() {
    assertEquals(1, GuidedClaims.size(16, 2, true, LOW));
    assertEquals(1, GuidedClaims.most(16, 2, true, LOW));
    assertEquals(8, GuidedClaims.size(16, 1, false, LOW), "the own thread never leaves early");
  }

  @Test
  void aClaimMayBeExtendedToThreeQuartersOfTheShare() {
    assertEquals(12, GuidedClaims.most(16, 1, false, TOP));
    assertEquals(6, GuidedClaims.most(16, 2, true, TOP));
    assertEquals(2, GuidedClaims.most(2, 1, false, TOP));
    assertEquals(1, GuidedClaims.most(5, 8, true, TOP), "never below the claim itself");
  }

  @Test
  void aThreadAloneTakesTheRestWhenItsPaceSaysNoHelperCouldPay() {
    long h = GuidedClaims.HANDOFF_NANOS;
    assertTrue(GuidedClaims.takesTheRest(h / 4, 8, 8), "8 more units at h/32 each: h/4 left");
    assertFalse(GuidedClaims.takesTheRest(h, 8, 8), "as long again as the hand-off: keep claiming");
    assertFalse(GuidedClaims.takesTheRest(h / 2, 4, 12), "12 units at h/8 each: 1.5 h left");
    assertFalse(GuidedClaims.takesTheRest(0, 0, 16), "nothing claimed yet: no pace to judge by");
    assertFalse(GuidedClaims.takesTheRest(h / 4, 8, 0), "nothing left to take");
  }

  @Test
  void aPromptHelperClaimsAboutAMillisecondAtTheRequestsPace() {
    long p = GuidedClaims.PROMPT_NANOS;
    assertEquals(4, GuidedClaims.helperSize(8, p, 4, p), "units of p/4: four fit");
    assertEquals(8, GuidedClaims.helperSize(8, p, 100, p), "units of p/100: the guided rules");
    assertEquals(1, GuidedClaims.helperSize(8, 10 * p, 4, p), "units longer than p: one at a time");
    assertEquals(1, GuidedClaims.helperSize(8, 0, 0, p), "no pace yet: one unit");
    assertEquals(0, GuidedClaims.helperSize(0, p, 4, p), "nothing to claim");
    assertEquals(1, GuidedClaims.helperSize(1, 0, 0, p));
    assertEquals(2, GuidedClaims.helperSize(8, p, 4, p / 2), "half the bound: half the units");
  }
}
