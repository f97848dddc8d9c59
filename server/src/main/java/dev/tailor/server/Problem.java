package dev.tailor.server;

/**
 * A request the server answers with an error status and a message Tailor wrote: never an
 * exception's own text, which may carry internals or echo input unbounded. Checked, so that every
 * handler that can refuse a request says so.
 */
final class Problem extends Exception {

  /** The longest piece of client input quoted back in a message. */
  static final int QUOTE_LIMIT = 64;

  private final int status;

  /**
   * @param status the HTTP status
   * @param message what went wrong and what was expected, written for the client
   */
  Problem(int status, String message) {
    super(message, null, false, false); // control flow: no stack trace, no suppression
    this.status = status;
  }

  /** A failure of the server's own, whose detail only the log has. */
  static Problem internal() {
    return new Problem(500, "internal error: the server failed; its log says why");
  }

  /** The HTTP status. */
  int status() {
    return status;
  }

  /** Client input quoted back in a message: in single quotes, cut at {@link #QUOTE_LIMIT}. */
  static String quote(String input) {
    if (input.length() <= QUOTE_LIMIT) {
      return "'" + input + "'";
    }
    return "'" + input.substring(0, QUOTE_LIMIT) + "...' (" + input.length() + " characters)";
  }
}
