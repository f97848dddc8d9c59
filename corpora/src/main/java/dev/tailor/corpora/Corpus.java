package dev.tailor.corpora;

import java.io.IOException;

/** A corpus that can be read, from the start, as often as needed. */
public interface Corpus {

  /** Where the corpus comes from: a file path or a corpus name. */
  String source();

  /**
   * What the text is, to repeat in every report that uses it: for generated text this says
   * "synthetic" and names the source it was trained on.
   */
  String label();

  /** A new stream of the corpus's documents, from the first. */
  DocSource open() throws IOException;

  /**
   * A stream of the corpus's documents from document {@code first} (counted from 0) on; by default
   * reads and drops the documents before it.
   */
  default DocSource openAt(long first) throws IOException {
    DocSource docs = open();
    for (long i = 0; i < first; i++) {
      if (docs.next() == null) {
        break;
      }
    }
    return docs;
  }

  /**
   * Whether {@link #openAt} starts without reading the documents before {@code first}, once {@link
   * #count} has been called; then the indexer reads the corpus in parallel.
   */
  default boolean seeksCheaply() {
    return false;
  }

  /** The number of documents; by default reads them all. */
  default long count() throws IOException {
    long n = 0;
    try (DocSource docs = open()) {
      while (docs.next() != null) {
        n++;
      }
    }
    return n;
  }
}
