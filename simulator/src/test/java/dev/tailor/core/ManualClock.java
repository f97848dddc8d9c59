package dev.tailor.core;

import java.util.function.LongSupplier;

/**
 * Opens {@link Scheduler.Builder}'s package-private clock to the simulator's tests, which compare
 * the runtime's decisions with the simulator's on a clock they move.
 */
public final class ManualClock {

  private ManualClock() {}

  /** {@code builder} with {@code clock} as the clock requests' times are read from. */
  public static Scheduler.Builder on(Scheduler.Builder builder, LongSupplier clock) {
    return builder.clock(clock);
  }
}
