package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AggregateCommandTest {

  private static final String[] SMALL = {
    "aggregate",
    "--shards",
    "1,4",
    "--cores",
    "8",
    "--policies",
    "seq,fixed:2",
    "--requests",
    "2000",
    "--tolerance",
    "0.05",
    "--target-p99",
    "60ms"
  };

  @Test
  void printsTheObservationRowsAndTheSustainedLoadOfEveryPolicy() {
    Cli cli = new Cli();
    assertEquals(0, cli.run(SMALL), cli.err());
    String out = cli.out();
    assertTrue(out.contains("## (a) The aggregator's P99"), out);
    assertTrue(out.contains("## (b) The highest load"), out);
    // (a): shards x modes x policies rows.
    List<String> rows =
        out.lines().filter(l -> l.matches("\\| \\d+ \\| (correlated|independent) \\|.*")).toList();
    assertEquals(2 * 2 * 2, rows.size(), out);
    // One shard: the aggregator is the shard, its P99 the shard's, at quantile 0.99.
    for (String row : rows) {
      String[] cells = row.split("\\|");
      if (cells[1].trim().equals("1")) {
        assertEquals(cells[4].trim(), cells[9].trim(), row);
        assertEquals("P99", cells[7].trim(), row);
        assertEquals("1.00", cells[10].trim(), row);
        assertEquals("P99", cells[11].trim(), row);
        assertEquals("1.0", cells[12].trim(), row);
      } else {
        assertEquals("P99.749", cells[7].trim(), row);
      }
    }
    // (b): a row per number of shards, a cell per policy, and the best.
    assertTrue(out.contains("| shards | seq | fixed:2 | highest |"), out);
    assertEquals(
        2,
        out.lines().filter(l -> l.matches("\\| [14] \\| (?!correlated|independent).*")).count(),
        out);
    // Sequential requests on one shard take 67 ms at P99: no load meets 60 ms; on four shards
    // both policies meet it up to the last step below the capacity, and the tie is listed.
    assertTrue(out.contains("| 1 | none | "), out);
    assertTrue(out.contains("| 4 | 0.969 (3,119/s) | 0.969 (3,119/s) | seq, fixed:2 |"), out);
    // Progress counts the rows of both tables: 8 of (a), 2 of (b).
    assertTrue(cli.err().contains("point 10 of 10, the last"), cli.err());
  }

  @Test
  void badOptionsAreRefusedNamingTheOptionAndTheValue() {
    assertRefused("--shards: each must be >= 1, got 0", "--shards", "1,0");
    assertRefused("--cores must be >= 1, got 0", "--cores", "0");
    assertRefused(
        "--shard-noise must be a standard deviation >= 0 such as 0.3, got -0.1",
        "--shard-noise",
        "-0.1");
    assertRefused(
        "--shard-work: unknown shard work 'both'; expected correlated or independent",
        "--shard-work",
        "both");
    assertRefused("--utilization must be above 0 such as 0.5, got 0.0", "--utilization", "0");
    assertRefused(
        "--tolerance must be a utilization in (0, 1) such as 0.01, got 1.5", "--tolerance", "1.5");
    assertRefused("--requests must be >= 10 (a tenth is warm-up), got 5", "--requests", "5");
    assertRefused(
        "--merge must be a duration >= 0 such as 0ms or 2ms, got '-1ms'", "--merge", "-1ms");
    assertRefused("--policies: unknown policy 'nope'", "--policies", "seq,nope");
    assertRefused("--workload: unknown workload 'uniform:1ms'", "--workload", "uniform:1ms");
    assertRefused(
        "--workload 'lognormal:10ms': expected MEAN,SD[,SERIAL]", "--workload", "lognormal:10ms");
    assertRefused("'0ms' is no latency target", "--target-p99", "0ms");
    assertRefused("--target-p99", "--target-p99", "soon");
    assertRefused(
        "give --workload or --profile, not both",
        "--workload",
        "parametric",
        "--profile",
        "p.json");
  }

  private static void assertRefused(String message, String... args) {
    Cli cli = new Cli();
    String[] line = new String[args.length + 1];
    line[0] = "aggregate";
    System.arraycopy(args, 0, line, 1, args.length);
    assertEquals(2, cli.run(line), cli.out());
    assertTrue(cli.err().contains(message), cli.err());
  }
}
