package dev.tailor.lucene;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;

/**
 * Matches every document, calling a hook for each one it visits: tests make it slow (to reach a
 * deadline), make it fail in one segment, or count what it visited.
 */
final class HookedQuery extends Query {

  /** What happens at each visited document. */
  @FunctionalInterface
  interface Hook {
    void visit(LeafReaderContext leaf, int doc) throws IOException;
  }

  final AtomicLong visited = new AtomicLong();
  private final Hook hook;

  HookedQuery(Hook hook) {
    this.hook = hook;
  }

  @Override
  public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
    return new ConstantScoreWeight(this, boost) {
      @Override
      public ScorerSupplier scorerSupplier(LeafReaderContext context) {
        DocIdSetIterator all = DocIdSetIterator.all(context.reader().maxDoc());
        DocIdSetIterator hooked =
            new DocIdSetIterator() {
              @Override
              public int docID() {
                return all.docID();
              }

              @Override
              public int nextDoc() throws IOException {
                return visit(all.nextDoc());
              }

              @Override
              public int advance(int target) throws IOException {
                return visit(all.advance(target));
              }

              private int visit(int doc) throws IOException {
                if (doc != NO_MORE_DOCS) {
                  visited.incrementAndGet();
                  hook.visit(context, doc);
                }
                return doc;
              }

              @Override
              public long cost() {
                return all.cost();
              }
            };
        return new DefaultScorerSupplier(new ConstantScoreScorer(score(), scoreMode, hooked));
      }

      @Override
      public boolean isCacheable(LeafReaderContext ctx) {
        return false;
      }
    };
  }

  @Override
  public void visit(QueryVisitor visitor) {
    visitor.visitLeaf(this);
  }

  @Override
  public String toString(String field) {
    return "HookedQuery";
  }

  @Override
  public boolean equals(Object other) {
    return this == other;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(this);
  }
}
