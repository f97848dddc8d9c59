package dev.tailor.studies.balance;

import java.util.SplittableRandom;

/** See {@link Balancer#randomPlacement()}. */
final class RandomPlacement implements Balancer {

  @Override
  public String name() {
    return "random";
  }

  @Override
  public Run run(long[] arrivalNanos, long[] serviceNanos, int cores, long seed) {
    Balancer.checkInputs(arrivalNanos, serviceNanos, cores);
    int n = arrivalNanos.length;
    long[] start = new long[n];
    long[] finish = new long[n];
    int[] core = new int[n];
    // Cores never interact, so each core's FIFO is a single-server queue: no events needed.
    long[] freeAt = new long[cores];
    SplittableRandom placement = new SplittableRandom(seed);
    for (int i = 0; i < n; i++) {
      int c = placement.nextInt(cores);
      core[i] = c;
      start[i] = Math.max(arrivalNanos[i], freeAt[c]);
      finish[i] = start[i] + serviceNanos[i];
      freeAt[c] = finish[i];
    }
    return new Run(arrivalNanos.clone(), start, finish, core);
  }
}
