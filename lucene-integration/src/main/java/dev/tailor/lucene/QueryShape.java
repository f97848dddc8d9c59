package dev.tailor.lucene;

import dev.tailor.core.Internal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.util.automaton.ByteRunAutomaton;

/**
 * The shape of a query, from one walk of its tree: its leaf clauses (a term, a phrase's terms, an
 * automaton, any other leaf) and the distinct terms it reads. The server limits complexity by it;
 * the profiler records it as the predictor's features.
 *
 * @param clauses the leaf clauses
 * @param terms the distinct terms, in the order the walk met them
 */
@Internal
public record QueryShape(int clauses, List<Term> terms) {

  /** Walks a query (rewrite it first to see what multi-term queries expand to). */
  public static QueryShape of(Query query) {
    Set<Term> terms = new LinkedHashSet<>();
    int[] clauses = {0};
    query.visit(
        new QueryVisitor() {
          @Override
          public QueryVisitor getSubVisitor(BooleanClause.Occur occur, Query parent) {
            return this;
          }

          @Override
          public void consumeTerms(Query q, Term... ts) {
            clauses[0]++;
            terms.addAll(Arrays.asList(ts));
          }

          @Override
          public void consumeTermsMatching(
              Query q, String field, Supplier<ByteRunAutomaton> automaton) {
            clauses[0]++;
          }

          @Override
          public void visitLeaf(Query q) {
            clauses[0]++;
          }
        });
    return new QueryShape(clauses[0], new ArrayList<>(terms));
  }
}
