package dev.tailor.corpora.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.corpora.Corpora;
import dev.tailor.corpora.CorpusDoc;
import dev.tailor.corpora.index.IndexAnalyzer;
import dev.tailor.corpora.index.IndexManifest;
import dev.tailor.corpora.index.Indexer;
import dev.tailor.corpora.linedocs.LineDocWriter;
import dev.tailor.corpora.wiki.Redirects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceGeneratorTest {

  @TempDir Path tmp;

  /** An index whose word frequencies span the bands: word k is in about 1/(k+1) of the docs. */
  private Path index() throws IOException {
    Path docs = tmp.resolve("docs.txt");
    SplittableRandom random = new SplittableRandom(3);
    try (LineDocWriter w = new LineDocWriter(docs)) {
      for (int i = 0; i < 3_000; i++) {
        StringBuilder body = new StringBuilder();
        for (int k = 0; k < 400; k++) {
          if (random.nextInt(k + 1) == 0) {
            body.append(word(k)).append(' ');
          }
        }
        w.write(new CorpusDoc("t", "", body.toString(), null));
      }
      w.commit();
    }
    Path dir = tmp.resolve("index");
    Indexer.build(
        Corpora.file(docs, null, true, Redirects.SKIP, s -> {}),
        dir,
        new Indexer.Options(2, false, IndexAnalyzer.ENGLISH, 32),
        (d, t) -> {});
    return dir;
  }

  /** A distinct lower-case word per number, unchanged by the English stemmer. */
  private static String word(int k) {
    StringBuilder s = new StringBuilder("zq");
    for (int n = k; ; n /= 20) {
      s.append((char) ('b' + n % 20));
      if (n < 20) {
        break;
      }
    }
    return s.append("x").toString();
  }

  @Test
  void writesEveryCategoryDeterministicallyAndItParses() throws IOException {
    Path index = index();
    Path a = tmp.resolve("a.tasks");
    Path b = tmp.resolve("b.tasks");
    assertEquals(16 * 5, TraceGenerator.write(index, a, 9, 5));
    TraceGenerator.write(index, b, 9, 5);
    assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));

    assertEquals(TraceFormat.LUCENEUTIL, TraceFormat.detect(a));
    QueryTrace trace =
        QueryTrace.read(a, TraceFormat.LUCENEUTIL, IndexManifest.read(index).analyzer(), true);
    Map<String, Integer> byCategory = new TreeMap<>();
    trace.queries().forEach(q -> byCategory.merge(q.category(), 1, Integer::sum));
    assertEquals(16, byCategory.size(), byCategory.toString());
    assertTrue(byCategory.values().stream().allMatch(n -> n == 5));
    assertEquals(Map.of(), trace.skipped());

    // Terms come from the right bands: HighTerm's frequency is at least 3% of the docs.
    List<String> lines = Files.readAllLines(a);
    for (String line : lines) {
      if (line.startsWith("HighTerm:")) {
        long df = Long.parseLong(line.substring(line.indexOf("freq=") + 5));
        assertTrue(df >= 90, line);
      }
      if (line.startsWith("LowTerm:")) {
        long df = Long.parseLong(line.substring(line.indexOf("freq=") + 5));
        assertTrue(df < 9, line);
      }
    }
  }
}
