package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.sim.Calibration;
import dev.tailor.sim.MachineModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tailor plan} on generated workloads: its files, its refusals. */
class PlanCommandTest {

  @TempDir Path tmp;

  private final Cli cli = new Cli();

  @Test
  void thePlainLucenePeersAreCandidatesBesideThePolicies() {
    assertEquals(
        List.of("seq", "adaptive:1,1.9,2.5", "lucene-executor", "opensearch:auto"),
        PlanCommand.candidates("seq,lucene-executor,adaptive:1,1.9,2.5,opensearch:auto"));
  }

  @Test
  void aPlanPrintsItsTableAndWritesItsFiles() {
    Path out = tmp.resolve("plan");
    assertEquals(
        0,
        cli.run(
            "plan",
            "--parametric",
            "200",
            "--target-p99",
            "2s",
            "--rps",
            "2,4",
            "--cores",
            "2,4",
            "--peak",
            "4",
            "--seeds",
            "2",
            "--requests",
            "400",
            "--policies",
            "seq,steal-first",
            "--out",
            out.toString()),
        cli.err());
    assertTrue(cli.out().contains("# Capacity plan: P99 at most 2000.000 ms"), cli.out());
    assertTrue(cli.out().contains("## 4 cores"), cli.out());
    for (String f : List.of("plan.md", "plan.json", "plan.png")) {
      assertTrue(Files.isRegularFile(out.resolve(f)), f);
    }
  }

  @Test
  void aTargetNoPolicyCanMeetSaysWhyInsteadOfATable() {
    assertEquals(
        1,
        cli.run(
            "plan",
            "--lognormal",
            "10ms,13ms",
            "--target-p99",
            "1ms",
            "--rps",
            "10",
            "--cores",
            "2",
            "--out",
            tmp.resolve("no").toString()));
    assertTrue(
        cli.err().startsWith("tailor plan: no policy can meet a P99 of 1.000 ms"), cli.err());
    assertTrue(cli.err().contains("at degree 1"), cli.err());
    assertTrue(!cli.out().contains("| cores |"), cli.out());
  }

  @Test
  void aCalibrationOfAnotherCoreCountIsRefusedUnlessItsScalingIsAskedFor() throws IOException {
    long[] zero = new long[Calibration.PERCENTILES];
    long[] ms = new long[Calibration.PERCENTILES];
    Arrays.fill(ms, 1_000_000);
    Calibration two =
        new Calibration(
            Calibration.FORMAT,
            Calibration.VERSION,
            "2026-01-01T00:00:00Z",
            new Calibration.Machine("vm", 2, "CPU", "amd64", "25.0.3", "Linux amd64"),
            null,
            "test",
            1,
            zero,
            zero,
            zero,
            new MachineModel(
                new MachineModel.Stalls(1_000_000_000L, 1, 0, ms),
                new MachineModel.GcPauses(1_000, 1, ms),
                new double[] {1, 1.2},
                new long[] {100, 100}),
            null,
            null,
            false);
    Path file = tmp.resolve("c.json");
    two.write(file);
    String[] plan = {
      "plan",
      "--parametric",
      "100",
      "--target-p99",
      "2s",
      "--rps",
      "2",
      "--cores",
      "4",
      "--seeds",
      "1",
      "--requests",
      "200",
      "--policies",
      "seq",
      "--calibration",
      file.toString(),
      "--out",
      tmp.resolve("c").toString()
    };
    assertEquals(1, cli.run(plan));
    assertTrue(cli.err().contains("machine.cores"), cli.err());
    assertTrue(cli.err().contains("--scale-calibration"), cli.err());
    String[] scaled = Arrays.copyOf(plan, plan.length + 1);
    scaled[plan.length] = "--scale-calibration";
    assertEquals(0, new Cli().run(scaled));
  }

  @Test
  void loadsAreAListOrARange() {
    assertEquals(List.of(100.0, 200.0), PlanCommand.loads("100, 200"));
    assertEquals(List.of(100.0, 200.0, 300.0, 400.0, 500.0), PlanCommand.loads("100..500"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PlanCommand.loads("fast"));
    assertTrue(e.getMessage().startsWith("--rps:"), e.getMessage());
  }
}
