package dev.tailor.corpora.trace;

import dev.tailor.core.io.AtomicFiles;
import dev.tailor.corpora.BadInputException;
import dev.tailor.corpora.index.IndexManifest;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * Writes a luceneutil-style task file for an index: terms sampled from the index's {@code body}
 * field by document-frequency band, combined into luceneutil's standard categories (HighTerm,
 * MedTerm, LowTerm, AndHighHigh, AndHighMed, AndHighLow, OrHighHigh, OrHighMed, OrHighLow,
 * HighPhrase, MedPhrase, HighSloppyPhrase, Prefix3, Wildcard, Fuzzy1, Fuzzy2), in the task format
 * {@link QueryTrace} reads, with each term's frequency as the comment, as luceneutil writes them.
 *
 * <p>Bands are fractions of the document count, as luceneutil's are on its Wikipedia index: high
 * terms are in at least {@value #HIGH} of the documents, medium ones in {@value #MEDIUM} to {@value
 * #HIGH}, low ones in {@value #LOW} to {@value #MEDIUM} (and at least two documents). On an index
 * too small for a band the bands become the thirds of the terms by frequency.
 *
 * <p>Terms are the index's own (stemmed) terms of three or more letters. Phrases pair two terms of
 * a band, so unlike luceneutil's, which come from real text, many match few documents. The same
 * index and seed give the same file.
 */
public final class TraceGenerator {

  static final double HIGH = 0.03;
  static final double MEDIUM = 0.003;
  static final double LOW = 0.0003;
  private static final int RESERVOIR = 20_000;
  private static final Pattern READABLE = Pattern.compile("[a-z]{3,}");

  private TraceGenerator() {}

  /**
   * Writes {@code perCategory} tasks of every category to {@code out}, atomically.
   *
   * @return the number of tasks written
   * @throws BadInputException if the index has too few distinct terms to sample
   */
  public static int write(Path indexDir, Path out, long seed, int perCategory) throws IOException {
    IndexManifest manifest = IndexManifest.read(indexDir);
    SplittableRandom random = new SplittableRandom(seed);
    List<Band> bands = bands(indexDir, random);
    for (Band b : bands) {
      if (b.terms.isEmpty()) {
        throw new BadInputException(
            indexDir, "too few distinct terms in field body to sample a " + b.name + " band");
      }
    }
    Band high = bands.get(0);
    Band med = bands.get(1);
    Band low = bands.get(2);
    Map<String, Generator> categories = new LinkedHashMap<>();
    categories.put("HighTerm", r -> high.pick(r).text());
    categories.put("MedTerm", r -> med.pick(r).text());
    categories.put("LowTerm", r -> low.pick(r).text());
    categories.put("AndHighHigh", r -> and(high.pick(r), high.pick(r)));
    categories.put("AndHighMed", r -> and(high.pick(r), med.pick(r)));
    categories.put("AndHighLow", r -> and(high.pick(r), low.pick(r)));
    categories.put("OrHighHigh", r -> or(high.pick(r), high.pick(r)));
    categories.put("OrHighMed", r -> or(high.pick(r), med.pick(r)));
    categories.put("OrHighLow", r -> or(high.pick(r), low.pick(r)));
    categories.put("HighPhrase", r -> phrase(high.pick(r), high.pick(r), ""));
    categories.put("MedPhrase", r -> phrase(med.pick(r), med.pick(r), ""));
    categories.put("HighSloppyPhrase", r -> phrase(high.pick(r), high.pick(r), "~4"));
    categories.put(
        "Prefix3",
        r -> {
          Term t = (r.nextBoolean() ? high : med).pick(r);
          return t.term.substring(0, 3) + "* # from " + t.text();
        });
    categories.put(
        "Wildcard",
        r -> {
          Term t = med.pick(r);
          return t.term.substring(0, 2)
              + "*"
              + t.term.charAt(t.term.length() - 1)
              + " # from "
              + t.text();
        });
    categories.put("Fuzzy1", r -> fuzzy(med.pick(r), 1));
    categories.put("Fuzzy2", r -> fuzzy(med.pickLonger(r, 5), 2));

    AtomicFiles.write(
        out,
        stream -> {
          Writer w = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8));
          w.write("# luceneutil-style tasks made by tailor trace gen (seed " + seed + ")\n");
          w.write(
              "# from index " + indexDir.toAbsolutePath() + ": " + manifest.sourceLabel() + "\n");
          w.write(
              "# bands by document frequency: high >= "
                  + high.minDf
                  + ", medium >= "
                  + med.minDf
                  + ", low >= "
                  + low.minDf
                  + " of "
                  + manifest.docCount()
                  + " docs\n");
          for (Map.Entry<String, Generator> c : categories.entrySet()) {
            for (int i = 0; i < perCategory; i++) {
              w.write(c.getKey() + ": " + c.getValue().next(random) + "\n");
            }
          }
          w.flush();
        });
    int n = categories.size() * perCategory;
    return n;
  }

  private static String and(Term a, Term b) {
    return "+" + a.term + " +" + b.term + " # freq=" + a.df + " freq=" + b.df;
  }

  private static String or(Term a, Term b) {
    return a.term + " " + b.term + " # freq=" + a.df + " freq=" + b.df;
  }

  private static String phrase(Term a, Term b, String slop) {
    return "\"" + a.term + " " + b.term + "\"" + slop + " # freq=" + a.df + " freq=" + b.df;
  }

  private static String fuzzy(Term t, int edits) {
    return t.term + "~" + edits + " # freq=" + t.df;
  }

  /** Reads the terms of {@code body} once, keeping a seeded sample of each band. */
  private static List<Band> bands(Path indexDir, SplittableRandom random) throws IOException {
    try (FSDirectory dir = FSDirectory.open(indexDir);
        DirectoryReader reader = DirectoryReader.open(dir)) {
      int docs = reader.numDocs();
      Terms terms = MultiTerms.getTerms(reader, QueryTrace.FIELD);
      if (terms == null) {
        throw new BadInputException(indexDir, "the index has no field body");
      }
      List<Band> byFraction =
          List.of(
              new Band("high", Math.max(2, (long) Math.ceil(HIGH * docs)), Long.MAX_VALUE),
              new Band("medium", Math.max(2, (long) Math.ceil(MEDIUM * docs)), 0),
              new Band("low", Math.max(2, (long) Math.ceil(LOW * docs)), 0));
      byFraction.get(1).maxDf = byFraction.get(0).minDf - 1;
      byFraction.get(2).maxDf = byFraction.get(1).minDf - 1;
      List<Term> all = new ArrayList<>();
      TermsEnum te = terms.iterator();
      for (BytesRef b = te.next(); b != null; b = te.next()) {
        String s = b.utf8ToString();
        if (!READABLE.matcher(s).matches()) {
          continue;
        }
        Term t = new Term(s, te.docFreq());
        for (Band band : byFraction) {
          band.offer(t, random);
        }
        if (all.size() < RESERVOIR * 3) {
          all.add(t);
        }
      }
      if (byFraction.stream().noneMatch(b -> b.terms.isEmpty()) || all.size() < 3) {
        return byFraction;
      }
      // A small index: thirds by frequency instead.
      all.sort((x, y) -> Long.compare(y.df, x.df));
      int third = all.size() / 3;
      List<Band> thirds =
          List.of(new Band("high", 0, 0), new Band("medium", 0, 0), new Band("low", 0, 0));
      for (int i = 0; i < 3; i++) {
        Band band = thirds.get(i);
        band.terms.addAll(all.subList(i * third, i == 2 ? all.size() : (i + 1) * third));
        band.minDf = band.terms.stream().mapToLong(t -> t.df).min().orElse(0);
      }
      return thirds;
    }
  }

  /** A term and its document frequency. */
  private record Term(String term, long df) {
    String text() {
      return term + " # freq=" + df;
    }
  }

  /** Makes the query text of one task. */
  private interface Generator {
    String next(SplittableRandom random);
  }

  /** A frequency band and a reservoir sample of its terms. */
  private static final class Band {
    final String name;
    long minDf;
    long maxDf;
    final List<Term> terms = new ArrayList<>();
    long seen;

    Band(String name, long minDf, long maxDf) {
      this.name = name;
      this.minDf = minDf;
      this.maxDf = maxDf;
    }

    void offer(Term t, SplittableRandom random) {
      if (t.df < minDf || t.df > maxDf) {
        return;
      }
      seen++;
      if (terms.size() < RESERVOIR) {
        terms.add(t);
      } else {
        long slot = random.nextLong(seen);
        if (slot < RESERVOIR) {
          terms.set((int) slot, t);
        }
      }
    }

    Term pick(SplittableRandom random) {
      return terms.get(random.nextInt(terms.size()));
    }

    Term pickLonger(SplittableRandom random, int minLength) {
      for (int tries = 0; tries < 100; tries++) {
        Term t = pick(random);
        if (t.term.length() >= minLength) {
          return t;
        }
      }
      return pick(random);
    }
  }
}
