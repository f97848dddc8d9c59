package dev.tailor.corpora.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tailor.corpora.CorpusDoc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The real English Wikipedia dump excerpt that ships in the gensim wheel, when it is cached: every
 * one of its 106 articles must parse to sensible text. {@code .ci/run} fetches it first; without
 * it, the test is skipped and says how to get it.
 */
class GensimExcerptTest {

  static final String FILE = "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2";

  /** Markup that must not survive into the text. */
  private static final Pattern LEFTOVER =
      Pattern.compile("\\{\\{|\\}\\}|\\[\\[|\\]\\]|\\{\\||<ref|</ref|'''|&lt;|&nbsp;|\\[https?:");

  static Path excerpt() {
    String data = System.getenv("TAILOR_DATA");
    Path dir =
        data != null && !data.isBlank()
            ? Path.of(data)
            : Path.of(System.getProperty("user.dir")).resolveSibling("data");
    return dir.resolve("corpora/wikipedia-dump-sample").resolve(FILE);
  }

  @Test
  void all106ArticlesParseToSensibleText() throws IOException {
    Path file = excerpt();
    String why =
        "the gensim Wikipedia excerpt is not cached at "
            + file
            + "; run ./tailor corpus fetch wikipedia-dump-sample (needs pip and PyPI) to run this"
            + " test";
    if (!Files.isRegularFile(file)) {
      // Surefire's summary shows a skip but not its reason: say it where the build log shows it.
      System.err.println("GensimExcerptTest skipped: " + why);
    }
    assumeTrue(Files.isRegularFile(file), why);
    List<CorpusDoc> docs = WikiDumpReaderTest.readAll(file, Redirects.SKIP);
    assertEquals(106, docs.size());
    assertEquals("Anarchism", docs.get(0).title());
    long words = 0;
    for (CorpusDoc d : docs) {
      String body = d.body();
      int n = body.split(" ").length;
      words += n;
      assertTrue(n >= 50, d.title() + " has only " + n + " words: " + body);
      var m = LEFTOVER.matcher(body);
      assertTrue(
          !m.find(),
          () ->
              d.title()
                  + " keeps markup '"
                  + m.group()
                  + "' near: "
                  + body.substring(
                      Math.max(0, m.start() - 60), Math.min(body.length(), m.end() + 60)));
      assertTrue(body.chars().filter(Character::isLetter).count() > body.length() / 2, d.title());
    }
    assertTrue(words > 200_000, "only " + words + " words in all");
    // 206 pages: 106 articles, 99 article redirects and one redirect outside namespace 0.
    assertEquals(205, WikiDumpReaderTest.readAll(file, Redirects.FOLLOW).size());
  }
}
