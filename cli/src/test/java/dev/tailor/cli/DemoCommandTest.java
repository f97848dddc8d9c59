package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The demo's choices that do not need its data: its --target, the workloads' files. */
class DemoCommandTest {

  @Test
  void theTargetIsParsedAndABadOneRejectedByName() {
    DemoCommand demo = new DemoCommand();
    new picocli.CommandLine(demo).parseArgs("--target", "15ms");
    assertEquals(15_000_000L, demo.target);
    DemoCommand defaults = new DemoCommand();
    new picocli.CommandLine(defaults).parseArgs();
    assertNull(defaults.target, "the default is the profile's, chosen when it is read");
    Cli cli = new Cli();
    assertNotEquals(0, cli.run("demo", "--target", "fast"));
    assertTrue(cli.err().contains("option '--target'"), cli.err());
    assertTrue(cli.err().contains("'fast' is not a duration"), cli.err());
  }

  @Test
  void eachWorkloadHasItsOwnTraceAndName() {
    Path data = Path.of("/data");
    assertEquals(
        data.resolve("traces/trec-tb05/topics.terabyte05.efficiency.txt"),
        DemoWorkload.TB05.trace(data));
    assertEquals(data.resolve("traces/nq/topics.dpr.nq.test.txt"), DemoWorkload.NQ.trace(data));
    assertEquals("tb05", DemoWorkload.TB05.toString());
    assertEquals("tb05-exact", DemoWorkload.TB05_EXACT.toString());
    assertEquals(DemoWorkload.TB05_EXACT, DemoWorkload.of("tb05-exact"));
    assertEquals(DemoWorkload.TB05.trace(data), DemoWorkload.TB05_EXACT.trace(data));
    assertNotEquals(DemoWorkload.TB05.toString(), DemoWorkload.NQ.toString());
  }

  @Test
  void theWorkloadOptionsDefaultIsTheDefaultWorkload() {
    // The benchmarks' "the demo's trace" follows DEFAULT_WORKLOAD; the option must agree with it.
    DemoCommand demo = new DemoCommand();
    new picocli.CommandLine(demo).parseArgs();
    assertEquals(DemoCommand.DEFAULT_WORKLOAD, demo.workload);
    assertEquals(null, demo.docsOption); // the workload's own size
    assertEquals(DemoCommand.DEFAULT_DOCS, DemoCommand.DEFAULT_WORKLOAD.defaultDocs);
  }

  @Test
  void anUnknownWorkloadIsRejectedNamingTheKnownOnes() {
    Cli cli = new Cli();
    assertNotEquals(0, cli.run("demo", "--workload", "msmarco"));
    assertTrue(cli.err().contains("--workload"), cli.err());
    assertTrue(cli.err().toLowerCase(java.util.Locale.ROOT).contains("tb05"), cli.err());
  }

  @Test
  void theDefaultPoliciesAreThePlainBaselinesTheSchedulersDefaultTheOracleAndFm() {
    assertEquals(
        List.of(
            "lucene", "lucene-executor", "elasticsearch", Scheduler.DEFAULT_POLICY, "oracle", "fm"),
        DemoPolicies.DEFAULT_POLICIES);
    DemoPolicies defaults = new DemoPolicies(null);
    assertTrue(defaults.wants("elasticsearch") && defaults.wants(Scheduler.DEFAULT_POLICY));
    assertFalse(defaults.wants("seq"));
    String help =
        String.join(
            " ",
            new picocli.CommandLine(new DemoCommand())
                .getCommandSpec()
                .findOption("--policies")
                .description());
    assertTrue(
        help.contains(
            "default: lucene, lucene-executor:CORES, elasticsearch:CORES, "
                + Scheduler.DEFAULT_POLICY
                + ", oracle and fm."),
        help);
  }

  @Test
  void plainLuceneRunsByDefaultAndWhenAskedFor() {
    assertEquals(
        List.of("lucene", "lucene-executor:4", "elasticsearch:4"), DemoPolicies.baselines(null, 4));
    assertEquals(
        List.of("lucene", "lucene-executor:2", "elasticsearch:2"),
        DemoPolicies.baselines(List.of("all"), 2));
    assertEquals(List.of(), DemoPolicies.baselines(List.of("seq", "fm-wc"), 2));
    assertEquals(
        List.of("lucene", "lucene-executor:2", "elasticsearch:1"),
        DemoPolicies.baselines(
            List.of("seq", "lucene", " lucene-executor:2", "elasticsearch:1"), 8));
    assertEquals(
        List.of("lucene-executor:3"), DemoPolicies.baselines(List.of("lucene-executor"), 3));
    assertEquals(List.of("elasticsearch:3"), DemoPolicies.baselines(List.of(" elasticsearch "), 3));
    for (String bad : List.of("lucene-executor:0", "elasticsearch:0", "elasticsearch:x")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> DemoPolicies.baselines(List.of(bad), 2));
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }
  }
}
