package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tailor predictor} on a real profile of a small index: training finds the profile's own
 * index and trace, the model predicts the profile, and mismatched inputs are refused by name.
 */
class PredictorPipelineTest {

  @TempDir static Path tmp;

  private static Path index;
  private static Path profile;

  @BeforeAll
  static void profileASmallIndex() throws IOException {
    Path corpus = tmp.resolve("corpus.txt");
    StringBuilder lines = new StringBuilder();
    String[] words = {"river", "delta", "sea", "lake", "town", "valley", "flood", "salt", "ridge"};
    for (int i = 0; i < 600; i++) {
      lines.append("Doc ").append(i).append("\t\t");
      for (int w = 0; w < 12; w++) {
        lines.append(words[(i * 7 + w * w * 3 + i / 50) % words.length]).append(' ');
      }
      lines.append('\n');
    }
    Files.writeString(corpus, lines);
    index = tmp.resolve("index");
    Path trace = tmp.resolve("trace.tasks");
    profile = tmp.resolve("profile.json");
    Cli cli = new Cli();
    assertEquals(
        0,
        cli.run(
            "index", "--corpus", corpus.toString(), "--out", index.toString(), "--segments", "2"),
        cli.err());
    assertEquals(
        0,
        cli.run(
            "trace",
            "gen",
            "--index",
            index.toString(),
            "--seed",
            "1",
            "--per-category",
            "3",
            "--out",
            trace.toString()),
        cli.err());
    assertEquals(
        0,
        cli.run(
            "profile",
            "--index",
            index.toString(),
            "--trace",
            trace.toString(),
            "--warmup",
            "0s",
            "--rounds",
            "1",
            "--cores",
            "1",
            "--out",
            profile.toString()),
        cli.err());
  }

  @Test
  void trainsShowsAndPredictsAProfile() throws IOException {
    Path model = tmp.resolve("model.json");
    Cli train = new Cli();
    assertEquals(
        0,
        train.run(
            "predictor",
            "train",
            "--profile",
            profile.toString(),
            "--out",
            model.toString(),
            "--rounds",
            "20",
            "--compare",
            profile.toString()),
        train.err());
    assertTrue(train.out().contains("held out: "), train.out());
    assertTrue(train.out().contains("without pattern:"), train.out());
    // A profile agrees with itself: the bound of a noiseless measurement.
    assertTrue(train.out().contains("noise bound, all requests: "), train.out());
    assertTrue(train.out().contains("L1 0.000 ms"), train.out());

    Cli show = new Cli();
    assertEquals(0, show.run("predictor", "show", model.toString()), show.err());
    assertTrue(show.out().contains("profile.json"), show.out());

    Path predicted = tmp.resolve("predicted.json");
    Cli predict = new Cli();
    assertEquals(
        0,
        predict.run(
            "predictor",
            "predict",
            "--model",
            model.toString(),
            "--profile",
            profile.toString(),
            "--out",
            predicted.toString()),
        predict.err());
    DemandProfile p = DemandProfile.read(predicted);
    DemandProfile original = DemandProfile.read(profile);
    assertEquals(DemandProfile.Predictions.MODEL, p.predictions().method());
    assertEquals("model.json", p.predictions().model());
    assertTrue(p.predictions().modelDigest().startsWith("sha256:"));
    assertEquals(original.requests().size(), p.predictions().sequentialNanos().length);
    assertArrayEquals(
        original.requests().stream().mapToLong(DemandProfile.Request::sequentialNanos).toArray(),
        p.requests().stream().mapToLong(DemandProfile.Request::sequentialNanos).toArray());

    Cli crossFit = new Cli();
    assertEquals(
        0,
        crossFit.run(
            "predictor",
            "predict",
            "--model",
            model.toString(),
            "--profile",
            profile.toString(),
            "--out",
            predicted.toString(),
            "--cross-fit",
            "3"),
        crossFit.err());
    assertEquals("cross-fit 3", DemandProfile.read(predicted).predictions().method());
  }

  @Test
  void aProfileOfAnotherIndexIsRefused() throws IOException {
    Path other = tmp.resolve("other-index-profile.json");
    String json = Files.readString(profile);
    Files.writeString(other, json.replaceFirst("\"indexDocs\" : \\d+", "\"indexDocs\" : 12345"));
    Cli cli = new Cli();
    assertNotEquals(
        0,
        cli.run(
            "predictor",
            "train",
            "--profile",
            other.toString(),
            "--out",
            tmp.resolve("m.json").toString()));
    assertTrue(cli.err().contains("environment.indexDocs"), cli.err());
    assertTrue(cli.err().contains("12345"), cli.err());
  }

  @Test
  void aTraceThatIsNotTheProfilesIsRefused() throws IOException {
    Path trace = tmp.resolve("other.tasks");
    Files.writeString(trace, "HighTerm: nosuchword\n");
    Cli cli = new Cli();
    assertNotEquals(
        0,
        cli.run(
            "predictor",
            "train",
            "--profile",
            profile.toString(),
            "--trace",
            trace.toString(),
            "--out",
            tmp.resolve("m.json").toString()));
    assertTrue(cli.err().contains("requests[0]"), cli.err());
  }
}
