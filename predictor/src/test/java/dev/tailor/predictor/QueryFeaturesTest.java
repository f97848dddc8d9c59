package dev.tailor.predictor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class QueryFeaturesTest {

  // Two segments: a b c | a b | a || b d d. docFreq a=3 b=3 c=1 d=1; totalTermFreq d=2.
  private static ByteBuffersDirectory dir;
  private static DirectoryReader reader;
  private static QueryFeatures features;

  @BeforeAll
  static void index() throws IOException {
    dir = new ByteBuffersDirectory();
    try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new WhitespaceAnalyzer()))) {
      for (String body : List.of("a b c", "a b", "a")) {
        w.addDocument(doc(body));
      }
      w.commit();
      w.addDocument(doc("b d d"));
    }
    reader = DirectoryReader.open(dir);
    features = new QueryFeatures(reader);
  }

  private static Document doc(String body) {
    Document d = new Document();
    d.add(new TextField("body", body, Field.Store.NO));
    return d;
  }

  @AfterAll
  static void close() throws IOException {
    reader.close();
    dir.close();
  }

  private static float get(float[] f, String name) {
    return f[QueryFeatures.NAMES.indexOf(name)];
  }

  private static double log1p(double x) {
    return Math.log1p(x);
  }

  @Test
  void namesAreUniqueAndFamiliesCoverThemInOrder() {
    assertEquals(QueryFeatures.NAMES.size(), QueryFeatures.NAMES.stream().distinct().count());
    int at = 0;
    for (QueryFeatures.Family f : QueryFeatures.Family.values()) {
      for (int i : QueryFeatures.indices(f)) {
        assertEquals(at++, i);
      }
    }
    assertEquals(QueryFeatures.count(), at);
  }

  @Test
  void disjunctionOfTwoTermsMatchesHandComputedStatistics() throws IOException {
    BooleanQuery q =
        new BooleanQuery.Builder()
            .add(new TermQuery(new Term("body", "a")), Occur.SHOULD)
            .add(new TermQuery(new Term("body", "c")), Occur.SHOULD)
            .build();
    float[] f = features.extract(q);
    assertEquals(2, get(f, "terms"));
    assertEquals(2, get(f, "clauses"));
    assertEquals(2, get(f, "shouldClauses"));
    assertEquals(0, get(f, "mustClauses"));
    assertEquals(1, get(f, "kind.boolean"));
    assertEquals(0, get(f, "kind.term"));
    assertEquals((float) log1p(1), get(f, "docFreq.min"));
    assertEquals((float) log1p(3), get(f, "docFreq.max"));
    assertEquals((float) log1p(4), get(f, "docFreq.sum"));
    assertEquals((float) log1p(2), get(f, "docFreq.mean"));
    assertEquals((float) log1p(1), get(f, "docFreq.second"));
    assertTrue(Float.isNaN(get(f, "docFreq.third")), "two terms have no third");
    assertEquals((float) log1p(4), get(f, "totalTermFreq.sum"));
    double idfA = Math.log(1 + (4 - 3 + 0.5) / (3 + 0.5));
    double idfC = Math.log(1 + (4 - 1 + 0.5) / (1 + 0.5));
    assertEquals((float) idfA, get(f, "idf.min"), 1e-6);
    assertEquals((float) idfC, get(f, "idf.max"), 1e-6);
    assertEquals((float) (idfA + idfC), get(f, "idf.sum"), 1e-6);
    // A disjunction's cost is the sum of its terms' postings: 3 + 1.
    assertEquals((float) log1p(4), get(f, "cost"));
  }

  private static TermQuery t(String text) {
    return new TermQuery(new Term("body", text));
  }

  @Test
  void costIsLucenesOwnEstimate() throws IOException {
    IndexSearcher searcher = new IndexSearcher(reader);
    List<org.apache.lucene.search.Query> queries =
        List.of(
            t("a"),
            t("absent"),
            new BooleanQuery.Builder().add(t("a"), Occur.SHOULD).add(t("c"), Occur.SHOULD).build(),
            new BooleanQuery.Builder().add(t("a"), Occur.MUST).add(t("c"), Occur.SHOULD).build(),
            // a and d never share a segment: no scorer in either.
            new BooleanQuery.Builder().add(t("a"), Occur.MUST).add(t("d"), Occur.MUST).build(),
            new BooleanQuery.Builder().add(t("b"), Occur.MUST).add(t("d"), Occur.FILTER).build(),
            new BooleanQuery.Builder()
                .add(t("a"), Occur.SHOULD)
                .add(t("b"), Occur.SHOULD)
                .add(t("c"), Occur.SHOULD)
                .setMinimumNumberShouldMatch(2)
                .build(),
            new BooleanQuery.Builder()
                .add(t("b"), Occur.SHOULD)
                .add(t("a"), Occur.MUST_NOT)
                .build(),
            new BooleanQuery.Builder()
                .add(t("d"), Occur.SHOULD)
                .add(
                    new BooleanQuery.Builder()
                        .add(t("a"), Occur.MUST)
                        .add(t("b"), Occur.MUST)
                        .build(),
                    Occur.SHOULD)
                .build(),
            new PhraseQuery("body", "a", "b"),
            new PhraseQuery("body", "b", "d"));
    for (org.apache.lucene.search.Query q : queries) {
      org.apache.lucene.search.Weight w =
          searcher.createWeight(
              searcher.rewrite(q), org.apache.lucene.search.ScoreMode.COMPLETE_NO_SCORES, 1f);
      long lucene = 0;
      for (org.apache.lucene.index.LeafReaderContext leaf : reader.leaves()) {
        org.apache.lucene.search.ScorerSupplier s = w.scorerSupplier(leaf);
        lucene += s == null ? 0 : s.cost();
      }
      assertEquals((float) log1p(lucene), get(features.extract(q), "cost"), q.toString());
    }
  }

  @Test
  void theShapesWhoseRewriteIsSkippedAreThoseLuceneLeavesAsTheyAre() throws IOException {
    IndexSearcher searcher = new IndexSearcher(reader);
    List<org.apache.lucene.search.Query> skipped =
        List.of(
            t("a"),
            t("absent"),
            new BooleanQuery.Builder().add(t("a"), Occur.SHOULD).add(t("c"), Occur.SHOULD).build(),
            new BooleanQuery.Builder()
                .add(t("a"), Occur.SHOULD)
                .add(t("absent"), Occur.SHOULD)
                .add(t("d"), Occur.SHOULD)
                .build(),
            new BooleanQuery.Builder().add(t("a"), Occur.MUST).add(t("b"), Occur.MUST).build());
    for (org.apache.lucene.search.Query q : skipped) {
      assertTrue(QueryFeatures.isRewritten(q), q.toString());
      assertTrue(searcher.rewrite(q) == q, q + " is rewritten by Lucene");
    }
    List<org.apache.lucene.search.Query> rewritten =
        List.of(
            new BooleanQuery.Builder().add(t("a"), Occur.SHOULD).build(),
            new BooleanQuery.Builder().add(t("a"), Occur.SHOULD).add(t("a"), Occur.SHOULD).build(),
            new BooleanQuery.Builder().add(t("a"), Occur.MUST).add(t("b"), Occur.SHOULD).build(),
            new PrefixQuery(new Term("body", "a")));
    for (org.apache.lucene.search.Query q : rewritten) {
      assertTrue(!QueryFeatures.isRewritten(q), q.toString());
    }
  }

  @Test
  void idfIsLucenesBm25Idf() throws IOException {
    IndexSearcher searcher = new IndexSearcher(reader);
    CollectionStatistics coll = searcher.collectionStatistics("body");
    for (String t : List.of("a", "c", "d")) {
      Term term = new Term("body", t);
      TermStatistics ts =
          new TermStatistics(new BytesRef(t), reader.docFreq(term), reader.totalTermFreq(term));
      float lucene = new BM25Similarity().idfExplain(coll, ts).getValue().floatValue();
      assertEquals(lucene, (float) QueryFeatures.idf(reader.docFreq(term), 4), 1e-6);
    }
  }

  @Test
  void termQueryCountsTotalTermFreqAcrossSegments() throws IOException {
    float[] f = features.extract(new TermQuery(new Term("body", "d")));
    assertEquals(1, get(f, "kind.term"));
    assertEquals(1, get(f, "terms"));
    assertEquals((float) log1p(1), get(f, "docFreq.max"));
    assertEquals((float) log1p(2), get(f, "totalTermFreq.max"));
    assertEquals((float) log1p(1), get(f, "cost"));
  }

  @Test
  void phraseIsOneClauseOfTwoTerms() throws IOException {
    float[] f = features.extract(new PhraseQuery("body", "b", "d"));
    assertEquals(1, get(f, "kind.phrase"));
    assertEquals(2, get(f, "terms"));
    assertEquals(1, get(f, "clauses"));
    assertEquals(1, get(f, "phraseClauses"));
  }

  @Test
  void prefixKeepsItsKindAndHasNoDirectTermStatistics() throws IOException {
    float[] f = features.extract(new PrefixQuery(new Term("body", "a")));
    assertEquals(1, get(f, "kind.prefix"));
    assertEquals(1, get(f, "multiTermClauses"));
    assertEquals(0, get(f, "terms"));
    assertTrue(Float.isNaN(get(f, "docFreq.min")));
    assertTrue(Float.isNaN(get(f, "cost")), "no cost without walking the term dictionary");
  }

  @Test
  void patternsAndSlopAreReadFromTheQueryAsWritten() throws IOException {
    float[] wildcard =
        features.extract(new org.apache.lucene.search.WildcardQuery(new Term("body", "ab*c?")));
    assertEquals(5, get(wildcard, "pattern.length"));
    assertEquals(2, get(wildcard, "pattern.literalPrefix"));
    assertEquals(2, get(wildcard, "pattern.wildcards"));
    assertTrue(Float.isNaN(get(wildcard, "pattern.maxEdits")));
    float[] fuzzy = features.extract(new FuzzyQuery(new Term("body", "abc"), 2, 1));
    assertEquals(3, get(fuzzy, "pattern.length"));
    assertEquals(1, get(fuzzy, "pattern.literalPrefix"));
    assertEquals(2, get(fuzzy, "pattern.maxEdits"));
    float[] prefix = features.extract(new PrefixQuery(new Term("body", "ab")));
    assertEquals(2, get(prefix, "pattern.literalPrefix"));
    assertEquals(1, get(prefix, "pattern.wildcards"));
    PhraseQuery sloppy = new PhraseQuery(3, "body", "a", "b");
    assertEquals(3, get(features.extract(sloppy), "phrase.maxSlop"));
    float[] term = features.extract(t("a"));
    for (int i : QueryFeatures.indices(QueryFeatures.Family.PATTERN)) {
      assertTrue(Float.isNaN(term[i]), QueryFeatures.NAMES.get(i));
    }
  }

  @Test
  void fuzzyIsTakenAsWrittenNotExpanded() throws IOException {
    FuzzyQuery fuzzy = new FuzzyQuery(new Term("body", "a"), 1);
    assertTrue(QueryFeatures.expandsOnRewrite(fuzzy));
    assertTrue(!QueryFeatures.expandsOnRewrite(new PrefixQuery(new Term("body", "a"))));
    float[] f = features.extract(fuzzy);
    assertEquals(1, get(f, "kind.fuzzy"));
    assertEquals(0, get(f, "terms"), "its expansions are not enumerated");
    assertEquals(1, get(f, "multiTermClauses"));
    assertEquals(1, get(f, "pattern.maxEdits"));
    BooleanQuery mixed =
        new BooleanQuery.Builder().add(t("b"), Occur.SHOULD).add(fuzzy, Occur.SHOULD).build();
    float[] m = features.extract(mixed);
    assertEquals(1, get(m, "terms"), "the plain term still counts");
    assertEquals((float) log1p(3), get(m, "docFreq.max"));
  }

  @Test
  void mustNotAndFilterAreCounted() throws IOException {
    BooleanQuery q =
        new BooleanQuery.Builder()
            .add(new TermQuery(new Term("body", "a")), Occur.MUST)
            .add(new TermQuery(new Term("body", "b")), Occur.FILTER)
            .add(new TermQuery(new Term("body", "c")), Occur.MUST_NOT)
            .build();
    float[] f = features.extract(q);
    assertEquals(1, get(f, "mustClauses"));
    assertEquals(1, get(f, "filterClauses"));
    assertEquals(1, get(f, "mustNotClauses"));
  }
}
