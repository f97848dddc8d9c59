package dev.tailor.sim;

import dev.tailor.core.policy.SystemView;
import dev.tailor.measure.DemandProfile;
import java.util.function.LongSupplier;

/**
 * The request the projection tests run alone: a serial part, then 16 uneven units, long enough that
 * a thread alone never takes the rest at once; and the system it runs in, one request on a clock
 * the test moves.
 */
final class UnevenRequest {

  static final long MS = 1_000_000;
  static final long SERIAL = 3 * MS;
  static final long[] UNITS = {
    9 * MS, 1 * MS, 4 * MS, 2 * MS, 7 * MS, 1 * MS, 3 * MS, 5 * MS, 2 * MS, 6 * MS, 1 * MS, 2 * MS,
    8 * MS, 1 * MS, 4 * MS, 3 * MS
  };

  private UnevenRequest() {}

  /** The request's demand: its serial part and units, one degree measured. */
  static DemandProfile.Request demand() {
    long sequential = SERIAL;
    for (long u : UNITS) {
      sequential += u;
    }
    return new DemandProfile.Request(
        "0",
        null,
        "q",
        sequential,
        UNITS,
        new double[] {1.0},
        new double[0],
        new DemandProfile.Features("test", 1, new long[0], 0));
  }

  /** One request in the system, with one busy worker of {@code budget}, on {@code clock}. */
  static SystemView system(LongSupplier clock, int budget) {
    return new SystemView() {
      @Override
      public long nanoTime() {
        return clock.getAsLong();
      }

      @Override
      public int budget() {
        return budget;
      }

      @Override
      public int activeRequests() {
        return 1;
      }

      @Override
      public int queuedRequests() {
        return 0;
      }

      @Override
      public int busyWorkers() {
        return 1;
      }

      @Override
      public int busyThreadsOnLongRequests() {
        return 0;
      }
    };
  }
}
