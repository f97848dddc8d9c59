package dev.tailor.corpora.synth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.corpora.Corpora;
import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.CorpusDoc;
import dev.tailor.corpora.linedocs.CorpusMetadata;
import dev.tailor.corpora.linedocs.LineDocReader;
import dev.tailor.corpora.linedocs.LineDocWriter;
import dev.tailor.corpora.wiki.Redirects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyntheticCorpusTest {

  @TempDir Path tmp;

  private Corpus training() throws IOException {
    Path file = tmp.resolve("real.txt");
    String[] texts = {
      "the river flows into the delta and the delta meets the sea",
      "a mountain lake lies above the river valley",
      "the sea is salt and the lake is fresh water",
      "rivers carry sediment to the delta over many years"
    };
    try (LineDocWriter w = new LineDocWriter(file)) {
      for (int i = 0; i < texts.length; i++) {
        w.write(new CorpusDoc("Doc " + i, "", texts[i], null));
      }
      w.commit();
    }
    return Corpora.file(file, "real fixture", true, Redirects.SKIP, s -> {});
  }

  private List<CorpusDoc> read(Path file) throws IOException {
    List<CorpusDoc> docs = new ArrayList<>();
    try (LineDocReader r = new LineDocReader(file, true, s -> {})) {
      for (CorpusDoc d = r.next(); d != null; d = r.next()) {
        docs.add(d);
      }
    }
    return docs;
  }

  @Test
  void theSameSeedGivesTheSameBytesAndAnotherSeedOtherText() throws IOException {
    Corpus real = training();
    Path a = tmp.resolve("a.txt");
    Path b = tmp.resolve("b.txt");
    Path c = tmp.resolve("c.txt");
    SyntheticCorpus.train(real, "fixture").write(a, 500, 42, 3, n -> {});
    SyntheticCorpus.train(real, "fixture").write(b, 500, 42, 3, n -> {});
    SyntheticCorpus.train(real, "fixture").write(c, 500, 43, 3, n -> {});
    assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
    assertFalse(java.util.Arrays.equals(Files.readAllBytes(a), Files.readAllBytes(c)));
  }

  @Test
  void textFollowsTheTrainingBigramsAndLengths() throws IOException {
    Corpus real = training();
    Set<String> bigrams = new HashSet<>();
    Set<String> vocabulary = new HashSet<>();
    try (var docs = real.open()) {
      for (CorpusDoc d = docs.next(); d != null; d = docs.next()) {
        String[] w = d.body().split(" ");
        vocabulary.addAll(List.of(w));
        for (int i = 1; i < w.length; i++) {
          bigrams.add(w[i - 1] + " " + w[i]);
        }
      }
    }
    Path out = tmp.resolve("synth.txt.gz");
    long[] progress = {0};
    CorpusMetadata meta =
        SyntheticCorpus.train(real, "fixture").write(out, 2_000, 7, 2, n -> progress[0] = n);
    assertEquals(2_000, progress[0]);
    List<CorpusDoc> docs = read(out);
    assertEquals(2_000, docs.size());
    long seen = 0;
    long known = 0;
    for (CorpusDoc d : docs) {
      String[] w = d.body().split(" ");
      // Two training lengths (8 to 12 words each) per document.
      assertTrue(w.length >= 16 && w.length <= 24, d.body());
      assertTrue(vocabulary.containsAll(List.of(w)));
      for (int i = 1; i < w.length; i++) {
        seen++;
        if (bigrams.contains(w[i - 1] + " " + w[i])) {
          known++;
        }
      }
      assertTrue(d.date().matches("20[0-2][0-9]-[0-9]{2}-[0-9]{2}"), d.date());
    }
    // Most transitions are learnt bigrams; the rest are restarts from the word frequencies
    // (one in ten, and after a word that ends every training text it is in).
    assertTrue(known > seen * 0.75, known + " of " + seen);
    assertTrue(meta.synthetic());
    assertEquals("fixture", meta.trainedOn());
    assertTrue(meta.label().startsWith("synthetic text (bigram model trained on fixture, seed 7"));
    assertEquals(meta.label(), CorpusMetadata.readFor(out).label());
    assertEquals(meta.label(), Corpora.file(out, null, true, Redirects.SKIP, s -> {}).label());
  }
}
