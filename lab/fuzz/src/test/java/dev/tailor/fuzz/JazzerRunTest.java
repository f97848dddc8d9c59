package dev.tailor.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class JazzerRunTest {

  @Test
  void theCommandFuzzesOneTestForTheTimeGiven() {
    List<String> command =
        new JazzerRun(120, 10, 4096, 1, false).command(FuzzTarget.ALL.get("profile"));
    assertTrue(command.contains("-Dtest=ProfileFuzzTest#demandProfile"), command.toString());
    assertTrue(command.contains("-Djazzer.max_duration=120s"), command.toString());
    assertTrue(command.contains("-Djazzer.internal.arg.1=-timeout=10"), command.toString());
    assertTrue(command.contains("-Djazzer.internal.arg.2=-max_len=4096"), command.toString());
    assertTrue(
        command.contains("-Djazzer.internal.arg.3=-report_slow_units=11"), command.toString());
    assertTrue(command.containsAll(List.of("-pl", "fuzz", "-am")), command.toString());
    assertTrue(!command.contains("-o"), "online unless asked");
  }

  @Test
  void theSummaryHasARowPerTargetTheTotalAndEveryFinding() {
    FuzzTarget profile = FuzzTarget.ALL.get("profile");
    FuzzTarget model = FuzzTarget.ALL.get("model");
    StringWriter text = new StringWriter();
    JazzerRun.print(
        List.of(
            new JazzerRun.Outcome(profile, 1000, 10, List.of(), 0),
            new JazzerRun.Outcome(model, 500, 10, List.of(Path.of("crash-1")), 1)),
        new PrintWriter(text));
    String[] lines = text.toString().split("\\R");
    assertEquals("", lines[0]);
    assertTrue(lines[1].startsWith("target"), lines[1]);
    assertTrue(lines[2].startsWith("profile") && lines[2].endsWith("  ok"), lines[2]);
    assertTrue(lines[3].endsWith("FINDING"), lines[3]);
    assertEquals(String.format("%-18s %14d %8d %10.0f %9d", "total", 1500, 20, 75.0, 1), lines[4]);
    assertEquals("finding of model: crash-1", lines[5]);
  }
}
