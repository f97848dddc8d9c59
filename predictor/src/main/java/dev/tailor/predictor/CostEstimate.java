package dev.tailor.predictor;

import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.TermQuery;

/**
 * Lucene's cost estimate of a rewritten query: the sum over segments of what its scorer suppliers
 * expect to visit ({@link ScorerSupplier#cost()}, without scores); -1 (missing) for a query with
 * other leaves than terms and phrases.
 *
 * <p>The estimate is computed here from the per-segment document frequencies already read, as
 * Lucene's suppliers compute it (a term: its postings; a phrase or a conjunction: its cheapest
 * required part; a disjunction: the sum of its parts, or with a minimum to match the sum of all but
 * the most expensive ones it may skip; a part missing from a segment matches nothing there; tested
 * equal to Lucene's). Asking Lucene's own weight would look every term up again in every segment,
 * and for a multi-term query walk the term dictionary: as much as the other features together, or
 * more than the query's own time budget allows.
 */
final class CostEstimate {

  private CostEstimate() {}

  /**
   * The cost of {@code rewritten} over {@code leaves} segments, where {@code perLeaf[t][leaf]} is
   * the document frequency of {@code terms.get(t)} in segment {@code leaf}; -1 if not computed.
   */
  static long of(Query rewritten, List<Term> terms, long[][] perLeaf, int leaves) {
    long cost = 0;
    for (int leaf = 0; leaf < leaves; leaf++) {
      long c = leafCost(rewritten, terms, perLeaf, leaf);
      if (c < 0) {
        return -1;
      }
      cost += c;
    }
    return cost;
  }

  /** The query's cost in one segment; 0 if it matches nothing there, -1 if not computed here. */
  private static long leafCost(Query q, List<Term> terms, long[][] perLeaf, int leaf) {
    Query query = QueryKind.unwrap(q);
    if (query instanceof TermQuery t) {
      int i = terms.indexOf(t.getTerm());
      return i < 0 ? -1 : perLeaf[i][leaf];
    }
    if (query instanceof PhraseQuery p) {
      long min = Long.MAX_VALUE;
      for (Term t : p.getTerms()) {
        int i = terms.indexOf(t);
        if (i < 0) {
          return -1;
        }
        min = Math.min(min, perLeaf[i][leaf]);
      }
      return min == Long.MAX_VALUE ? 0 : min;
    }
    if (query instanceof BooleanQuery b) {
      long required = Long.MAX_VALUE;
      boolean hasRequired = false;
      List<Long> optional = new ArrayList<>();
      for (BooleanClause c : b.clauses()) {
        if (c.occur() == BooleanClause.Occur.MUST_NOT) {
          continue;
        }
        long sub = leafCost(c.query(), terms, perLeaf, leaf);
        if (sub < 0) {
          return -1;
        }
        if (c.isRequired()) {
          if (sub == 0) {
            return 0; // a required part that matches nothing here: no scorer at all
          }
          hasRequired = true;
          required = Math.min(required, sub);
        } else if (sub > 0) {
          optional.add(sub);
        }
      }
      int msm = b.getMinimumNumberShouldMatch();
      if (optional.size() < msm || (!hasRequired && optional.isEmpty())) {
        return 0;
      }
      if (hasRequired && msm == 0) {
        return required;
      }
      // All but the (msm - 1) most expensive optional parts: each match needs msm of them.
      optional.sort(null);
      long should = 0;
      for (int i = 0; i < optional.size() - Math.max(0, msm - 1); i++) {
        should += optional.get(i);
      }
      return Math.min(required, should);
    }
    return -1;
  }
}
