package dev.tailor.predictor;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MultiTermQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.automaton.ByteRunAutomaton;

/**
 * The features a query's sequential time is predicted from, computed when it arrives from the query
 * and the index's statistics, before any document is scored: TPC's predictor (Jeon et al.,
 * ASPLOS'16, §3.1), which follows Kim et al. (WSDM'15, §3-4) in learning boosted regression trees
 * over term features (document frequency, IDF) and query features (the number of terms, the query's
 * kind).
 *
 * <p>This class owns the feature definition: the {@linkplain #NAMES names} in order, grouped into
 * {@linkplain Family families}, under one {@linkplain #VERSION version}. A model records the names
 * it was trained on and refuses to run on others, so a change here (a feature added, dropped or
 * computed differently) must change the names or the version.
 *
 * <p>Training and serving compute features through this one class: the trainer from the profile's
 * own index and trace, the online predictor from the searcher's index. Statistics come from the
 * rewritten query (a prefix's expansions, a fuzzy query's terms), the kind and the boolean clauses
 * from the query as written. A statistic of no term (a query whose rewritten form reads no term
 * directly, such as a constant-score wildcard) is missing ({@code NaN}), which the trees route by
 * their learned default.
 *
 * <p>Thread-safe: one instance serves all threads. It searches with its own plain {@link
 * IndexSearcher} over the reader, so that computing features never submits work to a scheduler. An
 * instance is bound to one reader and caches its term statistics; a reopened reader needs a new
 * instance.
 */
public final class QueryFeatures {

  /**
   * The version of the definition, recorded in every model. Names alone would not tell a changed
   * computation under an unchanged name.
   */
  public static final String VERSION = "tailor-query-features-3";

  /** A group of features that is kept or dropped together when training measures what each adds. */
  public enum Family {
    /** The query's size and structure: terms, leaf clauses, boolean clause kinds. */
    SHAPE(
        "terms",
        "clauses",
        "phraseClauses",
        "multiTermClauses",
        "mustClauses",
        "shouldClauses",
        "filterClauses",
        "mustNotClauses",
        "minShouldMatch"),
    /** The query's kind as written, one-hot ({@link QueryKind}). */
    KIND(
        Arrays.stream(QueryKind.values())
            .map(k -> "kind." + k.name().toLowerCase(Locale.ROOT))
            .toList()),
    /**
     * Each term's document frequency, summarized as ln(1 + x) of min, max, sum and mean, and of the
     * second and third largest (missing without as many terms): a disjunction's pruning depends on
     * how its frequent terms compare, which the extremes alone do not show.
     */
    DOC_FREQ(
        "docFreq.min",
        "docFreq.max",
        "docFreq.sum",
        "docFreq.mean",
        "docFreq.second",
        "docFreq.third"),
    /** Each term's total frequency, summarized as ln(1 + x) of min, max, sum and mean. */
    TOTAL_TERM_FREQ(
        "totalTermFreq.min", "totalTermFreq.max", "totalTermFreq.sum", "totalTermFreq.mean"),
    /** Each term's BM25 inverse document frequency: min, max, sum, mean. */
    IDF("idf.min", "idf.max", "idf.sum", "idf.mean"),
    /**
     * Lucene's cost estimate: ln(1 + the sum over segments of the rewritten query's {@link
     * ScorerSupplier#cost()}), the documents its iterators expect to visit; missing for a query
     * with other leaves than terms and phrases.
     */
    COST("cost"),
    /**
     * What the query as written says about work its statistics cannot show: a pattern's length and
     * literal prefix (how much of the term dictionary a prefix, wildcard or fuzzy query walks), its
     * wildcards, a fuzzy query's edit distance, a phrase's slop. Missing for a query without
     * patterns or phrases.
     */
    PATTERN(
        "pattern.length",
        "pattern.literalPrefix",
        "pattern.wildcards",
        "pattern.maxEdits",
        "phrase.maxSlop");

    private final List<String> names;

    Family(String... names) {
      this(List.of(names));
    }

    Family(List<String> names) {
      this.names = List.copyOf(names);
    }

    /** The names of this family's features, in order. */
    public List<String> names() {
      return names;
    }

    /** The family's name as reports print it: {@code shape}, {@code docFreq}, ... */
    public String label() {
      return switch (this) {
        case SHAPE -> "shape";
        case KIND -> "kind";
        case DOC_FREQ -> "docFreq";
        case TOTAL_TERM_FREQ -> "totalTermFreq";
        case IDF -> "idf";
        case COST -> "cost";
        case PATTERN -> "pattern";
      };
    }
  }

