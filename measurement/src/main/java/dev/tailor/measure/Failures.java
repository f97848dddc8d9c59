package dev.tailor.measure;

/**
 * The requests of a point that got no result, counted by why. They are kept out of the latency
 * histogram, whose percentiles describe answered requests only, and each counts as a miss of every
 * latency target: a request that failed did not meet one.
 *
 * @param rejected refused for overload: HTTP 503, or the admission queue was full
 * @param status answered with another HTTP status than 200 or 503 (a 4xx, a 500)
 * @param error failed with an exception: an I/O error, a timeout, the search threw
 * @param unanswered still unanswered at the drain deadline (or when a saturated point stopped)
 */
public record Failures(long rejected, long status, long error, long unanswered) {

  /** No failure at all. */
  public static final Failures NONE = new Failures(0, 0, 0, 0);

  /** Why a request got no result. */
  public enum Kind {
    /** Refused for overload: HTTP 503, or the admission queue was full. */
    REJECTED("rejected"),
    /** Answered with another HTTP status than 200 or 503. */
    STATUS("status"),
    /** Failed with an exception: an I/O error, a timeout, the search threw. */
    ERROR("error"),
    /** No answer by the drain deadline: only the client that waited can tell. */
    UNANSWERED("unanswered");

    private final String key;

    Kind(String key) {
      this.key = key;
    }

    /** Its name in JSON, CSV columns and summaries, e.g. {@code rejected}. */
    public String key() {
      return key;
    }
  }

  /**
   * Checks the counts.
   *
   * @throws IllegalArgumentException if a count is negative
   */
  public Failures {
    if (rejected < 0 || status < 0 || error < 0 || unanswered < 0) {
      throw new IllegalArgumentException(
          "failure counts must not be negative, got "
              + rejected
              + ", "
              + status
              + ", "
              + error
              + ", "
              + unanswered);
    }
  }

  /**
   * The counts of an array indexed by {@link Kind#ordinal()}.
   *
   * @throws IllegalArgumentException if the array's length is not the number of kinds
   */
  public static Failures of(long[] byKind) {
    if (byKind.length != Kind.values().length) {
      throw new IllegalArgumentException(
          "expected " + Kind.values().length + " counts, got " + byKind.length);
    }
    return new Failures(byKind[0], byKind[1], byKind[2], byKind[3]);
  }

  /** Every failure, whatever its kind. */
  public long total() {
    return rejected + status + error + unanswered;
  }

  /** The failures of one kind. */
  public long count(Kind kind) {
    return switch (kind) {
      case REJECTED -> rejected;
      case STATUS -> status;
      case ERROR -> error;
      case UNANSWERED -> unanswered;
    };
  }

  /** The non-zero kinds, e.g. {@code 30 rejected, 7 unanswered}, or {@code none}. */
  public String describe() {
    StringBuilder s = new StringBuilder();
    for (Kind k : Kind.values()) {
      long n = count(k);
      if (n > 0) {
        s.append(s.isEmpty() ? "" : ", ").append(n).append(' ').append(k.key());
      }
    }
    return s.isEmpty() ? "none" : s.toString();
  }
}
