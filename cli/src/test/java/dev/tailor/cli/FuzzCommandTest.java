package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class FuzzCommandTest {

  /** The worktree: tests run in the cli module's directory. */
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void everyTargetHasSeedsWhereJazzerLooksForThem() {
    for (FuzzCommand.Target t : FuzzCommand.TARGETS.values()) {
      Path inputs = t.inputs(ROOT);
      assertTrue(Files.isDirectory(inputs), t.name() + ": no inputs directory " + inputs);
      Path test =
          ROOT.resolve("fuzz/src/test/java")
              .resolve(t.testPackage().replace('.', '/'))
              .resolve(t.testClass() + ".java");
      assertTrue(Files.isRegularFile(test), t.name() + ": no test class " + test);
    }
  }

  @Test
  void theCommandFuzzesOneTestForTheTimeGiven() {
    FuzzCommand c = new FuzzCommand();
    new CommandLine(c).parseArgs("profile", "--time", "2m", "--max-len", "4096");
    List<String> command = c.command(FuzzCommand.TARGETS.get("profile"), 120, 10);
    assertTrue(command.contains("-Dtest=ProfileFuzzTest#demandProfile"), command.toString());
    assertTrue(command.contains("-Djazzer.max_duration=120s"), command.toString());
    assertTrue(command.contains("-Djazzer.internal.arg.1=-timeout=10"), command.toString());
    assertTrue(command.contains("-Djazzer.internal.arg.2=-max_len=4096"), command.toString());
    assertTrue(
        command.contains("-Djazzer.internal.arg.3=-report_slow_units=11"), command.toString());
    assertTrue(command.containsAll(List.of("-pl", "fuzz", "-am")), command.toString());
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

  @Test
  void findingsAreTheInputsLibFuzzerNamesByKind(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("seed.json"), "{}");
    Files.writeString(dir.resolve("crash-0a1b"), "x");
    Files.writeString(dir.resolve("timeout-77"), "y");
    Files.writeString(dir.resolve("slow-unit-5"), "slow, under the timeout: no finding");
    assertEquals(
        Set.of(dir.resolve("crash-0a1b"), dir.resolve("timeout-77")), FuzzCommand.findings(dir));
    assertEquals(Set.of(), FuzzCommand.findings(dir.resolve("absent")));
  }
}
