package dev.tailor.lucene;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.Query;

/**
 * Queries of every type the trace formats produce (luceneutil's categories: terms by frequency
 * band, conjunctions, disjunctions, phrases, sloppy phrases, prefixes, wildcards, fuzzy), parsed on
 * {@code body} with the index's analyzer as the trace readers do.
 */
public final class TestQueries {

  /** A query with its category. */
  public record Named(String category, String text, Query query) {}

  private TestQueries() {}

  public static List<Named> generate(TestIndex index, int perCategory, long seed)
      throws ParseException {
    SplittableRandom random = new SplittableRandom(seed);
    List<String> v = index.vocabulary;
    QueryParser parser = new QueryParser("body", TestIndex.ANALYZER);
    List<Named> out = new ArrayList<>();
    for (int i = 0; i < perCategory; i++) {
      String high = v.get(random.nextInt(20));
      String high2 = v.get(random.nextInt(20));
      String med = v.get(50 + random.nextInt(150));
      String low = v.get(500 + random.nextInt(900));
      String any = v.get(TestIndex.zipf(random, 300));
      int r = random.nextInt(100);
      add(out, parser, "HighTerm", high);
      add(out, parser, "MedTerm", med);
      add(out, parser, "LowTerm", low);
      add(out, parser, "AndHighHigh", "+" + high + " +" + high2);
      add(out, parser, "AndHighMed", "+" + high + " +" + med);
      add(out, parser, "OrHighHigh", high + " " + high2);
      add(out, parser, "OrHighMed", high + " " + med);
      add(out, parser, "Phrase", "\"" + v.get(r) + " " + v.get(r + 1) + "\"");
      add(out, parser, "SloppyPhrase", "\"" + v.get(r) + " " + v.get(r + 2) + "\"~4");
      add(out, parser, "Prefix3", any.substring(0, 3) + "*");
      add(out, parser, "Wildcard", any.substring(0, 2) + "?" + any.substring(3, 4) + "*");
      add(out, parser, "Fuzzy1", typo(any, random) + "~1");
      add(out, parser, "Fuzzy2", typo(typo(any, random), random) + "~2");
    }
    return out;
  }

  private static String typo(String word, SplittableRandom random) {
    char[] c = word.toCharArray();
    c[1 + random.nextInt(c.length - 1)] = (char) ('a' + random.nextInt(26));
    return new String(c);
  }

  private static void add(List<Named> out, QueryParser parser, String category, String text)
      throws ParseException {
    out.add(new Named(category, text, parser.parse(text)));
  }
}
