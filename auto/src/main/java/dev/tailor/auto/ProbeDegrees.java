package dev.tailor.auto;

/**
 * The probing degree of each probed request still running, by id, so that the policy keeps the
 * degree it probed at and the sample knows it. A fixed table indexed by the id's low bits: a
 * request whose slot is taken is simply not probed, so nothing is allocated and nothing grows.
 * Thread-safe.
 */
final class ProbeDegrees {

  private static final long EMPTY = Long.MIN_VALUE;

  private final long[] ids;
  private final int[] degrees;
  private final int mask;

  /** A table of {@code 2^bits} slots. */
  ProbeDegrees(int bits) {
    ids = new long[1 << bits];
    degrees = new int[1 << bits];
    mask = ids.length - 1;
    java.util.Arrays.fill(ids, EMPTY);
  }

  /** Records the request's probing degree; false if its slot is taken (then it is not probed). */
  synchronized boolean put(long id, int degree) {
    int slot = (int) (id & mask);
    if (ids[slot] != EMPTY) {
      return false;
    }
    ids[slot] = id;
    degrees[slot] = degree;
    return true;
  }

  /** The request's probing degree, or 0 if it is not probed. */
  synchronized int get(long id) {
    int slot = (int) (id & mask);
    return ids[slot] == id ? degrees[slot] : 0;
  }

  /** Forgets the request; its probing degree, or 0 if it was not probed. */
  synchronized int remove(long id) {
    int slot = (int) (id & mask);
    if (ids[slot] != id) {
      return 0;
    }
    ids[slot] = EMPTY;
    return degrees[slot];
  }
}
