package dev.tailor.load.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.PooledLatency;
import dev.tailor.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RankAgreementTest {

  /**
   * Policies {@code p0, p1, ...}, each measured in 5 identical runs whose P99 is {@code
   * measured[i]}, and simulated at {@code simulated[i]}: a pair of different measured P99s is
   * resolved (its paired ratio is the same in every replicate), a pair of equal ones is not.
   */
  private static List<RankAgreement.Ranked> ranked(double[] measured, double[] simulated) {
    List<RankAgreement.Ranked> out = new ArrayList<>();
    for (int i = 0; i < measured.length; i++) {
      double m = measured[i];
      out.add(
          new RankAgreement.Ranked(
              "p" + i,
              PooledLatency.ofPoints(CellErrorsTest.runs("p" + i, m, m, m, m, m)),
              simulated[i]));
    }
    return out;
  }

  private static RankAgreement.Row row(double[] measured, double[] simulated) {
    return RankAgreement.row(100, Simulator.WorkModel.UNITS, ranked(measured, simulated));
  }

  @Test
  void theSameOrderIsOneAndTheReverseMinusOne() {
    double[] m = {10, 20, 30, 40};
    assertEquals(1.0, row(m, new double[] {1, 2, 3, 4}).tauB(), 1e-12);
    assertEquals(-1.0, row(m, new double[] {4, 3, 2, 1}).tauB(), 1e-12);
    assertEquals(6, row(m, new double[] {1, 2, 3, 4}).resolved());
  }

  @Test
  void onlyThePairsTheRunsResolveCount() {
    // p0 and p3 both measured 10 ms: not resolved, whatever the simulation says. Of the other five
    // pairs (p0,p1), (p0,p2) are concordant, (p1,p2), (p3,p1), (p3,p2) discordant:
    // tau-b = (2 - 3) / sqrt(5 * 5) = -0.2.
    RankAgreement.Row r = row(new double[] {10, 20, 30, 10}, new double[] {1, 3, 2, 5});
    assertEquals(4, r.policies());
    assertEquals(6, r.pairs());
    assertEquals(5, r.resolved());
    assertEquals(2, r.concordant());
    assertEquals(3, r.discordant());
    assertEquals(-0.2, r.tauB(), 1e-12);
    assertEquals(List.of("p0", "p2", "p1", "p3"), r.simulatedOrder());
  }

  @Test
  void aSimulatedTieCountsInTheDenominator() {
    // Three resolved pairs, (p0,p1) tied in the simulation: tau-b = (2 - 0) / sqrt(3 * 2).
    RankAgreement.Row r = row(new double[] {10, 20, 30}, new double[] {1, 1, 2});
    assertEquals(1, r.tiedSimulated());
    assertEquals(2 / Math.sqrt(6), r.tauB(), 1e-12);
  }

  @Test
  void fewerThanTwoResolvedPairsGiveNoTauAndSaySo() {
    RankAgreement.Row one = row(new double[] {10, 20}, new double[] {1, 2});
    assertTrue(Double.isNaN(one.tauB()));
    assertEquals("undefined (1 resolved pair)", RankAgreement.tau(one));
    RankAgreement.Row none = row(new double[] {10, 10, 10}, new double[] {1, 2, 3});
    assertEquals(0, none.resolved());
    assertEquals("undefined (0 resolved pairs)", RankAgreement.tau(none));
    String md =
        RankAgreement.markdown(
            List.of(one, row(new double[] {10, 20, 30}, new double[] {1, 2, 3})), 0.8);
    assertTrue(md.contains("| 1 of 1 | undefined (1 resolved pair) |"), md);
    assertTrue(md.contains("| 3 of 3 | 1.00 |"), md);
    assertTrue(
        md.contains(
            "units: lowest tau-b 1.00; every load with one at least 0.8: yes; 1 load(s)"
                + " undefined"),
        md);
  }
}
