package dev.tailor.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.Query;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;

/**
 * A small multi-segment index for tests, made from a seeded Zipfian vocabulary with frequent
 * collocations, so that terms of every frequency band, phrases, prefixes and near-misses for fuzzy
 * queries all occur. Segments have unequal sizes, as real indexes do.
 */
public final class TestIndex implements AutoCloseable {

  public static final Analyzer ANALYZER = new EnglishAnalyzer();
  private static final String[] SYLLABLES = {
    "ka", "lo", "mi", "ner", "tu", "sa", "vel", "dro", "pim", "qua", "ro", "zen", "bi", "cor",
    "fal", "gu", "hes", "jor"
  };

  public final Directory directory;
  public final DirectoryReader reader;
  public final List<String> vocabulary;

  private TestIndex(Directory directory, List<String> vocabulary) throws IOException {
    this.directory = directory;
    this.reader = DirectoryReader.open(directory);
    this.vocabulary = vocabulary;
  }

  /** Builds an index of {@code docs} documents in segments of unequal sizes. */
  public static TestIndex build(int docs, long seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    List<String> vocabulary = vocabulary(1500, random);
    Directory dir = new ByteBuffersDirectory();
    IndexWriterConfig config =
        new IndexWriterConfig(ANALYZER).setMergePolicy(NoMergePolicy.INSTANCE);
    int[] segmentSizes = {docs / 3, docs / 5, docs / 7, docs / 11, docs / 13, docs / 17};
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      int id = 0;
      for (int s = 0; s <= segmentSizes.length; s++) {
        int size = s < segmentSizes.length ? segmentSizes[s] : docs - id;
        for (int i = 0; i < size && id < docs; i++, id++) {
          writer.addDocument(document(id, vocabulary, random));
        }
        writer.commit(); // one segment per batch: NoMergePolicy keeps them apart
      }
    }
    return new TestIndex(dir, vocabulary);
  }

  private static List<String> vocabulary(int size, SplittableRandom random) {
    List<String> words = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    while (words.size() < size) {
      int n = 2 + random.nextInt(3);
      StringBuilder w = new StringBuilder();
      for (int i = 0; i < n; i++) {
        w.append(SYLLABLES[random.nextInt(SYLLABLES.length)]);
      }
      if (seen.add(w.toString())) {
        words.add(w.toString());
      }
    }
    return words;
  }

  /** A Zipfian rank: low ranks are frequent. */
  public static int zipf(SplittableRandom random, int size) {
    double u = random.nextDouble();
    return (int) Math.min(size - 1, Math.floor(Math.pow(size + 1, u)) - 1);
  }

  private static Document document(int id, List<String> vocabulary, SplittableRandom random) {
    int length = 10 + random.nextInt(random.nextInt(10) == 0 ? 600 : 120);
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < length; i++) {
      int rank = zipf(random, vocabulary.size());
      body.append(vocabulary.get(rank)).append(' ');
      if (random.nextInt(4) == 0) {
        // A collocation: the next rank often follows, so phrases match.
        body.append(vocabulary.get((rank + 1) % vocabulary.size())).append(' ');
      }
    }
    Document doc = new Document();
    doc.add(new StringField("id", Integer.toString(id), Field.Store.YES));
    doc.add(new TextField("body", body.toString(), Field.Store.NO));
    doc.add(new NumericDocValuesField("date", random.nextLong(1_000_000)));
    return doc;
  }

  /** A term query for a vocabulary word, analyzed (stemmed) as the index was. */
  Query term(int rank) {
    try {
      return new QueryParser("body", ANALYZER).parse(vocabulary.get(rank));
    } catch (ParseException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() throws IOException {
    reader.close();
    directory.close();
  }
}
