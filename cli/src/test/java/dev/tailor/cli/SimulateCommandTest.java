package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.metrics.PointResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {

  @Test
  void aSweepSaysWhichPointOfHowManyAndCountsTheCountedPlansRequests(@TempDir Path tmp)
      throws Exception {
    Cli cli = new Cli();
    Path out = tmp.resolve("report");
    assertEquals(
        0,
        cli.run(
            "simulate",
            "--parametric",
            "200",
            "--cores",
            "4",
            "--policies",
            "seq,fixed:2",
            "--rps",
            "20",
            "--requests",
            "300",
            "--out",
            out.toString()),
        cli.err());
    assertTrue(cli.err().contains("(point 1 of 2, about "), cli.err());
    assertTrue(cli.err().contains("(point 2 of 2, the last)"), cli.err());
    try (var files = Files.list(out.resolve("points"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
        PointResult p = PointResult.read(f);
        assertEquals(270, p.sent(), f + ": 300 requests, the first tenth warm-up");
      }
    }
  }

  @Test
  void helpFormatsEveryDescription() {
    // picocli reports a description it cannot format (an unescaped %) on standard error.
    PrintStream saved = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Cli cli = new Cli();
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      assertEquals(0, cli.run("simulate", "--help"));
    } finally {
      System.setErr(saved);
    }
    String all = err.toString(StandardCharsets.UTF_8) + cli.err() + cli.out();
    assertFalse(all.contains("Could not format"), all);
    assertTrue(cli.out().contains("10% of them warm-up"), cli.out());
  }
}
