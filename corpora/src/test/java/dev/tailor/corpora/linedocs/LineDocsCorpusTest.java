package dev.tailor.corpora.linedocs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.corpora.BadInputException;
import dev.tailor.corpora.CorpusDoc;
import dev.tailor.corpora.DocSource;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineDocsCorpusTest {

  @TempDir Path tmp;

  /**
   * A file with every line shape: header, CRLF and CR endings, blanks, bad lines, no final break.
   */
  private String text() {
    StringBuilder s = new StringBuilder(LineDocReader.HEADER + "\ttitle\tdate\tbody\n");
    for (int i = 0; i < 3_000; i++) {
      s.append("T").append(i).append("\tD\tbody ").append(i).append(" \u00e9t\u00e9");
      s.append(i % 7 == 0 ? "\r\n" : i % 11 == 0 ? "\r" : "\n");
      if (i % 13 == 0) {
        s.append("\n");
      }
      if (i % 17 == 0) {
        s.append("bad line\twith one tab\n");
      }
    }
    return s.append("last\tD\tno line break").toString();
  }

  private static List<CorpusDoc> all(DocSource docs) throws IOException {
    List<CorpusDoc> out = new ArrayList<>();
    try (docs) {
      for (CorpusDoc d = docs.next(); d != null; d = docs.next()) {
        out.add(d);
      }
    }
    return out;
  }

  @Test
  void countingAndStartingAnywhereAgreeWithReadingFromTheStart() throws IOException {
    Path file = Files.writeString(tmp.resolve("docs.txt"), text());
    List<String> warnings = new ArrayList<>();
    LineDocsCorpus corpus = new LineDocsCorpus(file, "x", false, warnings::add);
    assertTrue(corpus.seeksCheaply());
    List<CorpusDoc> expected = all(corpus.open());
    assertEquals(3_001, expected.size());
    assertEquals(expected.size(), corpus.count());
    for (long first : new long[] {0, 1, 1023, 1024, 1025, 2048, 2999, 3000}) {
      try (DocSource docs = corpus.openAt(first)) {
        assertEquals(expected.get((int) first), docs.next(), "document " + first);
      }
    }
    try (DocSource docs = corpus.openAt(3_001)) {
      assertEquals(null, docs.next());
    }
    // A malformed line read from a checkpoint is reported with its true line number.
    warnings.clear();
    all(corpus.openAt(2_048));
    String first = warnings.get(0);
    int line = Integer.parseInt(first.split(":")[1]);
    assertEquals("bad line\twith one tab", Files.readAllLines(file).get(line - 1).split("\r")[0]);
  }

  @Test
  void readingInBandsReportsEveryMalformedLineOnce() throws IOException {
    Path file = Files.writeString(tmp.resolve("docs.txt"), text());
    List<String> sequential = new ArrayList<>();
    all(new LineDocsCorpus(file, "x", false, sequential::add).open());
    for (int band : new int[] {1024, 700}) {
      List<String> banded = new ArrayList<>();
      LineDocsCorpus corpus = new LineDocsCorpus(file, "x", false, banded::add);
      long total = corpus.count();
      List<CorpusDoc> docs = new ArrayList<>();
      for (long first = 0; first < total; first += band) {
        try (DocSource source = corpus.openAt(first)) {
          for (long i = first; i < Math.min(total, first + band); i++) {
            docs.add(source.next());
          }
          if (first + band >= total) {
            assertEquals(null, source.next());
          }
        }
      }
      assertEquals(sequential, banded, "bands of " + band);
      assertEquals(all(new LineDocsCorpus(file, "x", false, w -> {}).open()), docs);
    }
  }

  @Test
  void strictCountingNamesTheFirstMalformedLine() throws IOException {
    Path file = Files.writeString(tmp.resolve("docs.txt"), text());
    LineDocsCorpus corpus = new LineDocsCorpus(file, "x", true, s -> {});
    BadInputException e = assertThrows(BadInputException.class, corpus::count);
    assertEquals(4, e.line());
  }

  @Test
  void compressedFilesAreReadFromTheStart() throws IOException {
    Path gz = tmp.resolve("docs.txt.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(text().getBytes(StandardCharsets.UTF_8));
    }
    LineDocsCorpus corpus = new LineDocsCorpus(gz, "x", false, s -> {});
    assertFalse(corpus.seeksCheaply());
    assertEquals(3_001, corpus.count());
    try (DocSource docs = corpus.openAt(2_000)) {
      assertEquals("T2000", docs.next().title());
    }
  }
}
