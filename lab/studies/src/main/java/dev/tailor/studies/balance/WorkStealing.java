package dev.tailor.studies.balance;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * See {@link Balancer#workStealing(long)}.
 *
 * <p>An idle core's checks complete on a grid, {@code scanStart + (k + 1) * check} for its {@code
 * k}-th check, victim {@code k} of its cyclic order. Stepping through checks while nothing is
 * queued anywhere would cost events and change nothing, so an idle core then parks; when a request
 * is queued it resumes at its next grid point, as if it had been checking all along.
 */
final class WorkStealing implements Balancer {

  private static final int ARRIVE = 0;
  private static final int FINISH = 1;
  private static final int CHECK = 2;
  private static final int STOLEN = 3;

  /** Decorrelates the victims' stream from the placement stream, which random placement shares. */
  private static final long VICTIM_SEED_MIX = 0x9E3779B97F4A7C15L;

  private final long checkNanos;

  WorkStealing(long checkNanos) {
    this.checkNanos = Balancer.checkCost(checkNanos, "steal check cost");
  }

  @Override
  public String name() {
    return "work-stealing";
  }

  @Override
  public Run run(long[] arrivalNanos, long[] serviceNanos, int cores, long seed) {
    Balancer.checkInputs(arrivalNanos, serviceNanos, cores);
    return new Simulation(arrivalNanos, serviceNanos, cores, seed).run();
  }

  /** One run's state. */
  private final class Simulation {
    private final long[] arrivalNanos;
    private final int cores;
    private final Ledger ledger;
    private final Events events = new Events();
    private final SplittableRandom placement;
    private final SplittableRandom victims;
    private final ArrayDeque<Integer>[] local;
    private final boolean[] busy;
    private final boolean[] parked;
    private final long[] scanStart;
    private final int[] scanOffset;
    private final long[] nextCheck;
    private final long[] stamp;
    private final int[] stolen;
    private int queued;

    @SuppressWarnings("unchecked")
    Simulation(long[] arrivalNanos, long[] serviceNanos, int cores, long seed) {
      this.arrivalNanos = arrivalNanos;
      this.cores = cores;
      this.ledger = new Ledger(arrivalNanos, serviceNanos);
      this.placement = new SplittableRandom(seed);
      this.victims = new SplittableRandom(seed ^ VICTIM_SEED_MIX);
      local = new ArrayDeque[cores];
      for (int c = 0; c < cores; c++) {
        local[c] = new ArrayDeque<>();
      }
      busy = new boolean[cores];
      parked = new boolean[cores];
      Arrays.fill(parked, true);
      scanStart = new long[cores];
      scanOffset = new int[cores];
      nextCheck = new long[cores];
      stamp = new long[cores];
      stolen = new int[cores];
    }

    Run run() {
      if (arrivalNanos.length > 0) {
        events.at(arrivalNanos[0], ARRIVE, 0);
      }
      for (Events.Event e = events.next(); e != null; e = events.next()) {
        long t = e.time();
        int s = e.subject();
        switch (e.kind()) {
          case ARRIVE -> arrive(s, t);
          case FINISH -> finish(s, t);
          case CHECK -> {
            if (e.stamp() == stamp[s]) {
              check(s, t);
            }
          }
          case STOLEN -> events.at(ledger.start(stolen[s], s, t), FINISH, s);
          default -> throw new AssertionError(e);
        }
      }
      return ledger.run();
    }

    private void arrive(int i, long t) {
      if (i + 1 < arrivalNanos.length) {
        events.at(arrivalNanos[i + 1], ARRIVE, i + 1);
      }
      int c = placement.nextInt(cores);
      if (!busy[c]) {
        // An idle core looks at its own queue between remote checks, at no cost.
        startOn(c, i, t);
        return;
      }
      local[c].add(i);
      queued++;
      for (int j = 0; j < cores && cores > 1; j++) {
        if (!busy[j] && parked[j]) {
          parked[j] = false;
          if (checkNanos == 0) {
            events.at(t, CHECK, j, stamp[j]);
          } else {
            // Resume at the first grid point after t: a check completing at t saw nothing.
            long k = (t - scanStart[j]) / checkNanos;
            nextCheck[j] = k;
            events.at(scanStart[j] + (k + 1) * checkNanos, CHECK, j, stamp[j]);
          }
        }
      }
    }

    private void finish(int c, long t) {
      if (!local[c].isEmpty()) {
        queued--;
        startOn(c, local[c].poll(), t);
        return;
      }
      busy[c] = false;
      scanStart[c] = t;
      scanOffset[c] = cores > 1 ? victims.nextInt(cores - 1) : 0;
      nextCheck[c] = 0;
      stamp[c]++;
      parked[c] = queued == 0 || cores == 1;
      if (!parked[c]) {
        events.at(t + checkNanos, CHECK, c, stamp[c]);
      }
    }

    /**
     * Completes idle core {@code c}'s check of its next victim (all of them if checks are free).
     */
    private void check(int c, long t) {
      int tries = checkNanos == 0 ? cores - 1 : 1;
      for (int n = 0; n < tries; n++) {
        long k = nextCheck[c]++;
        int v = (c + 1 + (int) ((scanOffset[c] + k) % (cores - 1))) % cores;
        if (!local[v].isEmpty()) {
          queued--;
          busy[c] = true;
          stamp[c]++;
          stolen[c] = local[v].poll();
          events.at(t + checkNanos, STOLEN, c);
          return;
        }
      }
      if (queued == 0 || checkNanos == 0) {
        // With free checks the scan just done covered every other queue: nothing to steal now.
        parked[c] = true;
      } else {
        events.at(t + checkNanos, CHECK, c, stamp[c]);
      }
    }

    private void startOn(int c, int i, long t) {
      busy[c] = true;
      parked[c] = false;
      stamp[c]++;
      events.at(ledger.start(i, c, t), FINISH, c);
    }
  }
}
