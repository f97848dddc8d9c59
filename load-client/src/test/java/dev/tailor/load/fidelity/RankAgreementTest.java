package dev.tailor.load.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RankAgreementTest {

  /** Policies whose measured P99s are exact points (no range) and whose simulated ones given. */
  private static List<RankAgreement.Ranked> ranked(double[] measured, double[] simulated) {
    List<RankAgreement.Ranked> out = new ArrayList<>();
    for (int i = 0; i < measured.length; i++) {
      out.add(
          new RankAgreement.Ranked("p" + i, measured[i], measured[i], measured[i], simulated[i]));
    }
    return out;
  }

  private static RankAgreement.Row row(List<RankAgreement.Ranked> ranked) {
    return RankAgreement.row(100, Simulator.WorkModel.UNITS, ranked);
  }

  @Test
  void theSameOrderIsOneAndTheReverseMinusOne() {
    double[] m = {1, 2, 3, 4};
    assertEquals(1.0, row(ranked(m, new double[] {10, 20, 30, 40})).tauB(), 1e-12);
    assertEquals(-1.0, row(ranked(m, new double[] {40, 30, 20, 10})).tauB(), 1e-12);
  }

  @Test
  void aMixedOrderAgreesWithAHandComputation() {
    // Measured 1 < 2 < 3 < 4; simulated orders them p1 < p0 < p3 < p2. Of the 6 pairs, (p0,p1)
    // and (p2,p3) are discordant, the other 4 concordant: tau = (4 - 2) / 6 = 1/3.
    RankAgreement.Row r = row(ranked(new double[] {1, 2, 3, 4}, new double[] {20, 10, 40, 30}));
    assertEquals(4, r.concordant());
    assertEquals(2, r.discordant());
    assertEquals(1.0 / 3, r.tauB(), 1e-12);
    assertEquals(List.of("p1", "p0", "p3", "p2"), r.simulatedOrder());
  }

  @Test
  void overlappingMeasuredRangesAreTies() {
    // p0 [1, 3] and p1 [2, 4] overlap: tied. p2 [10, 11] is above both, and so simulated.
    // Pairs: (p0,p1) tied measured; (p0,p2), (p1,p2) concordant. Simulated has no tie.
    // tau-b = (2 - 0) / sqrt((3 - 1) * (3 - 0)) = 2 / sqrt(6).
    List<RankAgreement.Ranked> r =
        List.of(
            new RankAgreement.Ranked("p0", 1, 3, 2, 5),
            new RankAgreement.Ranked("p1", 2, 4, 3, 4),
            new RankAgreement.Ranked("p2", 10, 11, 10.5, 9));
    RankAgreement.Row row = row(r);
    assertEquals(1, row.tiedMeasured());
    assertEquals(0, row.tiedSimulated());
    assertEquals(2 / Math.sqrt(6), row.tauB(), 1e-12);
  }

  @Test
  void fewerThanTwoOrderedPairsGiveNoTau() {
    assertTrue(Double.isNaN(row(ranked(new double[] {1, 2}, new double[] {1, 2})).tauB()));
    assertTrue(Double.isNaN(row(ranked(new double[] {1}, new double[] {1})).tauB()));
    String md =
        RankAgreement.markdown(List.of(row(ranked(new double[] {1, 2}, new double[] {1, 2}))), 0.8);
    assertTrue(md.contains("| n/a |"), md);
    assertTrue(md.contains("every load at least 0.8: no"), md);
  }
}
