package dev.tailor.corpora.linedocs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.corpora.BadInputException;
import dev.tailor.corpora.CorpusDoc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineDocsTest {

  @TempDir Path tmp;

  @Test
  void writtenDocsReadBackWithLabelsAndSanitizedFields() throws IOException {
    Path file = tmp.resolve("docs.txt.gz");
    try (LineDocWriter w = new LineDocWriter(file)) {
      w.write(new CorpusDoc("A\ttitle", "2024-01-01", "line one\nline two", null));
      w.write(new CorpusDoc("B", "", "body", "Arts"));
      assertFalse(Files.exists(file), "nothing is where the file is expected before commit");
      w.commit();
    }
    try (LineDocReader r = new LineDocReader(file, true, s -> {})) {
      assertEquals(new CorpusDoc("A title", "2024-01-01", "line one line two", null), r.next());
      assertEquals(new CorpusDoc("B", "", "body", "Arts"), r.next());
      assertNull(r.next());
    }
  }

  @Test
  void closingWithoutCommitLeavesNothing() throws IOException {
    Path file = tmp.resolve("docs.txt");
    try (LineDocWriter w = new LineDocWriter(file)) {
      w.write(new CorpusDoc("A", "", "b", null));
    }
    try (var files = Files.list(tmp)) {
      assertEquals(0, files.count());
    }
  }

  @Test
  void malformedLinesAreReportedWithFileAndLineOrFatalWhenStrict() throws IOException {
    Path file =
        Files.writeString(
            tmp.resolve("bad.txt"),
            LineDocReader.HEADER + "\ttitle\tdate\tbody\nT\tD\tB\nonly\ttwo\n\nT2\tD2\tB2\n");
    List<String> warnings = new ArrayList<>();
    List<CorpusDoc> docs = new ArrayList<>();
    try (LineDocReader r = new LineDocReader(file, false, warnings::add)) {
      for (CorpusDoc d = r.next(); d != null; d = r.next()) {
        docs.add(d);
      }
    }
    assertEquals(2, docs.size());
    assertEquals(1, warnings.size());
    assertTrue(warnings.get(0).startsWith(file + ":3: expected 'title<TAB>date<TAB>body"));
    try (LineDocReader r = new LineDocReader(file, true, warnings::add)) {
      r.next();
      BadInputException e = assertThrows(BadInputException.class, r::next);
      assertEquals(3, e.line());
    }
  }

  @Test
  void metadataRoundTrips() throws IOException {
    Path file = tmp.resolve("synth.txt");
    assertNull(CorpusMetadata.readFor(file));
    CorpusMetadata m =
        new CorpusMetadata("synthetic, trained on x", true, "x", 5, Map.of("seed", 3));
    m.writeFor(file);
    CorpusMetadata back = CorpusMetadata.readFor(file);
    assertEquals(m.label(), back.label());
    assertEquals(Map.of("seed", 3), back.generator());
    Files.writeString(CorpusMetadata.fileFor(file), "{\"synthetic\": true}");
    IOException e = assertThrows(IOException.class, () -> CorpusMetadata.readFor(file));
    assertTrue(
        e.getMessage().contains(CorpusMetadata.fileFor(file) + ": label: expected a string"),
        e.getMessage());
  }
}
