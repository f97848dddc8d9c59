package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.core.json.JsonFile;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TargetTable;
import dev.tailor.sim.model.ParametricProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TablesCommandTest {

  @Test
  void buildsUnderTheThroughputRuleByDefaultAndThePapersOnRequest(@TempDir Path tmp)
      throws Exception {
    Path profile = tmp.resolve("p.json");
    ParametricProfile.generate(300, 8, 1).write(profile);
    Path table = tmp.resolve("t.json");
    Cli cli = new Cli();
    assertEquals(0, cli.run(buildFm(profile, table, "--bin", "30", "--step", "20ms")), cli.err());
    assertTrue(cli.out().contains("rule: throughput, utilization 1, queue factor 1.3"), cli.out());
    assertTrue(cli.out().contains("/s"), "rows show their arrival rate: " + cli.out());
    assertEquals(IntervalTable.Rule.throughput(1, 1.3), IntervalTable.read(table).inputs().rule());

    Cli paperWithoutTarget = new Cli();
    assertEquals(2, paperWithoutTarget.run(buildFm(profile, table, "--mode", "paper")));
    assertTrue(
        paperWithoutTarget.err().contains("--mode paper needs --target-parallelism"),
        paperWithoutTarget.err());

    Cli targetWithoutPaper = new Cli();
    assertEquals(2, targetWithoutPaper.run(buildFm(profile, table, "--target-parallelism", "8")));
    assertTrue(targetWithoutPaper.err().contains("add --mode paper"), targetWithoutPaper.err());
  }

  @Test
  void validateRefusesAWaitBeyondTheHorizonNamingTheField(@TempDir Path tmp) throws Exception {
    Path profile = tmp.resolve("p.json");
    ParametricProfile.generate(300, 8, 1).write(profile);
    Path table = tmp.resolve("t.json");
    Cli build = new Cli();
    assertEquals(
        0,
        build.run(
            buildFm(
                profile,
                table,
                "--mode",
                "paper",
                "--target-parallelism",
                "8",
                "--bin",
                "30",
                "--step",
                "20ms")),
        build.err());
    Cli valid = new Cli();
    assertEquals(0, valid.run("tables", "validate", table.toString()), valid.err());
    assertTrue(valid.out().contains("valid fm-interval table"), valid.out());

    // A wait of 31 years at load 1: well-formed JSON that would stall every admission.
    ObjectNode root = (ObjectNode) JsonFile.readTree(table);
    ((ArrayNode) root.get("rows").get(0).get("intervalsNanos")).set(0, 1_000_000_000_000_000_000L);
    Files.writeString(table, JsonFile.mapper().writeValueAsString(root));
    long horizon = root.get("inputs").get("horizonNanos").longValue();
    Cli invalid = new Cli();
    assertEquals(1, invalid.run("tables", "validate", table.toString()), invalid.out());
    assertTrue(
        invalid
            .err()
            .contains(
                table
                    + ": rows[0].intervalsNanos[0]: must be <= inputs.horizonNanos ("
                    + horizon
                    + "), got 1000000000000000000"),
        invalid.err());
  }

  /** The arguments of {@code tables build fm} for 8 cores, with {@code options}. */
  private static String[] buildFm(Path profile, Path table, String... options) {
    List<String> args =
        new ArrayList<>(
            List.of("tables", "build", "fm", "--profile", profile.toString(), "--cores", "8"));
    args.addAll(List.of(options));
    args.addAll(List.of("--out", table.toString()));
    return args.toArray(String[]::new);
  }

  @Test
  void tuneSaysWhatItTriedAndRecordsTheChoiceInTheTable(@TempDir Path tmp) throws Exception {
    Path profile = tmp.resolve("p.json");
    ParametricProfile.generate(300, 8, 2).write(profile);
    Path table = tmp.resolve("t.json");
    Cli cli = new Cli();
    assertEquals(
        0,
        cli.run(
            "tables",
            "tune",
            "fm",
            "--profile",
            profile.toString(),
            "--cores",
            "8",
            "--bin",
            "30",
            "--step",
            "20ms",
            "--rps",
            "20,40",
            "--requests",
            "1500",
            "--utilizations",
            "1",
            "--queue-factors",
            "1,1.4",
            "--baselines",
            "seq,fixed:2",
            "--out",
            table.toString()),
        cli.err());
    assertTrue(cli.out().contains("throughput, utilization 1, queue factor 1 "), cli.out());
    assertTrue(cli.out().contains("throughput, utilization 1, queue factor 1.4 "), cli.out());
    assertTrue(cli.out().contains("chosen:"), cli.out());
    assertTrue(cli.out().contains("on the other half, another seed:"), cli.out());
    IntervalTable t = IntervalTable.read(table);
    assertNotNull(t.inputs().tuning());
    assertTrue(t.inputs().tuning().startsWith("tables tune: best of 2 candidates"));
  }

  @Test
  void buildTpcTakesItsSearchAndPredictionOptions(@TempDir Path tmp) throws Exception {
    Path profile = tmp.resolve("p.json");
    ParametricProfile.generate(100, 4, 2).write(profile);
    Path table = tmp.resolve("tpc.json");
    Cli cli = new Cli();
    assertEquals(
        0,
        cli.run(
            "tables",
            "build",
            "tpc",
            "--profile",
            profile.toString(),
            "--synthetic-error",
            "0.5",
            "--cores",
            "4",
            "--max-degree",
            "2",
            "--rps",
            "5",
            "--loads",
            "2",
            "--max-iterations",
            "3",
            "--requests",
            "100",
            "--threads",
            "1",
            "--load-metric",
            "all-threads",
            "--out",
            table.toString()),
        cli.err());
    TargetTable t = TargetTable.read(table);
    assertEquals(2, t.inputs().maxDegree());
    assertEquals(3, t.rows().size(), "loads 0, 1 and more");
    assertEquals(TargetTable.LoadMetric.ALL_THREADS, t.inputs().loadMetric());
    assertTrue(t.inputs().predictions().startsWith("synthetic"), t.inputs().predictions());
  }
}
