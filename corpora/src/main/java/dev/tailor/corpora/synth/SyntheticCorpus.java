package dev.tailor.corpora.synth;

import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.CorpusDoc;
import dev.tailor.corpora.linedocs.CorpusMetadata;
import dev.tailor.corpora.linedocs.LineDocWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * The seeded scale-up generator: learns a {@link BigramModel} from real text, then writes any
 * number of documents as line docs, one at a time, so that millions of documents never sit in
 * memory. The same source, seed and settings always give the same bytes.
 *
 * <p>Each document's length is the sum of {@code lengthMultiplier} lengths drawn from the training
 * documents, so that a multiplier of 4 over lead sections gives documents the size of full articles
 * with a realistic spread. Its words follow the learnt bigram transitions, restarting from the word
 * frequencies with probability {@value #RESTART} so that runs do not lock into loops. Its title is
 * two to four frequent words, its date a day in 2001-2020.
 *
 * <p>Generated text is not Wikipedia: its metadata says "synthetic" and names the training source,
 * and the indexer's manifest repeats that label.
 */
public final class SyntheticCorpus {

  static final double RESTART = 0.1;
  private static final LocalDate FIRST_DAY = LocalDate.of(2001, 1, 1);
  private static final int DAYS = 20 * 365;

  private final BigramModel model;
  private final String trainedOn;

  private SyntheticCorpus(BigramModel model, String trainedOn) {
    this.model = model;
    this.trainedOn = trainedOn;
  }

  /**
   * Learns from a real corpus.
   *
   * @param trainedOn the source's name, repeated in every label
   */
  public static SyntheticCorpus train(Corpus source, String trainedOn) throws IOException {
    return new SyntheticCorpus(BigramModel.train(source), trainedOn);
  }

  /** The number of distinct words learnt. */
  public int vocabularySize() {
    return model.vocabularySize();
  }

  /** The label of output made with this seed, e.g. for a report. */
  public String label(long seed, int lengthMultiplier) {
    return "synthetic text (bigram model trained on "
        + trainedOn
        + ", seed "
        + seed
        + ", length x"
        + lengthMultiplier
        + "); not real documents";
  }

  /**
   * Writes {@code docs} documents to {@code out} as line docs (gzip if it ends in {@code .gz}),
   * atomically, with the metadata beside it.
   *
   * @param progress hears the number of documents written, every 1,000
   * @return the metadata written
   */
  public CorpusMetadata write(
      Path out, long docs, long seed, int lengthMultiplier, LongConsumer progress)
      throws IOException {
    if (docs < 1) {
      throw new IllegalArgumentException("docs must be at least 1, got " + docs);
    }
    if (lengthMultiplier < 1) {
      throw new IllegalArgumentException(
          "lengthMultiplier must be at least 1, got " + lengthMultiplier);
    }
    SplittableRandom random = new SplittableRandom(seed);
    StringBuilder body = new StringBuilder(1 << 14);
    StringBuilder title = new StringBuilder(64);
    try (LineDocWriter writer = new LineDocWriter(out)) {
      for (long i = 0; i < docs; i++) {
        writer.write(document(random, lengthMultiplier, title, body));
        if ((i + 1) % 1_000 == 0) {
          progress.accept(i + 1);
        }
      }
      writer.commit();
    }
    progress.accept(docs);
    Map<String, Object> generator = new LinkedHashMap<>();
    generator.put("kind", "bigram");
    generator.put("seed", seed);
    generator.put("lengthMultiplier", lengthMultiplier);
    generator.put("restartProbability", RESTART);
    generator.put("vocabulary", model.vocabularySize());
    generator.put("trainingDocs", model.trainingDocs());
    generator.put("trainingTokens", model.tokens);
    CorpusMetadata meta =
        new CorpusMetadata(label(seed, lengthMultiplier), true, trainedOn, docs, generator);
    meta.writeFor(out);
    return meta;
  }

  private CorpusDoc document(
      SplittableRandom random, int multiplier, StringBuilder title, StringBuilder body) {
    int length = 0;
    for (int k = 0; k < multiplier; k++) {
      length += model.length(random);
    }
    body.setLength(0);
    int w = model.unigram(random);
    body.append(model.words[w]);
    for (int k = 1; k < length; k++) {
      w = random.nextDouble() < RESTART ? model.unigram(random) : model.after(w, random);
      body.append(' ').append(model.words[w]);
    }
    title.setLength(0);
    int titleWords = 2 + random.nextInt(3);
    for (int k = 0; k < titleWords; k++) {
      if (k > 0) {
        title.append(' ');
      }
      title.append(model.words[model.unigram(random)]);
    }
    String date = FIRST_DAY.plusDays(random.nextInt(DAYS)).toString();
    return new CorpusDoc(title.toString(), date, body.toString(), null);
  }
}
