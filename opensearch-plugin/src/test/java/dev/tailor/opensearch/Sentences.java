package dev.tailor.opensearch;

import java.util.Random;

/**
 * Short made-up sentences for the test index, from a small vocabulary written for these tests:
 * frequent and rare words, so that term, boolean and phrase queries match very different numbers of
 * documents.
 */
final class Sentences {

  private static final String[] SUBJECTS = {
    "the harbour pilot", "a tired baker", "our night train", "the old lighthouse", "a grey heron",
    "the village choir", "a careful surveyor", "the river ferry", "a quiet librarian", "the mill"
  };
  private static final String[] VERBS = {
    "watches", "repairs", "follows", "paints", "counts", "carries", "remembers", "measures"
  };
  private static final String[] OBJECTS = {
    "the morning tide",
    "seven copper lamps",
    "a broken compass",
    "the winter orchard",
    "fresh bread",
    "the northern road",
    "a folded map",
    "the evening bells",
    "wet stones",
    "a lost umbrella",
    "the signal flags",
    "amber honey"
  };
  private static final String[] ENDINGS = {
    "before dawn",
    "in the rain",
    "near the quay",
    "without a word",
    "for the third time",
    "under a pale sky",
    "while the kettle sings",
    "beside the canal"
  };

  private Sentences() {}

  /** One to three sentences from {@code random}. */
  static String text(Random random) {
    StringBuilder out = new StringBuilder();
    int sentences = 1 + random.nextInt(3);
    for (int i = 0; i < sentences; i++) {
      if (i > 0) {
        out.append(' ');
      }
      out.append(pick(random, SUBJECTS))
          .append(' ')
          .append(pick(random, VERBS))
          .append(' ')
          .append(pick(random, OBJECTS));
      if (random.nextInt(3) > 0) {
        out.append(' ').append(pick(random, ENDINGS));
      }
      out.append('.');
    }
    return out.toString();
  }

  private static String pick(Random random, String[] words) {
    return words[random.nextInt(words.length)];
  }
}
