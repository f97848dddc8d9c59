package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BalanceCommandTest {

  @Test
  void printsATableRowPerPointAndTheComputedSummary() {
    Cli cli = new Cli();
    assertEquals(
        0,
        cli.run(
            "balance",
            "--workload",
            "exponential:1us,lognormal:1ms,1.3ms",
            "--cores",
            "2,32",
            "--loads",
            "0.5,0.9",
            "--requests",
            "2000"),
        cli.err());
    String out = cli.out();
    assertTrue(out.contains("## exponential mean 1us"), out);
    assertTrue(out.contains("## log-normal mean 1ms sd 1.3ms"), out);
    // 2 core counts x 2 loads per workload, each a row starting with its core count.
    assertEquals(4, out.lines().filter(l -> l.startsWith("| 2 |")).count(), out);
    assertEquals(4, out.lines().filter(l -> l.startsWith("| 32 |")).count(), out);
    assertEquals(2, out.lines().filter(l -> l.contains(": the single queue ")).count(), out);
    // At 32 cores 1 us tasks arrive at 16M/s and more, beyond the 5M/s the queue's lock can
    // pass at 200 ns a request; millisecond requests are nowhere near it.
    assertTrue(
        out.contains("exponential mean 1us: the single queue falls more than 5% behind"), out);
    assertTrue(out.contains("beyond, work-stealing wins by"), out);
    assertTrue(
        out.contains(
            "log-normal mean 1ms sd 1.3ms: the single queue stays within 5% of the best P99 in every"
                + " cell swept (up to 32 cores and 28,800 requests/s)"),
        out);
  }

  @Test
  void anUnknownWorkloadIsRefusedWithTheExpectedForms() {
    Cli cli = new Cli();
    assertEquals(2, cli.run("balance", "--workload", "uniform:1ms"));
    assertTrue(cli.err().contains("unknown workload 'uniform:1ms'"), cli.err());
    assertTrue(cli.err().contains("exponential:MEAN"), cli.err());
  }

  @Test
  void aNegativeCostIsRefusedNamingTheOption() {
    Cli cli = new Cli();
    assertEquals(2, cli.run("balance", "--steal-check", "-5ns"));
    assertTrue(cli.err().contains("--steal-check"), cli.err());
  }
}
