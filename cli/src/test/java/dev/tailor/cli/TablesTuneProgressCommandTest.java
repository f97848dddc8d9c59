package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.table.TargetTable;
import dev.tailor.sim.model.ParametricProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TablesTuneProgressCommandTest {

  @Test
  void helpListsTheOptions() {
    Cli cli = new Cli();
    assertEquals(0, cli.run("tables", "tune", "progress", "--help"), cli.err());
    for (String option :
        List.of(
            "--profile",
            "--out",
            "--rps",
            "--cores",
            "--max-degree",
            "--known",
            "--synthetic-error",
            "--load-metrics",
            "--serialize-targets",
            "--baselines",
            "--requests",
            "--build-requests",
            "--seed",
            "--calibration")) {
      assertTrue(cli.out().contains(option), option + " in:\n" + cli.out());
    }
  }

  @Test
  void aBadSerializeTargetIsAUsageErrorNamingTheOption(@TempDir Path tmp) throws Exception {
    Path profile = tmp.resolve("p.json");
    ParametricProfile.generate(40, 4, 2).write(profile);
    Cli cli = new Cli();
    assertEquals(
        2,
        tune(
            cli,
            profile,
            "--rps",
            "10",
            "--serialize-targets",
            "none,0ms",
            "--out",
            tmp.resolve("t").toString()));
    assertTrue(cli.err().contains("--serialize-targets: "), cli.err());
    assertTrue(cli.err().contains("'0ms'"), cli.err());
  }

  @Test
  void writesTheChosenTablesAndTheRecordAndPrintsThePolicy(@TempDir Path tmp) throws Exception {
    Path profile = tmp.resolve("p.json");
    ParametricProfile.generate(200, 4, 2).write(profile);
    String prefix = tmp.resolve("t").toString();
    Cli cli = new Cli();
    assertEquals(
        0,
        tune(
            cli,
            profile,
            "--cores",
            "8",
            "--max-degree",
            "4",
            "--rps",
            "10,20",
            "--loads",
            "3",
            "--max-iterations",
            "5",
            "--threads",
            "1",
            "--build-requests",
            "300",
            "--requests",
            "300",
            "--load-metrics",
            "all-threads",
            "--serialize-targets",
            "none,3x",
            "--baselines",
            "seq,fixed:2",
            "--out",
            prefix),
        cli.err());
    assertTrue(cli.out().contains("all-threads, none "), cli.out());
    assertTrue(cli.out().contains("all-threads, serialize at "), cli.out());
    assertTrue(cli.out().contains("chosen:"), cli.out());
    assertTrue(cli.out().contains("on the other half, another seed:"), cli.out());
    TargetTable t = TargetTable.read(Path.of(prefix + ".targets.json"));
    assertEquals(TargetTable.LoadMetric.ALL_THREADS, t.inputs().loadMetric());
    assertTrue(Files.exists(Path.of(prefix + ".tuning.json")));
    boolean serializes = cli.out().contains("chosen:   all-threads, serialize");
    assertEquals(serializes, Files.exists(Path.of(prefix + ".thresholds-10.json")));
    assertEquals(serializes, Files.exists(Path.of(prefix + ".thresholds-20.json")));
    String policy =
        "policy:   progress:"
            + prefix
            + ".targets.json"
            + (serializes ? "+" + prefix + ".thresholds-{rps}.json" : "");
    assertTrue(cli.out().contains(policy), cli.out());
  }

  /** Runs {@code tables tune progress} on the profile, the true times as predictions. */
  private static int tune(Cli cli, Path profile, String... options) {
    List<String> args =
        new ArrayList<>(
            List.of("tables", "tune", "progress", "--profile", profile.toString(), "--known"));
    args.addAll(List.of(options));
    return cli.run(args.toArray(String[]::new));
  }
}
