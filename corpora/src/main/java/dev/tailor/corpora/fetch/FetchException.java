package dev.tailor.corpora.fetch;

import java.io.IOException;

/** A fetch that could not be done: a missing client, a failed download, a file that differs. */
public final class FetchException extends IOException {
  /** A failure with a message that says what to do. */
  public FetchException(String message) {
    super(message);
  }
}
