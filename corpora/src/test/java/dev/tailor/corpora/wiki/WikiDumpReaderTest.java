package dev.tailor.corpora.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.corpora.BadInputException;
import dev.tailor.corpora.CorpusDoc;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WikiDumpReaderTest {

  @TempDir Path tmp;

  static Path fixture() {
    try {
      return Path.of(WikiDumpReaderTest.class.getResource("/wiki/dump-fixture.xml").toURI());
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
  }

  static List<CorpusDoc> readAll(Path file, Redirects redirects) throws IOException {
    List<CorpusDoc> docs = new ArrayList<>();
    try (WikiDumpReader r = new WikiDumpReader(file, redirects)) {
      for (CorpusDoc d = r.next(); d != null; d = r.next()) {
        docs.add(d);
      }
    }
    return docs;
  }

  @Test
  void keepsArticlesAndTurnsMarkupIntoText() throws IOException {
    List<CorpusDoc> docs = readAll(fixture(), Redirects.SKIP);
    assertEquals(List.of("River Delta", "Mountain"), docs.stream().map(CorpusDoc::title).toList());
    CorpusDoc delta = docs.get(0);
    assertEquals("2016-02-01T10:00:00Z", delta.date());
    assertEquals(
        "A river delta is a landform formed by sediment carried by a rivers. Deltas are important"
            + " for agriculture. Formation. Deltas form where a river meets a sea, a lake or a"
            + " reservoir area \u2013 see the survey and . First item about silt Second item",
        delta.body());
    assertEquals("A mountain is an elevated part of the Earth's crust.", docs.get(1).body());
  }

  @Test
  void followedRedirectsBecomeDocumentsNamingTheirTarget() throws IOException {
    List<CorpusDoc> docs = readAll(fixture(), Redirects.FOLLOW);
    assertEquals(3, docs.size());
    assertEquals(
        new CorpusDoc("Delta (landform)", "2016-02-02T10:00:00Z", "River Delta", "redirect"),
        docs.get(1));
  }

  @Test
  void readsBzip2AndReportsATruncatedDump() throws IOException {
    byte[] xml = Files.readAllBytes(fixture());
    Path bz2 = tmp.resolve("pages-articles.xml.bz2");
    try (OutputStream out = new BZip2CompressorOutputStream(Files.newOutputStream(bz2))) {
      out.write(xml);
    }
    assertEquals(2, readAll(bz2, Redirects.SKIP).size());

    byte[] bytes = Files.readAllBytes(bz2);
    Path cut = tmp.resolve("cut.xml.bz2");
    Files.write(cut, Arrays.copyOf(bytes, bytes.length * 2 / 3));
    BadInputException e = assertThrows(BadInputException.class, () -> readAll(cut, Redirects.SKIP));
    assertTrue(e.getMessage().contains("cut.xml.bz2"), e.getMessage());
    assertTrue(e.getMessage().contains("truncated or corrupt bzip2"), e.getMessage());
  }

  @Test
  void malformedXmlNamesTheFileAndLine() throws IOException {
    Path bad =
        Files.writeString(
            tmp.resolve("bad.xml"), "<mediawiki>\n<page>\n<title>A</title>\n</mediawiki>\n");
    BadInputException e = assertThrows(BadInputException.class, () -> readAll(bad, Redirects.SKIP));
    assertTrue(e.getMessage().startsWith(bad.toString()), e.getMessage());
    assertFalse(e.getMessage().isBlank());
  }
}
