package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.corpora.index.IndexManifest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The corpus, index and trace commands strung together on a small corpus of our own. */
class CorpusCommandsTest {

  @TempDir Path tmp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cl = TailorCommand.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return cl.execute(args);
  }

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
        run(
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
        err.toString());
    assertTrue(out.toString().contains("synthetic text (bigram model trained on"), out.toString());

    assertEquals(
        0,
        run("index", "--corpus", synth.toString(), "--out", index.toString(), "--segments", "3"),
        err.toString());
    IndexManifest m = IndexManifest.read(index);
    assertEquals(300, m.docCount());
    assertEquals(3, m.segments().size());
    assertTrue(m.sourceLabel().startsWith("synthetic text"), m.sourceLabel());

    assertNotEquals(0, run("index", "--corpus", synth.toString(), "--out", index.toString()));
    assertTrue(err.toString().contains("pass --force"), err.toString());

    assertEquals(
        0,
        run(
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
        err.toString());
    assertEquals(0, run("trace", "check", tasks.toString(), "--index", index.toString()));
    assertTrue(out.toString().contains("(LUCENEUTIL): 32 queries"), out.toString());
  }

  @Test
  void unknownNamesAreRejectedWithTheKnownOnes() {
    assertNotEquals(0, run("corpus", "fetch", "--data-dir", tmp.toString(), "no-such-corpus"));
    assertTrue(err.toString().contains("known: wikipedia-summaries"), err.toString());
    assertNotEquals(0, run("trace", "fetch", "--data-dir", tmp.toString(), "no-such-trace"));
    assertTrue(err.toString().contains("known: nq, trec-tb05, trec-mq"), err.toString());
  }
}
