package dev.tailor.corpora.trace;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.Query;

/**
 * The two luceneutil task modifiers that change how a boolean query matches and scores, which
 * Tailor runs as luceneutil means them (its {@code ConstMSM2} and {@code BM25MSM2} tasks): {@code
 * +minShouldMatch=N}, a match needs at least N of the query's optional clauses ({@link
 * BooleanQuery#getMinimumNumberShouldMatch()}); {@code +constantScore}, each clause scores a
 * constant instead of BM25 ({@link ConstantScoreQuery} around every clause). A modifier is a word
 * of its own in the task's text; the rest is the query, in QueryParser syntax.
 *
 * @param query the task's text without the modifiers
 * @param minShouldMatch N, or 0 if not given
 * @param constantScore whether every clause scores a constant
 */
record TaskModifiers(String query, int minShouldMatch, boolean constantScore) {

  private static final Pattern MIN_SHOULD_MATCH =
      Pattern.compile("(?:^|\\s)\\+minShouldMatch=(\\d+)(?=\\s|$)");
  private static final Pattern CONSTANT_SCORE =
      Pattern.compile("(?:^|\\s)\\+constantScore(?=\\s|$)");

  /**
   * The modifiers of a task's text, and the query left once they are taken out.
   *
   * @throws IllegalArgumentException if a modifier is given twice, or N is not a whole number of
   *     clauses
   */
  static TaskModifiers of(String text) {
    String rest = text;
    int msm = 0;
    Matcher m = MIN_SHOULD_MATCH.matcher(rest);
    if (m.find()) {
      try {
        msm = Integer.parseInt(m.group(1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "+minShouldMatch=" + m.group(1) + " is more clauses than a query may have", e);
      }
      rest = cut(rest, m);
      if (MIN_SHOULD_MATCH.matcher(rest).find()) {
        throw new IllegalArgumentException("+minShouldMatch is given twice");
      }
    }
    boolean constant = false;
    Matcher c = CONSTANT_SCORE.matcher(rest);
    if (c.find()) {
      constant = true;
      rest = cut(rest, c);
      if (CONSTANT_SCORE.matcher(rest).find()) {
        throw new IllegalArgumentException("+constantScore is given twice");
      }
    }
    return new TaskModifiers(rest, msm, constant);
  }

  /**
   * The parsed query with the modifiers applied: the same clauses, each wrapped in a {@link
   * ConstantScoreQuery} under {@code +constantScore}, with at least {@code minShouldMatch} optional
   * ones to match. Without a modifier, the query itself.
   *
   * @throws IllegalArgumentException if a modifier is given and the query is not a boolean query
   */
  Query apply(Query parsed) {
    if (minShouldMatch == 0 && !constantScore) {
      return parsed;
    }
    if (!(parsed instanceof BooleanQuery b)) {
      throw new IllegalArgumentException(
          "+minShouldMatch and +constantScore apply to a boolean query of several clauses, but '"
              + query
              + "' is a "
              + parsed.getClass().getSimpleName());
    }
    BooleanQuery.Builder out = new BooleanQuery.Builder();
    out.setMinimumNumberShouldMatch(minShouldMatch);
    for (BooleanClause clause : b.clauses()) {
      Query q = constantScore ? new ConstantScoreQuery(clause.query()) : clause.query();
      out.add(q, clause.occur());
    }
    return out.build();
  }

  private static String cut(String text, Matcher m) {
    return (text.substring(0, m.start()) + " " + text.substring(m.end())).strip();
  }
}
