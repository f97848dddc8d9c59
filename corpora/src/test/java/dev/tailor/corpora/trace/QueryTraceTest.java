package dev.tailor.corpora.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.corpora.BadInputException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.WildcardQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryTraceTest {

  private final Analyzer analyzer = new EnglishAnalyzer();

  @TempDir Path tmp;

  static Path fixture(String name) {
    try {
      return Path.of(QueryTraceTest.class.getResource("/traces/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void detectsEveryFormat() throws IOException {
    assertEquals(TraceFormat.LUCENEUTIL, TraceFormat.detect(fixture("tasks.txt")));
    assertEquals(TraceFormat.PLAIN, TraceFormat.detect(fixture("plain.txt")));
    assertEquals(TraceFormat.TREC, TraceFormat.detect(fixture("trec.txt")));
    assertEquals(TraceFormat.NQ, TraceFormat.detect(fixture("nq.txt")));
  }

  @Test
  void luceneutilTasksParseIntoTheirQueryKindsAndCountSpecialForms() throws IOException {
    QueryTrace trace =
        QueryTrace.read(fixture("tasks.txt"), TraceFormat.LUCENEUTIL, analyzer, false);
    List<TraceQuery> q = trace.queries();
    assertEquals(
        List.of(
            "HighTerm",
            "MedTerm",
            "AndHighMed",
            "OrHighMed",
            "MedPhrase",
            "SloppyPhrase",
            "Prefix3",
            "Wildcard",
            "Fuzzy1",
            "Fuzzy2",
            "ConstMSM2",
            "BM25MSM2"),
        q.stream().map(TraceQuery::category).toList());
    assertInstanceOf(TermQuery.class, q.get(0).query());
    assertEquals("body:ref", q.get(0).query().toString());
    assertEquals("ref", q.get(0).text());
    assertEquals(2, q.get(0).line());
    assertEquals("+body:river +body:delta", q.get(2).query().toString());
    assertEquals("body:river body:mountain", q.get(3).query().toString());
    assertInstanceOf(PhraseQuery.class, q.get(4).query());
    assertEquals("body:\"after hi\"~4", q.get(5).query().toString());
    assertInstanceOf(PrefixQuery.class, q.get(6).query());
    assertInstanceOf(WildcardQuery.class, q.get(7).query());
    assertInstanceOf(FuzzyQuery.class, q.get(8).query());
    assertEquals(2, ((FuzzyQuery) q.get(9).query()).getMaxEdits());
    assertEquals(
        Map.ofEntries(
            Map.entry("special form nrq//", 1),
            Map.entry("special form +filter", 1),
            Map.entry("special form +facets", 1),
            Map.entry("special form +drillDown", 1),
            Map.entry("special form count()", 1),
            Map.entry(QueryTrace.REASON_RESPELL, 1),
            Map.entry(QueryTrace.REASON_RANGE_FACETS, 1),
            Map.entry(QueryTrace.REASON_MALFORMED, 1),
            Map.entry(QueryTrace.REASON_UNPARSABLE, 2),
            Map.entry(QueryTrace.REASON_NO_TERMS, 1)),
        trace.skipped());
    assertEquals(3, trace.warnings().size());
    assertTrue(trace.warnings().get(0).contains("tasks.txt:16:"), trace.warnings().get(0));
    assertTrue(trace.warnings().get(1).contains("tasks.txt:17:"), trace.warnings().get(1));
    assertTrue(
        trace.warnings().get(2).contains("tasks.txt:24: cannot parse 'river +minShouldMatch=2'"),
        trace.warnings().get(2));
    assertTrue(
        trace.warnings().get(2).contains("apply to a boolean query of several clauses"),
        trace.warnings().get(2));
    assertEquals(fixture("tasks.txt"), trace.source());
  }

  @Test
  void minShouldMatchAndConstantScoreAreRunAsLuceneutilMeansThem() throws IOException {
    List<TraceQuery> q =
        QueryTrace.read(fixture("tasks.txt"), TraceFormat.LUCENEUTIL, analyzer, false).queries();
    TraceQuery constant = q.get(10);
    assertEquals("river delta mountain +constantScore +minShouldMatch=2", constant.text());
    assertEquals(19, constant.line());
    BooleanQuery c = assertInstanceOf(BooleanQuery.class, constant.query());
    assertEquals(2, c.getMinimumNumberShouldMatch());
    assertEquals(3, c.clauses().size());
    for (BooleanClause clause : c.clauses()) {
      assertEquals(BooleanClause.Occur.SHOULD, clause.occur());
      assertInstanceOf(ConstantScoreQuery.class, clause.query());
    }
    TraceQuery bm25 = q.get(11);
    assertEquals("(body:river body:delta body:mountain)~2", bm25.query().toString());
    assertEquals(
        "(ConstantScore(body:river) ConstantScore(body:delta) ConstantScore(body:mountain))~2",
        constant.query().toString());

    // What they match: two of the three terms, and not one alone.
    try (Directory dir = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
        for (String body : List.of("river", "river delta", "delta mountain river", "mountain")) {
          Document d = new Document();
          d.add(new TextField(QueryTrace.FIELD, body, Field.Store.NO));
          w.addDocument(d);
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = new IndexSearcher(reader);
        assertEquals(2, searcher.count(bm25.query()));
        assertEquals(2, searcher.count(constant.query()));
        TopDocs top = searcher.search(constant.query(), 10);
        // Constant scores: one per matching clause, whatever the terms' frequencies.
        assertEquals(3f, top.scoreDocs[0].score);
        assertEquals(2f, top.scoreDocs[1].score);
      }
    }
  }

  @Test
  void aModifierTwiceOrOnASingleTermIsUnparsableAndFatalWhenStrict() throws IOException {
    Path twice =
        Files.writeString(
            tmp.resolve("twice.tasks"),
            "ConstMSM2: river delta +constantScore +constantScore\n"
                + "HighTerm: river\n"
                + "BM25MSM2: river delta +minShouldMatch=99999999999\n");
    QueryTrace lenient = QueryTrace.read(twice, TraceFormat.LUCENEUTIL, analyzer, false);
    assertEquals(Map.of(QueryTrace.REASON_UNPARSABLE, 2), lenient.skipped());
    assertTrue(lenient.warnings().get(0).contains("+constantScore is given twice"));
    assertTrue(
        lenient.warnings().get(1).contains("+minShouldMatch=99999999999 is more clauses"),
        lenient.warnings().get(1));
    BadInputException e =
        assertThrows(
            BadInputException.class,
            () -> QueryTrace.read(twice, TraceFormat.LUCENEUTIL, analyzer, true));
    assertEquals(1, e.line());
  }

  @Test
  void strictMakesAMalformedLineFatalWithFileAndLine() {
    BadInputException e =
        assertThrows(
            BadInputException.class,
            () -> QueryTrace.read(fixture("tasks.txt"), TraceFormat.LUCENEUTIL, analyzer, true));
    assertEquals(16, e.line());
    assertTrue(e.getMessage().contains("tasks.txt:16: expected 'Category: query'"), e.getMessage());
  }

  @Test
  void plainTextIsABagOfAnalyzedWords() throws IOException {
    QueryTrace trace = QueryTrace.read(fixture("plain.txt"), TraceFormat.PLAIN, analyzer, true);
    assertEquals(2, trace.queries().size());
    TraceQuery second = trace.queries().get(1);
    assertEquals(3, second.line());
    assertEquals("plain", second.category());
    assertEquals("body:mountain body:lake body:europ", second.query().toString());
    assertEquals(Map.of(QueryTrace.REASON_NO_TERMS, 1), trace.skipped());
  }

  @Test
  void trecKeepsIdsAndPrioritiesAndDecodesLatin1() throws IOException {
    QueryTrace trace = QueryTrace.read(fixture("trec.txt"), TraceFormat.TREC, analyzer, false);
    List<TraceQuery> q = trace.queries();
    assertEquals(3, q.size());
    assertEquals("1", q.get(0).id());
    assertEquals("trec", q.get(0).category());
    assertEquals("caf\u00e9 society", q.get(1).text());
    assertEquals("20001", q.get(2).id());
    assertEquals("trec-p1", q.get(2).category());
    assertEquals("obama family tree", q.get(2).text());
    assertInstanceOf(BooleanQuery.class, q.get(2).query());
    assertEquals(Map.of(QueryTrace.REASON_MALFORMED, 1), trace.skipped());
    assertTrue(trace.warnings().get(0).contains("trec.txt:4:"));
  }

  @Test
  void naturalQuestionsTakeTheQuestionOnly() throws IOException {
    QueryTrace trace = QueryTrace.read(fixture("nq.txt"), TraceFormat.NQ, analyzer, false);
    assertEquals(3, trace.queries().size());
    // Answers holding a double quote are CSV-quoted, as in the real NQ files.
    assertEquals("name of black man in to kill a mockingbird", trace.queries().get(2).text());
    assertEquals("who sings does he love me with reba", trace.queries().get(0).text());
    assertEquals("nq", trace.queries().get(0).category());
    assertEquals(Map.of(QueryTrace.REASON_MALFORMED, 1), trace.skipped());
    BadInputException e =
        assertThrows(
            BadInputException.class,
            () -> QueryTrace.read(fixture("nq.txt"), TraceFormat.NQ, analyzer, true));
    assertEquals(3, e.line());
  }

  @Test
  void aBinaryFileIsRefusedInEveryFormatAndMode() throws IOException {
    // Bytes as a binary file has them: all 256 values, in a fixed pseudo-random order.
    byte[] bytes = new byte[64 * 1024];
    new SplittableRandom(17).nextBytes(bytes);
    Path binary = Files.write(tmp.resolve("index.bin"), bytes);
    BadInputException detect =
        assertThrows(BadInputException.class, () -> TraceFormat.detect(binary));
    assertTrue(detect.getMessage().startsWith(binary + ":"), detect.getMessage());
    assertTrue(detect.getMessage().contains("this is not a text file"), detect.getMessage());
    for (TraceFormat format : TraceFormat.values()) {
      for (boolean strict : new boolean[] {false, true}) {
        BadInputException e =
            assertThrows(
                BadInputException.class,
                () -> QueryTrace.read(binary, format, analyzer, strict),
                format + (strict ? " strict" : ""));
        assertTrue(e.line() >= 1, e.getMessage());
        assertTrue(e.getMessage().contains(": byte offset "), e.getMessage());
      }
    }
  }

  @Test
  void invalidUtf8InATraceNamesItsLineAndOffset() throws IOException {
    Path plain = tmp.resolve("q.txt");
    Files.write(
        plain, new byte[] {'r', 'i', 'v', 'e', 'r', '\n', 'c', 'a', 'f', (byte) 0xE9, '\n'});
    BadInputException e =
        assertThrows(
            BadInputException.class,
            () -> QueryTrace.read(plain, TraceFormat.PLAIN, analyzer, false));
    assertEquals(
        plain
            + ":2: byte offset 9: the byte 0xE9, which is not UTF-8 text; this is not a text file",
        e.getMessage());
  }

  @Test
  void anEmptyResultIsAnError() throws IOException {
    Path empty = Files.writeString(tmp.resolve("empty.txt"), "\n# nothing\n");
    BadInputException e =
        assertThrows(
            BadInputException.class,
            () -> QueryTrace.read(empty, TraceFormat.PLAIN, analyzer, false));
    assertTrue(e.getMessage().contains("no runnable query"), e.getMessage());
    Path stops = Files.writeString(tmp.resolve("stops.txt"), "the\nand of\n");
    e =
        assertThrows(
            BadInputException.class,
            () -> QueryTrace.read(stops, TraceFormat.PLAIN, analyzer, false));
    assertTrue(e.getMessage().contains(QueryTrace.REASON_NO_TERMS), e.getMessage());
  }

  @Test
  void gzipTracesAreReadAndATruncatedOneIsAClearError() throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 5_000; i++) {
      text.append(i).append(":query number ").append(i).append(" about rivers\n");
    }
    Path gz = tmp.resolve("topics.txt.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(text.toString().getBytes(StandardCharsets.ISO_8859_1));
    }
    assertEquals(TraceFormat.TREC, TraceFormat.detect(gz));
    assertEquals(5_000, QueryTrace.read(gz, TraceFormat.TREC, analyzer, true).queries().size());

    byte[] bytes = Files.readAllBytes(gz);
    Path cut = tmp.resolve("cut.txt.gz");
    Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    BadInputException e =
        assertThrows(
            BadInputException.class, () -> QueryTrace.read(cut, TraceFormat.TREC, analyzer, true));
    assertTrue(e.getMessage().contains("truncated or corrupt gzip"), e.getMessage());
    assertTrue(e.getMessage().contains("cut.txt.gz"), e.getMessage());
  }
}
