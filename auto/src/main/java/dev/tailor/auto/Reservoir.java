package dev.tailor.auto;

/**
 * The most recent completed requests, a fixed number of them in primitive arrays: appending
 * overwrites the oldest and allocates nothing, so it may run on the dispatch path. A record that
 * cannot be a real request (a time below zero, a run longer than its latency: a clock that stepped
 * back or an overflow) is dropped and counted; one that did no work (cancelled before it ran) is
 * not a sample and is skipped.
 *
 * <p>Thread-safe: every method holds the reservoir's monitor, briefly.
 */
final class Reservoir {

  /** Bytes a held sample costs: four times and the probe degree. */
  static final int BYTES_PER_SAMPLE = 4 * Long.BYTES + Short.BYTES;

  private final long[] arrival;
  private final long[] exit;
  private final long[] run;
  private final long[] work;
  private final short[] probe;
  private int next;
  private int size;
  private long appended;
  private long dropped;

  /**
   * @param capacity the samples held at most
   * @throws IllegalArgumentException if the capacity is below 1
   */
  Reservoir(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("a reservoir holds at least 1 sample, got " + capacity);
    }
    arrival = new long[capacity];
    exit = new long[capacity];
    run = new long[capacity];
    work = new long[capacity];
    probe = new short[capacity];
  }

  /**
   * Appends a completed request, or drops it if it cannot be one.
   *
   * @param arrivalNanos when it arrived, on the scheduler's clock
   * @param exitNanos when it completed, same clock
   * @param runNanos admission to completion
   * @param workNanos busy time summed over its threads
   * @param probeDegree the degree it was probed at (1 for the degree-1 share), or 0 if the live
   *     policy decided it
   * @return whether it was kept
   */
  synchronized boolean add(
      long arrivalNanos, long exitNanos, long runNanos, long workNanos, int probeDegree) {
    if (runNanos == 0 || workNanos == 0) {
      return false; // ended before doing anything (cancelled): nothing to learn, nothing wrong
    }
    long latency = exitNanos - arrivalNanos;
    if (runNanos < 0
        || workNanos < 0
        || latency < runNanos
        || probeDegree < 0
        || probeDegree > Short.MAX_VALUE) {
      dropped++;
      return false;
    }
    arrival[next] = arrivalNanos;
    exit[next] = exitNanos;
    run[next] = runNanos;
    work[next] = workNanos;
    probe[next] = (short) probeDegree;
    next = (next + 1) % arrival.length;
    size = Math.min(size + 1, arrival.length);
    appended++;
    return true;
  }

  /** The samples held, oldest first. */
  synchronized Samples snapshot() {
    return last(size);
  }

  /** The {@code n} most recent samples held (all of them if fewer), oldest first. */
  synchronized Samples last(int n) {
    int k = Math.max(0, Math.min(n, size));
    long[] a = new long[k];
    long[] e = new long[k];
    long[] r = new long[k];
    long[] w = new long[k];
    int[] p = new int[k];
    int from = Math.floorMod(next - k, arrival.length);
    for (int i = 0; i < k; i++) {
      int j = (from + i) % arrival.length;
      a[i] = arrival[j];
      e[i] = exit[j];
      r[i] = run[j];
      w[i] = work[j];
      p[i] = probe[j];
    }
    return new Samples(a, e, r, w, p);
  }

  /** Forgets all but the {@code n} most recent samples: what a shifted workload no longer has. */
  synchronized void keepLast(int n) {
    size = Math.max(0, Math.min(n, size));
  }

  /** Samples held now. */
  synchronized int size() {
    return size;
  }

  /** The samples it can hold. */
  int capacity() {
    return arrival.length;
  }

  /** Samples kept since it was made. */
  synchronized long appended() {
    return appended;
  }

  /** Records dropped as impossible since it was made. */
  synchronized long dropped() {
    return dropped;
  }

  /** The memory its arrays hold, in bytes, whether full or not. */
  long bytes() {
    return (long) arrival.length * BYTES_PER_SAMPLE;
  }
}
