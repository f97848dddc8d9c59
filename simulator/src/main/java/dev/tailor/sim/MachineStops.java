package dev.tailor.sim;

import java.util.SplittableRandom;

/**
 * When a machine model ({@link MachineModel}) stops the whole simulated process: its stalls, a
 * Poisson process at the measured rate, and the GC pause that follows an answer at the measured
 * rate per request. One per simulated point, drawing from streams of its own seeded by the point's
 * seed, so that the per-request costs draw as they would without a machine model and the policies'
 * ({@link SimRun}) and the peers' ({@link PeerRun}) simulations of a point meet the same stalls.
 * Without a model it never stops anything.
 *
 * <p>Not thread-safe; the simulator is single-threaded.
 */
final class MachineStops {

  private final MachineModel machine; // null: nothing stops
  private final SplittableRandom stallDraws; // when stalls come and how long they last
  private final SplittableRandom gcDraws; // which answers a GC pause follows, and its length
  private long nextStall = Long.MAX_VALUE;
  private long pendingPause; // a GC pause due once the ends at this moment are handled

  MachineStops(MachineModel machine, long seed) {
    this.machine = machine;
    this.stallDraws = new SplittableRandom(seed ^ 0x57A11_5EEDL);
    this.gcDraws = new SplittableRandom(seed ^ 0x6C_5EEDL);
    if (machine != null) {
      nextStall = stallAfter(0);
    }
  }

  /** When the next stall starts, or {@link Long#MAX_VALUE} if none will. */
  long nextStall() {
    return nextStall;
  }

  /**
   * The stall due at {@code now}: its length, drawn from the measured durations; the next one is
   * drawn to come after it ends.
   */
  long stall(long now) {
    long nanos = Calibration.draw(machine.stalls().durationsNanos(), stallDraws);
    nextStall = stallAfter(now + Math.max(0, nanos));
    return nanos;
  }

  /**
   * A request was answered: a GC pause follows at the measured rate, once its moment is handled.
   */
  void answered() {
    if (machine != null && gcDraws.nextDouble() < machine.gcPauses().perRequest()) {
      pendingPause += Calibration.draw(machine.gcPauses().durationsNanos(), gcDraws);
    }
  }

  /** The GC pauses due now, summed, and none due after; 0 if none is. */
  long takePause() {
    long nanos = pendingPause;
    pendingPause = 0;
    return nanos;
  }

  /** When the next stall comes after {@code from}; never where none was measured. */
  private long stallAfter(long from) {
    double perNano = machine.stalls().perSecond() / 1e9;
    if (!(perNano > 0)) {
      return Long.MAX_VALUE;
    }
    double gap = -Math.log(1 - stallDraws.nextDouble()) / perNano;
    return gap >= Long.MAX_VALUE - from ? Long.MAX_VALUE : from + Math.max(1, (long) gap);
  }
}
