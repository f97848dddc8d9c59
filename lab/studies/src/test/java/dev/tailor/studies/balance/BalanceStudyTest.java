package dev.tailor.studies.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class BalanceStudyTest {

  private static BalanceStudy.Cell cell(int cores, double rate, long single, long stealing) {
    return new BalanceStudy.Cell(
        cores,
        0.5,
        rate,
        List.of(
            new BalanceStudy.Result("single-queue", 1, single),
            new BalanceStudy.Result("work-stealing", 1, stealing)));
  }

  @Test
  void theSummarySaysUpToWhereTheSingleQueueHoldsFromTheFigures() {
    List<BalanceStudy.Cell> cells =
        List.of(
            cell(2, 100, 100, 104), // holds: within 5% (the single queue is even better)
            cell(2, 300, 104, 100), // holds: 4% behind
            cell(4, 200, 100, 100), // holds
            cell(4, 600, 150, 100), // fails by 50%
            cell(8, 400, 130, 100), // fails by 30%
            cell(8, 1000, 200, 100)); // fails by 100%
    BalanceStudy.Summary s = BalanceStudy.Summary.of(cells, 0.05);
    assertEquals(2, s.cores());
    assertEquals(300, s.ratePerSecond());
    assertEquals(3, s.failing());
    assertEquals(0.5, s.medianLoss(), 1e-12);
    assertEquals(1.0, s.maxLoss(), 1e-12);
    assertEquals(
        "the single queue stays within 5% of the best P99 up to 2 cores and 300 requests/s;"
            + " beyond, work-stealing wins by 50% (median of the 3 cells where the single queue"
            + " falls behind; up to 100%)",
        s.sentence());
  }

  @Test
  void aSweepWhereTheSingleQueueAlwaysHoldsSaysSo() {
    BalanceStudy.Summary s =
        BalanceStudy.Summary.of(List.of(cell(2, 100, 100, 100), cell(16, 900, 100, 120)), 0.05);
    assertEquals(
        "the single queue stays within 5% of the best P99 in every cell swept (up to 16 cores and"
            + " 900 requests/s)",
        s.sentence());
  }
}
