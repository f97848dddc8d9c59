package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.fuzz.JazzerRun;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class FuzzCommandTest {

  @Test
  void theOptionsMakeTheRun() {
    FuzzCommand c = new FuzzCommand();
    new CommandLine(c).parseArgs("profile", "--time", "2m", "--max-len", "4096", "--offline");
    assertEquals(new JazzerRun(120, 10, 4096, 1, true), c.jazzer());
  }

  @Test
  void anUnknownTargetOrTimeIsRefusedBeforeAnythingRuns() {
    Cli cli = new Cli();
    assertEquals(2, cli.run("fuzz", "tables"));
    assertTrue(cli.err().contains("unknown target 'tables'"), cli.err());
    assertTrue(cli.err().contains("interval-table"), cli.err());
    Cli soon = new Cli();
    assertEquals(2, soon.run("fuzz", "profile", "--time", "10"));
    assertTrue(soon.err().contains("--time: '10' is not a duration"), soon.err());
  }
}
