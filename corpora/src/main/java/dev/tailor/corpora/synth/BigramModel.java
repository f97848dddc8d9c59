package dev.tailor.corpora.synth;

import dev.tailor.corpora.BadInputException;
import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.CorpusDoc;
import dev.tailor.corpora.DocSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the generator learns from real text: the words with their frequencies, the bigram
 * transitions between them, and the document lengths in words. Sampling is by binary search over
 * cumulative counts, so a sample costs O(log n) and the model is immutable once trained.
 *
 * <p>Memory is proportional to the distinct words and bigrams of the training text (for the
 * Wikipedia summaries, about 100K words and 900K bigrams), never to the output.
 */
final class BigramModel {

  /** Words: letters and digits, with inner apostrophes, hyphens and dots ("don't", "U.S."). */
  private static final Pattern WORD =
      Pattern.compile("[\\p{L}\\p{N}]+(?:['\u2019.\\-][\\p{L}\\p{N}]+)*");

  final String[] words;
  private final long[] unigramCumulative;
  private final int[] rowStart;
  private final int[] next;
  private final long[] nextCumulative;
  private final int[] lengths;
  final long tokens;

  private BigramModel(
      String[] words,
      long[] unigramCumulative,
      int[] rowStart,
      int[] next,
      long[] nextCumulative,
      int[] lengths,
      long tokens) {
    this.words = words;
    this.unigramCumulative = unigramCumulative;
    this.rowStart = rowStart;
    this.next = next;
    this.nextCumulative = nextCumulative;
    this.lengths = lengths;
    this.tokens = tokens;
  }

  /** Learns from every document of a corpus, in order, so the model is the same on every run. */
  static BigramModel train(Corpus corpus) throws IOException {
    Map<String, Integer> ids = new HashMap<>();
    List<String> words = new ArrayList<>();
    long[] counts = new long[1024];
    Map<Long, Integer> bigrams = new HashMap<>();
    int[] lengths = new int[1024];
    int docs = 0;
    long tokens = 0;
    try (DocSource source = corpus.open()) {
      for (CorpusDoc doc = source.next(); doc != null; doc = source.next()) {
        Matcher m = WORD.matcher(doc.body());
        int prev = -1;
        int length = 0;
        while (m.find()) {
          String w = m.group();
          Integer id = ids.get(w);
          if (id == null) {
            id = words.size();
            ids.put(w, id);
            words.add(w);
            if (id == counts.length) {
              counts = Arrays.copyOf(counts, counts.length * 2);
            }
          }
          counts[id]++;
          if (prev >= 0) {
            bigrams.merge(((long) prev << 32) | id, 1, Integer::sum);
          }
          prev = id;
          length++;
        }
        if (length > 0) {
          if (docs == lengths.length) {
            lengths = Arrays.copyOf(lengths, docs * 2);
          }
          lengths[docs++] = length;
          tokens += length;
        }
      }
    }
    if (docs == 0) {
      throw new BadInputException(
          Path.of(corpus.source()), "no words to learn from: the corpus has no text");
    }
    int v = words.size();
    long[] unigram = new long[v];
    long sum = 0;
    for (int i = 0; i < v; i++) {
      sum += counts[i];
      unigram[i] = sum;
    }
    // Bigram rows in (prev, next) order: sorting the packed keys gives exactly that.
    long[] keys = bigrams.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
    int[] rowStart = new int[v + 1];
    int[] next = new int[keys.length];
    long[] cumulative = new long[keys.length];
    int row = 0;
    long rowSum = 0;
    for (int i = 0; i < keys.length; i++) {
      int prev = (int) (keys[i] >>> 32);
      while (row <= prev) {
        rowStart[row++] = i;
        rowSum = 0;
      }
      next[i] = (int) keys[i];
      rowSum += bigrams.get(keys[i]);
      cumulative[i] = rowSum;
    }
    while (row <= v) {
      rowStart[row++] = keys.length;
    }
    return new BigramModel(
        words.toArray(String[]::new),
        unigram,
        rowStart,
        next,
        cumulative,
        Arrays.copyOf(lengths, docs),
        tokens);
  }

  int vocabularySize() {
    return words.length;
  }

  int trainingDocs() {
    return lengths.length;
  }

  /** A word drawn by its frequency. */
  int unigram(SplittableRandom random) {
    long total = unigramCumulative[unigramCumulative.length - 1];
    return search(unigramCumulative, 0, unigramCumulative.length, random.nextLong(total));
  }

  /** A word drawn from the words that followed {@code prev}, or by frequency if none did. */
  int after(int prev, SplittableRandom random) {
    int from = rowStart[prev];
    int to = rowStart[prev + 1];
    if (from == to) {
      return unigram(random);
    }
    long total = nextCumulative[to - 1];
    return next[search(nextCumulative, from, to, random.nextLong(total))];
  }

  /** A training document's length in words. */
  int length(SplittableRandom random) {
    return lengths[random.nextInt(lengths.length)];
  }

  /** The first index in [from, to) whose cumulative count exceeds {@code target}. */
  private static int search(long[] cumulative, int from, int to, long target) {
    int lo = from;
    int hi = to - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cumulative[mid] > target) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }
}
