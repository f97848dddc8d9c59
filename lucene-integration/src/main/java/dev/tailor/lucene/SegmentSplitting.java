package dev.tailor.lucene;

import java.util.Set;
import java.util.function.Supplier;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.util.automaton.ByteRunAutomaton;

/**
 * Which queries may be searched in doc-id windows smaller than a segment. Most may: every bulk
 * scorer takes a doc-id range. Two kinds of Lucene's own may not, and are searched a whole segment
 * per window:
 *
 * <ul>
 *   <li>block joins ({@code ToParentBlockJoinQuery}, {@code ToChildBlockJoinQuery}, {@code
 *       ParentChildrenBlockJoinQuery}, lucene-join): a parent and its children form a block of
 *       adjacent documents that one scorer must see whole, and a window boundary may cut a block;
 *   <li>drill-sideways ({@code DrillSidewaysQuery}, lucene-facet): its scorer scores only the whole
 *       range of a segment at once and rejects any other.
 * </ul>
 *
 * <p>They are found by class name anywhere in the rewritten query, so that Tailor needs neither
 * module. Lucene's own tests search these kinds only with whole segments per slice for the same
 * reasons (its block-grouping tests align intra-segment slices to blocks; its drill-sideways tests
 * use inter-segment concurrency without a timeout).
 */
final class SegmentSplitting {

  private static final Set<String> WHOLE_SEGMENTS =
      Set.of(
          "org.apache.lucene.search.join.ToParentBlockJoinQuery",
          "org.apache.lucene.search.join.ToChildBlockJoinQuery",
          "org.apache.lucene.search.join.ParentChildrenBlockJoinQuery",
          "org.apache.lucene.facet.DrillSidewaysQuery");

  private SegmentSplitting() {}

  /** Whether the rewritten query must be searched a whole segment per window. */
  static boolean needsWholeSegments(Query query) {
    if (needsWholeSegmentsItself(query)) {
      return true;
    }
    Finder finder = new Finder();
    query.visit(finder);
    return finder.found;
  }

  private static boolean needsWholeSegmentsItself(Query query) {
    return WHOLE_SEGMENTS.contains(query.getClass().getName());
  }

  /** Walks a query tree and notes any query of a whole-segment kind. */
  private static final class Finder extends QueryVisitor {
    boolean found;

    @Override
    public QueryVisitor getSubVisitor(BooleanClause.Occur occur, Query parent) {
      found |= needsWholeSegmentsItself(parent);
      return this;
    }

    @Override
    public void visitLeaf(Query query) {
      found |= needsWholeSegmentsItself(query);
    }

    @Override
    public void consumeTerms(Query query, Term... terms) {
      found |= needsWholeSegmentsItself(query);
    }

    @Override
    public void consumeTermsMatching(
        Query query, String field, Supplier<ByteRunAutomaton> automaton) {
      found |= needsWholeSegmentsItself(query);
    }
  }
}
