package dev.tailor.predictor;

import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;

/**
 * A visitor that descends into every clause, whatever its occurrence, as itself: the features count
 * a query's leaves over the whole tree, prohibited clauses included.
 */
abstract class WholeQueryVisitor extends QueryVisitor {

  @Override
  public final QueryVisitor getSubVisitor(BooleanClause.Occur occur, Query parent) {
    return this;
  }
}