  /** Every feature's name, in the order of a feature vector: the families' names in turn. */
  public static final List<String> NAMES =
      Arrays.stream(Family.values()).flatMap(f -> f.names().stream()).toList();

  // Offsets of each family in the vector.
  private static final int SHAPE = 0;
  private static final int KIND = SHAPE + Family.SHAPE.names().size();
  private static final int DOC_FREQ = KIND + Family.KIND.names().size();
  private static final int TTF = DOC_FREQ + Family.DOC_FREQ.names().size();
  private static final int IDF = TTF + Family.TOTAL_TERM_FREQ.names().size();
  private static final int COST = IDF + Family.IDF.names().size();
  private static final int PATTERN = COST + Family.COST.names().size();

  private final IndexSearcher searcher;
  private final TermStatistics statistics;

  /** Features of queries on {@code reader}. */
  public QueryFeatures(IndexReader reader) {
    // No executor: TermStates and rewrites then run on the caller's thread, never as tasks.
    this.searcher = new IndexSearcher(reader);
    this.statistics = new TermStatistics(searcher);
  }

  /** The number of features, the length of a feature vector. */
  public static int count() {
    return NAMES.size();
  }

  /** The index of each feature of {@code family} in a feature vector. */
  public static int[] indices(Family family) {
    int start = NAMES.indexOf(family.names().get(0));
    int[] out = new int[family.names().size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = start + i;
    }
    return out;
  }

  /** The reader features are computed on. */
  public IndexReader reader() {
    return searcher.getIndexReader();
  }

  /**
   * The features of {@code query}, in the order of {@link #NAMES}.
   *
   * @throws IOException if the index cannot be read
   */
  public float[] extract(Query query) throws IOException {
    float[] out = new float[count()];
    extract(query, out);
    return out;
  }

  /**
   * Writes the features of {@code query} into {@code out}, whose length is {@link #count()}.
   *
   * @throws IOException if the index cannot be read
   */
  public void extract(Query query, float[] out) throws IOException {
    Arrays.fill(out, 0f);
    out[KIND + QueryKind.of(query).ordinal()] = 1f;
    if (QueryKind.unwrap(query) instanceof BooleanQuery b) {
      for (BooleanClause c : b.clauses()) {
        switch (c.occur()) {
          case MUST -> out[SHAPE + 4]++;
          case SHOULD -> out[SHAPE + 5]++;
          case FILTER -> out[SHAPE + 6]++;
          case MUST_NOT -> out[SHAPE + 7]++;
        }
      }
      out[SHAPE + 8] = b.getMinimumNumberShouldMatch();
    }
    Query rewritten =
        isRewritten(query) || expandsOnRewrite(query) ? query : searcher.rewrite(query);
    Walk walk = new Walk();
    rewritten.visit(walk);
    out[SHAPE] = walk.terms.size();
    out[SHAPE + 1] = walk.clauses;
    out[SHAPE + 2] = walk.phrases;
    out[SHAPE + 3] = walk.multiTerm;
    List<Term> terms = new ArrayList<>(walk.terms);
    long[][] perLeaf = new long[terms.size()][];
    termStatistics(terms, perLeaf, out);
    long cost = CostEstimate.of(rewritten, terms, perLeaf, statistics.leaves());
    out[COST] = cost < 0 ? Float.NaN : (float) Math.log1p(cost);
    PatternFeatures.write(query, out, PATTERN);
  }

  /**
   * Whether rewriting the query would enumerate terms: a multi-term query (a fuzzy query by
   * default) whose rewrite method builds a query of its matching terms, rather than a
   * constant-score wrapper that matches lazily. Such a rewrite walks the term dictionary as the
   * search itself will, at up to three quarters of a fuzzy query's time; the query is then taken as
   * written, and its {@linkplain Family#PATTERN pattern} stands for the terms it would expand to.
   */
  static boolean expandsOnRewrite(Query query) {
    boolean[] expands = {false};
    query.visit(
        new WholeQueryVisitor() {
          @Override
          public void consumeTermsMatching(
              Query q, String field, Supplier<ByteRunAutomaton> automaton) {
            if (q instanceof MultiTermQuery m
                && m.getRewriteMethod() != MultiTermQuery.CONSTANT_SCORE_BLENDED_REWRITE
                && m.getRewriteMethod() != MultiTermQuery.CONSTANT_SCORE_REWRITE) {
              expands[0] = true;
            }
          }
        });
    return expands[0];
  }

