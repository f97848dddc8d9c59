package dev.tailor.sim.arrival;

import java.util.SplittableRandom;

/**
 * Which query each request of a run asks: a seeded shuffle of the trace (or profile), cycled, so
 * that every policy of a sweep, real or simulated, sees the same requests in the same order.
 */
public final class RequestOrder {

  private RequestOrder() {}

  /** Request {@code i} asks query {@code order[i]}: a seeded shuffle of {@code queries}, cycled. */
  public static int[] shuffled(int requests, int queries, long seed) {
    if (queries < 1) {
      throw new IllegalArgumentException("need at least one query, got " + queries);
    }
    int[] perm = new int[queries];
    for (int i = 0; i < queries; i++) {
      perm[i] = i;
    }
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = queries - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    int[] order = new int[requests];
    for (int i = 0; i < requests; i++) {
      order[i] = perm[i % queries];
    }
    return order;
  }
}
