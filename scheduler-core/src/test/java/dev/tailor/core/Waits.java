package dev.tailor.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Waits for a state, never for a time: each returns as soon as what it waits for holds, and fails
 * only if it never does within the hang guard (30 s), which no correct run comes near.
 */
final class Waits {

  static final int GUARD_SECONDS = 30;

  private Waits() {}

  /** Waits for the latch to open. */
  static void await(CountDownLatch latch) {
    try {
      assertTrue(latch.await(GUARD_SECONDS, TimeUnit.SECONDS), "hang guard");
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  /** Waits until {@code condition} holds, yielding the processor between looks. */
  static void until(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_SECONDS);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() - deadline < 0, "hang guard: " + what);
      Thread.yield();
    }
  }

  /** Waits until {@code t} waits for its request's helpers in {@code joinUnits}. */
  static void untilInJoin(Thread t) {
    until(() -> inAwaitHelpers(t), t.getName() + " waits in joinUnits");
  }

  /** Whether {@code t} is waiting for its helpers in {@code joinUnits}, spinning or parked. */
  static boolean inAwaitHelpers(Thread t) {
    for (StackTraceElement e : t.getStackTrace()) {
      if (e.getClassName().equals(Request.class.getName())
          && e.getMethodName().equals("awaitHelpers")) {
        return true;
      }
    }
    return false;
  }
}