  /**
   * Whether rewriting would return the query itself: a term, or a disjunction or conjunction of two
   * or more distinct terms (the common shape of a typed query). Lucene's rewrite of a boolean query
   * checks and copies its clauses and costs as much as all the features together, so for these
   * shapes, where it changes nothing (tested), it is skipped.
   */
  static boolean isRewritten(Query query) {
    if (query instanceof TermQuery) {
      return true;
    }
    if (!(query instanceof BooleanQuery b)
        || b.getMinimumNumberShouldMatch() != 0
        || b.clauses().size() < 2) {
      return false;
    }
    BooleanClause.Occur occur = b.clauses().get(0).occur();
    if (occur != BooleanClause.Occur.SHOULD && occur != BooleanClause.Occur.MUST) {
      return false;
    }
    Set<Term> seen = new HashSet<>();
    for (BooleanClause c : b.clauses()) {
      if (c.occur() != occur || !(c.query() instanceof TermQuery t) || !seen.add(t.getTerm())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Document and total term frequencies and IDFs of the terms, summarized; sets {@code perLeaf[t]}
   * to term t's {@linkplain TermStatistics#of statistics}, for the cost estimate.
   */
  private void termStatistics(List<Term> terms, long[][] perLeaf, float[] out) throws IOException {
    if (terms.isEmpty()) {
      Arrays.fill(out, DOC_FREQ, COST, Float.NaN);
      return;
    }
    long dfMin = Long.MAX_VALUE, dfMax = 0, dfSum = 0, second = 0, third = 0;
    long ttfMin = Long.MAX_VALUE, ttfMax = 0, ttfSum = 0;
    double idfMin = Double.MAX_VALUE, idfMax = 0, idfSum = 0;
    int leaves = statistics.leaves();
    for (int t = 0; t < terms.size(); t++) {
      Term term = terms.get(t);
      long[] stats = statistics.of(term);
      perLeaf[t] = stats;
      long df = 0;
      for (int leaf = 0; leaf < leaves; leaf++) {
        df += stats[leaf];
      }
      long ttf = stats[leaves];
      double idf = idf(df, statistics.docCount(term.field()));
      dfMin = Math.min(dfMin, df);
      if (df > dfMax) {
        third = second;
        second = dfMax;
        dfMax = df;
      } else if (df > second) {
        third = second;
        second = df;
      } else if (df > third) {
        third = df;
      }
      dfSum += df;
      ttfMin = Math.min(ttfMin, ttf);
      ttfMax = Math.max(ttfMax, ttf);
      ttfSum += ttf;
      idfMin = Math.min(idfMin, idf);
      idfMax = Math.max(idfMax, idf);
      idfSum += idf;
    }
    int n = terms.size();
    summary(out, DOC_FREQ, dfMin, dfMax, dfSum, n);
    out[DOC_FREQ + 4] = n < 2 ? Float.NaN : (float) Math.log1p(second);
    out[DOC_FREQ + 5] = n < 3 ? Float.NaN : (float) Math.log1p(third);
    summary(out, TTF, ttfMin, ttfMax, ttfSum, n);
    out[IDF] = (float) idfMin;
    out[IDF + 1] = (float) idfMax;
    out[IDF + 2] = (float) idfSum;
    out[IDF + 3] = (float) (idfSum / n);
  }

  private static void summary(float[] out, int at, long min, long max, long sum, int n) {
    out[at] = (float) Math.log1p(min);
    out[at + 1] = (float) Math.log1p(max);
    out[at + 2] = (float) Math.log1p(sum);
    out[at + 3] = (float) Math.log1p((double) sum / n);
  }

  /**
   * BM25's inverse document frequency, as Lucene's {@code BM25Similarity.idf} computes it: ln(1 +
   * (N - df + 0.5) / (df + 0.5)), N the documents that have the field.
   */
  static double idf(long docFreq, long docCount) {
    return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
  }

  /** One walk of the rewritten query: its distinct terms and its leaf clauses by kind. */
  private static final class Walk extends WholeQueryVisitor {
    final Set<Term> terms = new LinkedHashSet<>();
    int clauses;
    int phrases;
    int multiTerm;

    @Override
    public void consumeTerms(Query query, Term... ts) {
      clauses++;
      if (ts.length > 1) {
        phrases++;
      }
      terms.addAll(Arrays.asList(ts));
    }

    @Override
    public void consumeTermsMatching(
        Query query, String field, Supplier<ByteRunAutomaton> automaton) {
      clauses++;
      multiTerm++;
    }

    @Override
    public void visitLeaf(Query query) {
      clauses++;
    }
  }

  /** The features of one query as {@code name=value} pairs, for messages and tests. */
  static String describe(float[] features) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < features.length; i++) {
      parts.add(NAMES.get(i) + "=" + features[i]);
    }
    return String.join(", ", parts);
  }
}
