package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.corpora.index.IndexManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The corpus, index and trace commands strung together on a small corpus of our own. */
class CorpusCommandsTest {

  @TempDir Path tmp;

  private final Cli cli = new Cli();

  @Test
  void synthIndexGenerateAndCheckATrace() throws IOException {
    Path real = tmp.resolve("real.txt");
    StringBuilder lines = new StringBuilder();
    String[] texts = {
      "the river flows into the delta and the delta meets the sea",
      "a mountain lake lies above the river valley near the old town",
      "the sea is salt and the lake is fresh water for the town",
      "rivers carry sediment to the delta over many years of floods"
    };
    for (int i = 0; i < texts.length; i++) {
      lines.append("Doc ").append(i).append("\t\t").append(texts[i]).append('\n');
    }
    Files.writeString(real, lines);
    Path synth = tmp.resolve("synth.txt");
    Path index = tmp.resolve("index");
    Path tasks = tmp.resolve("gen.tasks");

    assertEquals(
        0,
        cli.run(
            "corpus",
            "synth",
            "--from",
            real.toString(),
            "--docs",
            "300",
            "--seed",
            "3",
            "--out",
            synth.toString()),
        cli.err());
    assertTrue(cli.out().contains("synthetic text (bigram model trained on"), cli.out());

    assertEquals(
        0,
        cli.run(
            "index", "--corpus", synth.toString(), "--out", index.toString(), "--segments", "3"),
        cli.err());
    IndexManifest m = IndexManifest.read(index);
    assertEquals(300, m.docCount());
    assertEquals(3, m.segments().size());
    assertTrue(m.sourceLabel().startsWith("synthetic text"), m.sourceLabel());

    assertNotEquals(0, cli.run("index", "--corpus", synth.toString(), "--out", index.toString()));
    assertTrue(cli.err().contains("pass --force"), cli.err());

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
            "2",
            "--out",
            tasks.toString()),
        cli.err());
    assertEquals(0, cli.run("trace", "check", tasks.toString(), "--index", index.toString()));
    assertTrue(cli.out().contains("(LUCENEUTIL): 32 queries"), cli.out());
  }

  @Test
  void unknownNamesAreRejectedWithTheKnownOnes() {
    assertNotEquals(0, cli.run("corpus", "fetch", "--data-dir", tmp.toString(), "no-such-corpus"));
    assertTrue(cli.err().contains("known: wikipedia-summaries"), cli.err());
    assertNotEquals(0, cli.run("trace", "fetch", "--data-dir", tmp.toString(), "no-such-trace"));
    assertTrue(cli.err().contains("known: nq, trec-tb05, trec-mq"), cli.err());
  }
}
