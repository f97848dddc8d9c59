package dev.tailor.predictor;

import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.MultiPhraseQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PointRangeQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.search.WildcardQuery;

/**
 * The kind of a query as the user wrote it, before rewriting: a prefix query and a disjunction of
 * its expansions cost differently, yet look alike once rewritten.
 */
public enum QueryKind {
  /** A single term. */
  TERM,
  /** A boolean combination of clauses. */
  BOOLEAN,
  /** An exact or sloppy phrase, or a multi-phrase. */
  PHRASE,
  /** A prefix ({@code foo*}). */
  PREFIX,
  /** A wildcard pattern other than a plain prefix. */
  WILDCARD,
  /** An edit-distance match ({@code foo~2}). */
  FUZZY,
  /** A term or point range. */
  RANGE,
  /** Anything else. */
  OTHER;

  /**
   * The kind of {@code query}, looking through boosts and constant-score wrappers, which change
   * scores but not the work.
   */
  public static QueryKind of(Query query) {
    Query q = unwrap(query);
    return switch (q) {
      case TermQuery t -> TERM;
      case BooleanQuery b -> BOOLEAN;
      case PhraseQuery p -> PHRASE;
      case MultiPhraseQuery p -> PHRASE;
      // PrefixQuery extends AutomatonQuery, as WildcardQuery does: match the narrower first.
      case PrefixQuery p -> PREFIX;
      case WildcardQuery w -> WILDCARD;
      case FuzzyQuery f -> FUZZY;
      case TermRangeQuery r -> RANGE;
      case PointRangeQuery r -> RANGE;
      default -> OTHER;
    };
  }

  /** {@code query} without the boost and constant-score wrappers around it. */
  static Query unwrap(Query query) {
    Query q = query;
    while (true) {
      if (q instanceof BoostQuery b) {
        q = b.getQuery();
      } else if (q instanceof ConstantScoreQuery c) {
        q = c.getQuery();
      } else {
        return q;
      }
    }
  }
}
