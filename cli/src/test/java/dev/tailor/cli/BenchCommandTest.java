package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tailor bench}: what it lists and how it fails; no benchmark is run for its figures. */
class BenchCommandTest {

  private static final String[] NAMES = {
    "scheduler-overhead",
    "metrics-overhead",
    "search-overhead",
    "speedup",
    "windows",
    "prompt-claims",
    "lone-speedup",
    "predictor",
    "load-client",
    "noise-meter",
    "simulator",
    "fm-build",
    "tpc-build",
    "call-path"
  };

  @TempDir Path tmp;

  private final Cli cli = new Cli();

  @Test
  void helpListsEveryBenchmark() {
    assertEquals(0, cli.run("bench", "--help"));
    for (String name : NAMES) {
      assertTrue(cli.out().contains(name), name + " missing from:\n" + cli.out());
    }
    assertFalse(cli.out().contains("null"), cli.out());
  }

  @Test
  void theScriptGivesTheVectorApiToExactlyTheBenchmarksThatSearch() throws Exception {
    Matcher line =
        Pattern.compile("(?m)^vector_benches=\"([^\"]*)\"$")
            .matcher(Files.readString(Path.of("..", "tailor")));
    assertTrue(line.find(), "no vector_benches=\"...\" line in ../tailor");

    assertEquals(
        new TreeSet<>(BenchCommand.SEARCHING), new TreeSet<>(List.of(line.group(1).split(" "))));
  }

  @Test
  void anUnknownBenchmarkIsRejectedWithTheKnownOnes() {
    assertNotEquals(0, cli.run("bench", "nosuchbench"));
    assertTrue(cli.err().contains("unknown benchmark 'nosuchbench'"), cli.err());
    assertTrue(cli.err().contains("known: " + String.join(", ", NAMES)), cli.err());
    assertFalse(cli.err().contains("null"), cli.err());
  }

  @Test
  void aSearchBenchmarkWithoutTheDemosDataSaysHowToGetIt() {
    assertNotEquals(0, cli.run("bench", "speedup", "--data-dir", tmp.toString()));
    assertTrue(cli.err().startsWith("tailor bench: no --index given"), cli.err());
    assertTrue(cli.err().contains(tmp.resolve("indexes").toString()), cli.err());
    assertTrue(cli.err().contains("run ./tailor demo"), cli.err());
  }

  @Test
  void aGivenIndexThatDoesNotExistIsNamed() {
    Path index = tmp.resolve("no-index");
    Path trace = tmp.resolve("no.trace");
    assertNotEquals(
        0,
        cli.run(
            "bench", "search-overhead", "--index", index.toString(), "--trace", trace.toString()));
    assertTrue(cli.err().contains(index + ": no such index directory"), cli.err());
  }
}
