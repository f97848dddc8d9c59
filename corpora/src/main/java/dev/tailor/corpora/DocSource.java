package dev.tailor.corpora;

import java.io.Closeable;
import java.io.IOException;

/**
 * A stream of documents read from one corpus file, one at a time, so that a corpus of any size is
 * read in constant memory. Not thread-safe.
 */
public interface DocSource extends Closeable {

  /**
   * The next document, or null at the end.
   *
   * @throws BadInputException if the input is malformed and the source is strict, or truncated
   */
  CorpusDoc next() throws IOException;
}
