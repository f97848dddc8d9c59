package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Errors name the full command that failed and say what is wrong, not just which file. */
class ErrorMessagesTest {

  @TempDir Path tmp;

  private final Cli cli = new Cli();

  @Test
  void aNestedCommandsErrorHasItsFullNameAndTheReason() {
    Path missing = tmp.resolve("nonexistent.trace");
    assertNotEquals(0, cli.run("trace", "check", missing.toString()));
    assertTrue(cli.err().startsWith("tailor trace check: no such file: " + missing), cli.err());
  }

  @Test
  void fmWithAMissingTableSaysTheFileDoesNotExist() {
    Path table = tmp.resolve("nonexistent").resolve("table.json");
    assertNotEquals(
        0,
        cli.run(
            "simulate",
            "--parametric",
            "100",
            "--requests",
            "100",
            "--rps",
            "5",
            "--policies",
            "fm:" + table));
    assertTrue(cli.err().contains("no such file: " + table), cli.err());
  }

  @Test
  void tablesErrorsHaveTheirCommandsPrefix() throws IOException {
    Path missing = tmp.resolve("nonexistent.json");
    assertNotEquals(0, cli.run("tables", "show", missing.toString()));
    assertTrue(cli.err().startsWith("tailor tables show: " + missing), cli.err());

    Path notJson = Files.writeString(tmp.resolve("table.json"), "not json");
    Cli validate = new Cli();
    assertNotEquals(0, validate.run("tables", "validate", notJson.toString()));
    assertTrue(validate.err().startsWith("tailor tables validate: " + notJson), validate.err());

    Cli build = new Cli();
    assertNotEquals(
        0,
        build.run(
            "tables",
            "build",
            "fm",
            "--profile",
            missing.toString(),
            "--cores",
            "4",
            "--mode",
            "paper",
            "--target-parallelism",
            "4",
            "--out",
            tmp.resolve("out.json").toString()));
    assertTrue(build.err().startsWith("tailor tables build fm: "), build.err());
    assertTrue(build.err().contains(missing.toString()), build.err());
  }

  @Test
  void aPromptBoundThatIsNotPositiveOrOutlastsTheClientTimeoutIsRefusedNamingTheOption() {
    for (String[] bad :
        new String[][] {
          {"--prompt-bound", "0ms"}, {"--prompt-bound", "20s", "--client-timeout", "10s"}
        }) {
      String[] args = new String[3 + bad.length];
      args[0] = "serve";
      args[1] = "--index";
      args[2] = tmp.resolve("nonexistent").toString();
      System.arraycopy(bad, 0, args, 3, bad.length);
      assertNotEquals(0, cli.run(args));
      assertTrue(
          cli.err().contains("--prompt-bound: expected a positive duration no longer than"),
          cli.err());
    }
  }
}
