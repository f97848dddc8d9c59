package dev.tailor.corpora.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.corpora.BadInputException;
import dev.tailor.corpora.Corpora;
import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.CorpusDoc;
import dev.tailor.corpora.linedocs.CorpusMetadata;
import dev.tailor.corpora.linedocs.LineDocWriter;
import dev.tailor.corpora.trace.QueryTrace;
import dev.tailor.corpora.trace.TraceFormat;
import dev.tailor.corpora.wiki.Redirects;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexerTest {

  @TempDir Path tmp;

  private Path lineDocs(int n) throws IOException {
    Path file = tmp.resolve("docs.txt");
    try (LineDocWriter w = new LineDocWriter(file)) {
      for (int i = 0; i < n; i++) {
        String body = (i % 2 == 0 ? "river delta " : "mountain lake ") + "document number " + i;
        w.write(new CorpusDoc("Title " + i, "2024-01-0" + (i % 9 + 1), body, null));
      }
      w.commit();
    }
    new CorpusMetadata(
            "synthetic, trained on test-fixture (seed 1)", true, "test-fixture", n, Map.of())
        .writeFor(file);
    return file;
  }

  private static Corpus corpus(Path file) throws IOException {
    return Corpora.file(file, null, true, Redirects.SKIP, s -> {});
  }

  @Test
  void roundTripThroughTheManifest() throws IOException {
    Path docs = lineDocs(1_003);
    Path out = tmp.resolve("index");
    long[] last = new long[2];
    IndexManifest built =
        Indexer.build(
            corpus(docs),
            out,
            new Indexer.Options(4, false, IndexAnalyzer.ENGLISH, 16),
            (done, total) -> {
              last[0] = done;
              last[1] = total;
            });
    assertEquals(1_003, last[0]);
    assertEquals(1_003, last[1]);

    IndexManifest read = IndexManifest.read(out);
    assertEquals(1_003, read.docCount());
    assertEquals("synthetic, trained on test-fixture (seed 1)", read.sourceLabel());
    assertEquals(docs.toString(), read.source());
    assertEquals("english", read.analyzerName());
    assertEquals(built.segments(), read.segments());
    assertEquals(List.of(251, 251, 251, 250), read.segments().stream().map(s -> s.docs()).toList());
    assertTrue(read.segments().stream().allMatch(s -> s.bytes() > 0));

    // Queries parsed with the manifest's analyzer find what the corpus holds.
    Path trace = Files.writeString(tmp.resolve("q.txt"), "rivers\nmountains lakes\n");
    QueryTrace queries = QueryTrace.read(trace, TraceFormat.PLAIN, read.analyzer(), true);
    try (FSDirectory dir = FSDirectory.open(out);
        DirectoryReader reader = DirectoryReader.open(dir)) {
      List<Integer> sizes =
          reader.leaves().stream().map(LeafReaderContext::reader).map(r -> r.maxDoc()).toList();
      assertEquals(List.of(251, 251, 251, 250), sizes);
      IndexSearcher searcher = new IndexSearcher(reader);
      assertEquals(502, searcher.count(queries.queries().get(0).query()));
      assertEquals(501, searcher.count(queries.queries().get(1).query()));
      assertEquals("0", searcher.storedFields().document(0).get("id"));
      assertEquals("Title 0", searcher.storedFields().document(0).get("title"));
    }
  }

  @Test
  void theLayoutIsTheSameWhateverTheBufferSize() throws IOException {
    Path docs = lineDocs(2_000);
    // One thread and a tiny buffer: flushes inside every band, which the forced merge undoes.
    IndexManifest small =
        Indexer.build(
            corpus(docs),
            tmp.resolve("a"),
            new Indexer.Options(3, false, IndexAnalyzer.ENGLISH, 0.1, 1),
            (d, t) -> {});
    IndexManifest large =
        Indexer.build(
            corpus(docs),
            tmp.resolve("b"),
            new Indexer.Options(3, false, IndexAnalyzer.ENGLISH, 64, 1),
            (d, t) -> {});
    List<Integer> expected = List.of(667, 667, 666);
    assertEquals(expected, small.segments().stream().map(IndexManifest.Segment::docs).toList());
    assertEquals(expected, large.segments().stream().map(IndexManifest.Segment::docs).toList());
    // Merged segments get fresh names: the small buffer did split the bands.
    assertEquals(List.of("_0", "_1", "_2"), names(large));
    assertFalse(names(small).contains("_1"), names(small).toString());
  }

  private static List<String> names(IndexManifest m) {
    return m.segments().stream().map(IndexManifest.Segment::name).toList();
  }

  @Test
  void parallelAndSequentialBuildsGiveTheSameIndex() throws IOException {
    Path docs = lineDocs(2_500);
    Path gz = tmp.resolve("docs.txt.gz");
    try (var in = Files.newInputStream(docs);
        var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
      in.transferTo(out);
    }
    Corpus plain = corpus(docs);
    assertTrue(plain.seeksCheaply());
    assertFalse(corpus(gz).seeksCheaply());
    long[] last = new long[1];
    IndexManifest parallel =
        Indexer.build(
            plain,
            tmp.resolve("parallel"),
            new Indexer.Options(5, false, IndexAnalyzer.ENGLISH, 16, 3),
            (d, t) -> last[0] = d);
    assertEquals(2_500, last[0]);
    Indexer.build(
        plain,
        tmp.resolve("one-thread"),
        new Indexer.Options(5, false, IndexAnalyzer.ENGLISH, 16, 1),
        (d, t) -> {});
    Indexer.build(
        corpus(gz),
        tmp.resolve("compressed"),
        new Indexer.Options(5, false, IndexAnalyzer.ENGLISH, 16, 3),
        (d, t) -> {});
    List<List<String>> expected = titlesBySegment(tmp.resolve("one-thread"));
    assertEquals(5, expected.size());
    assertEquals(500, expected.get(0).size());
    assertEquals("Title 500", expected.get(1).get(0));
    assertEquals(expected, titlesBySegment(tmp.resolve("parallel")));
    assertEquals(expected, titlesBySegment(tmp.resolve("compressed")));
    assertEquals(List.of("_0", "_1", "_2", "_3", "_4"), names(parallel));
  }

  private static List<List<String>> titlesBySegment(Path index) throws IOException {
    List<List<String>> result = new java.util.ArrayList<>();
    try (FSDirectory dir = FSDirectory.open(index);
        DirectoryReader reader = DirectoryReader.open(dir)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        List<String> titles = new java.util.ArrayList<>();
        var stored = leaf.reader().storedFields();
        for (int d = 0; d < leaf.reader().maxDoc(); d++) {
          var doc = stored.document(d);
          assertEquals(Integer.toString(leaf.docBase + d), doc.get("id"));
          titles.add(doc.get("title"));
        }
        result.add(titles);
      }
    }
    return result;
  }

  @Test
  void anExistingIndexIsReplacedOnlyWithForceAndNothingIsLeftBeside() throws IOException {
    Path docs = lineDocs(10);
    Path out = tmp.resolve("index");
    Indexer.Options once = new Indexer.Options(2, false, IndexAnalyzer.ENGLISH, 16);
    Indexer.build(corpus(docs), out, once, (d, t) -> {});
    assertThrows(
        FileAlreadyExistsException.class,
        () -> Indexer.build(corpus(docs), out, once, (d, t) -> {}));
    Indexer.build(
        corpus(docs), out, new Indexer.Options(1, true, IndexAnalyzer.STANDARD, 16), (d, t) -> {});
    IndexManifest m = IndexManifest.read(out);
    assertEquals("standard", m.analyzerName());
    assertEquals(1, m.segments().size());
    try (Stream<Path> files = Files.list(tmp)) {
      assertFalse(files.anyMatch(p -> p.getFileName().toString().startsWith(".index")));
    }
  }

  @Test
  void anEmptyCorpusIsAnErrorAndLeavesNoIndex() throws IOException {
    Path empty = tmp.resolve("empty.txt");
    try (LineDocWriter w = new LineDocWriter(empty)) {
      w.commit();
    }
    Path out = tmp.resolve("index");
    BadInputException e =
        assertThrows(
            BadInputException.class,
            () ->
                Indexer.build(
                    corpus(empty),
                    out,
                    new Indexer.Options(2, false, IndexAnalyzer.ENGLISH, 16),
                    (d, t) -> {}));
    assertTrue(e.getMessage().contains("no document"), e.getMessage());
    assertFalse(Files.exists(out));
  }

  @Test
  void aMissingOrInvalidManifestIsAClearError() throws IOException {
    BadInputException missing =
        assertThrows(BadInputException.class, () -> IndexManifest.read(tmp));
    assertTrue(missing.getMessage().contains("tailor-index.json is missing"), missing.getMessage());
    Files.writeString(
        tmp.resolve(IndexManifest.FILE_NAME), "{\"formatVersion\": 1, \"analyzer\": 7}");
    Path file = tmp.resolve(IndexManifest.FILE_NAME);
    IOException invalid = assertThrows(IOException.class, () -> IndexManifest.read(tmp));
    assertEquals(file + ": analyzer: expected a string", invalid.getMessage());
    Files.writeString(file, "{not json");
    invalid = assertThrows(IOException.class, () -> IndexManifest.read(tmp));
    assertTrue(
        invalid.getMessage().startsWith(file + ": line 1, column 2: "), invalid.getMessage());
    assertFalse(invalid.getMessage().contains("[Source:"), invalid.getMessage());
  }
}
