package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code tailor budget}: a row per utilization with every budget, and bad options named. */
class BudgetCommandTest {

  @Test
  void printsARowPerUtilizationWithEveryBudget() {
    Cli cli = new Cli();
    assertEquals(
        0,
        cli.run(
            "budget",
            "--cores",
            "4",
            "--requests",
            "500",
            "--utilizations",
            "0.3,0.6",
            "--lognormal",
            "2ms,2ms",
            "--budgets",
            "delay-range:0.1,0.25,utilization-range"),
        cli.err());
    String out = cli.out();
    assertTrue(out.contains("search policy seq, mean work"), out);
    assertTrue(out.contains("budget period 1.0"), out); // half of the ~2 ms mean work
    assertTrue(out.contains("## 4 cores"), out);
    assertTrue(out.contains("delay-range:0.1,0.25: threads"), out);
    assertTrue(out.contains("utilization-range: threads"), out);
    assertTrue(out.lines().anyMatch(l -> l.startsWith("| 0.30 |")), out);
    assertTrue(out.lines().anyMatch(l -> l.startsWith("| 0.60 |")), out);
  }

  @Test
  void badOptionsAreNamed() {
    Cli period = new Cli();
    assertEquals(2, period.run("budget", "--period", "soon"));
    assertTrue(period.err().contains("--period: expected a positive duration"), period.err());
    Cli budget = new Cli();
    assertEquals(2, budget.run("budget", "--budgets", "elastic", "--requests", "100"));
    assertTrue(budget.err().contains("bad budget policy 'elastic'"), budget.err());
    Cli util = new Cli();
    assertEquals(2, util.run("budget", "--utilizations", "1.5", "--requests", "100"));
    assertTrue(util.err().contains("utilization in (0, 1)"), util.err());
  }
}
