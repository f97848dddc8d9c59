package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tailor predictor}: its subcommands and how they report bad input. */
class PredictorCommandTest {

  @TempDir Path tmp;

  private final Cli cli = new Cli();

  @Test
  void helpListsTheSubcommands() {
    assertEquals(0, cli.run("predictor", "--help"));
    for (String sub : new String[] {"train", "predict", "show"}) {
      assertTrue(cli.out().contains(sub), cli.out());
    }
  }

  @Test
  void showOfABadModelNamesTheFileAndTheField() throws IOException {
    Path model = tmp.resolve("model.json");
    Files.writeString(model, "{\"format\": \"tailor-table\", \"version\": 1}");
    assertNotEquals(0, cli.run("predictor", "show", model.toString()));
    assertTrue(
        cli.err().startsWith("tailor predictor show: " + model + ": format: expected"), cli.err());
  }

  @Test
  void trainWithAMissingProfileSaysSo() {
    Path missing = tmp.resolve("nope.json");
    assertNotEquals(
        0,
        cli.run(
            "predictor",
            "train",
            "--profile",
            missing.toString(),
            "--out",
            tmp.resolve("m").toString()));
    assertTrue(cli.err().startsWith("tailor predictor train: "), cli.err());
    assertTrue(cli.err().contains(missing.toString()), cli.err());
  }

  @Test
  void badParametersAreRejectedBeforeAnyWork() {
    assertNotEquals(
        0,
        cli.run(
            "predictor",
            "train",
            "--profile",
            tmp.resolve("p.json").toString(),
            "--out",
            tmp.resolve("m").toString(),
            "--holdout",
            "1.5"));
    assertTrue(cli.err().contains("held-out share"), cli.err());
  }
}
