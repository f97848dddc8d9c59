package dev.tailor.predictor;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.BytesRef;

/**
 * The statistics of terms and fields of one reader, read on first use and kept, since the reader
 * never changes.
 *
 * <p>Term statistics are what Kim et al. (WSDM'15, §4) precompute per term offline; here they are
 * computed on first use. Looking a term up costs a seek per segment, which for a few terms in a few
 * segments is most of a prediction's budget; a hit costs a hash lookup. The cache holds at most
 * {@value #CACHED_TERMS} terms and is emptied when full, so that a stream of rare terms cannot grow
 * it without bound.
 *
 * <p>Thread-safe.
 */
final class TermStatistics {

  /** The most terms whose statistics are kept. */
  static final int CACHED_TERMS = 1 << 16;

  private final IndexSearcher searcher;
  private final Map<String, Long> docCounts = new ConcurrentHashMap<>();
  private final Map<Term, long[]> termStats = new ConcurrentHashMap<>();
  private final ThreadLocal<Map<String, TermsEnum[]>> threadEnums =
      ThreadLocal.withInitial(HashMap::new);

  TermStatistics(IndexSearcher searcher) {
    this.searcher = searcher;
  }

  /** The number of segments, the index of the total frequency in {@link #of}'s answer. */
  int leaves() {
    return searcher.getIndexReader().leaves().size();
  }

  /**
   * A term's document frequency in each segment, then its total frequency in the index: from the
   * cache, or read with one seek per segment (IndexReader.docFreq and totalTermFreq would seek
   * twice) and cached.
   */
  long[] of(Term term) throws IOException {
    long[] cached = termStats.get(term);
    if (cached != null) {
      return cached;
    }
    TermsEnum[] enums = enums(term.field());
    long[] stats = new long[enums.length + 1];
    for (int leaf = 0; leaf < enums.length; leaf++) {
      TermsEnum te = enums[leaf];
      if (te != null && te.seekExact(term.bytes())) {
        stats[leaf] = te.docFreq();
        stats[enums.length] += te.totalTermFreq();
      }
    }
    if (termStats.size() >= CACHED_TERMS) {
      termStats.clear();
    }
    // A deep copy of the key: a query's term may share its bytes with something that changes.
    termStats.put(new Term(term.field(), BytesRef.deepCopyOf(term.bytes())), stats);
    return stats;
  }

  /**
   * This thread's terms enums of {@code field}, one per segment (null where the segment lacks the
   * field). A fresh enum per seek would cost as much as the seek; an enum is not thread-safe, so
   * each thread keeps its own, for as long as this instance lives.
   */
  private TermsEnum[] enums(String field) throws IOException {
    Map<String, TermsEnum[]> mine = threadEnums.get();
    TermsEnum[] enums = mine.get(field);
    if (enums == null) {
      List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
      enums = new TermsEnum[leaves.size()];
      for (int i = 0; i < enums.length; i++) {
        Terms terms = leaves.get(i).reader().terms(field);
        enums[i] = terms == null ? null : terms.iterator();
      }
      mine.put(field, enums);
    }
    return enums;
  }

  /** The documents with a value in {@code field}. */
  long docCount(String field) throws IOException {
    Long cached = docCounts.get(field);
    if (cached != null) {
      return cached;
    }
    CollectionStatistics stats = searcher.collectionStatistics(field);
    long count = stats == null ? 0 : stats.docCount();
    docCounts.put(field, count);
    return count;
  }
}
