package dev.tailor.predictor;

import java.util.Arrays;
import java.util.function.Supplier;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.MultiPhraseQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.WildcardQuery;
import org.apache.lucene.util.automaton.ByteRunAutomaton;

/**
 * The {@link QueryFeatures.Family#PATTERN} features, from the query as written: the longest
 * pattern, the shortest literal prefix, the wildcards summed, the largest edit distance and the
 * largest phrase slop over the query's clauses; missing ({@code NaN}) where none apply.
 */
final class PatternFeatures {

  private PatternFeatures() {}

  /** Writes the pattern features of {@code query} into {@code out} from index {@code at} on. */
  static void write(Query query, float[] out, int at) {
    Arrays.fill(out, at, at + QueryFeatures.Family.PATTERN.names().size(), Float.NaN);
    query.visit(
        new WholeQueryVisitor() {
          @Override
          public void consumeTerms(Query q, Term... ts) {
            if (q instanceof PhraseQuery p) {
              max(out, at + 4, p.getSlop());
            } else if (q instanceof MultiPhraseQuery p) {
              max(out, at + 4, p.getSlop());
            }
          }

          @Override
          public void consumeTermsMatching(
              Query q, String field, Supplier<ByteRunAutomaton> automaton) {
            switch (q) {
              case FuzzyQuery f -> {
                pattern(out, at, f.getTerm().text(), f.getPrefixLength(), 0);
                max(out, at + 3, f.getMaxEdits());
              }
              case PrefixQuery p ->
                  pattern(out, at, p.getPrefix().text(), p.getPrefix().text().length(), 1);
              case WildcardQuery w -> wildcard(out, at, w.getTerm().text());
              default -> {}
            }
          }
        });
  }

  /** Records a wildcard pattern: its literal prefix ends at its first wildcard. */
  private static void wildcard(float[] out, int at, String text) {
    int literal = 0;
    int wildcards = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == WildcardQuery.WILDCARD_STRING || c == WildcardQuery.WILDCARD_CHAR) {
        wildcards++;
      } else if (wildcards == 0) {
        literal++;
      }
    }
    pattern(out, at, text, literal, wildcards);
  }

  /**
   * Records a pattern: the shortest literal prefix and the longest pattern of the query's patterns,
   * and their wildcards summed.
   */
  private static void pattern(float[] out, int at, String text, int literalPrefix, int wildcards) {
    max(out, at, text.length());
    out[at + 1] = Float.isNaN(out[at + 1]) ? literalPrefix : Math.min(out[at + 1], literalPrefix);
    out[at + 2] = (Float.isNaN(out[at + 2]) ? 0 : out[at + 2]) + wildcards;
  }

  private static void max(float[] out, int at, float value) {
    out[at] = Float.isNaN(out[at]) ? value : Math.max(out[at], value);
  }
}
