package dev.tailor.corpora;

import java.util.Objects;

/**
 * One document of a corpus, as every source yields it and the indexer consumes it: the fields of
 * luceneutil's line docs.
 *
 * @param title the title, never null (may be empty)
 * @param date the date as the source wrote it, never null (may be empty); not parsed
 * @param body the plain text, never null
 * @param label an optional label (a topic or a category), or null
 */
public record CorpusDoc(String title, String date, String body, String label) {

  /** Checks that the mandatory fields are present. */
  public CorpusDoc {
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(date, "date");
    Objects.requireNonNull(body, "body");
  }
}
