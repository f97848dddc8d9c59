package dev.tailor.core.model;

import dev.tailor.core.policy.PriorityClass;

/**
 * How many of a request's units a thread claims at once from the shared cursor: guided
 * self-scheduling (Polychronopoulos and Kuck, "Guided Self-Scheduling: A Practical Scheduling
 * Scheme for Parallel Supercomputers", IEEE Trans. Computers 36(12), 1987), here half of the
 * thread's share of what is left. A thread alone takes half of the units left, two threads a
 * quarter each; claims shrink to one unit as the end nears, where they balance the threads' finish,
 * and a helper that arrives later still finds at least half of what was unclaimed.
 *
 * <p>A claim is what a thread runs between two looks at the request's degree: a helper leaves, and
 * a falling degree takes effect, at a claim's end. Larger claims cost fewer boundaries (in a
 * search, each bulk-scorer call restarts its scorer's state); smaller ones leave sooner. A helper
 * on a request below the highest priority class claims one unit at a time, so that it stays prompt:
 * it leaves at every unit's end when higher-class work waits (Singer et al., "Prompt I-Cilk",
 * SPAA'23, Section 3). The drop-in's searches ({@code WindowedSearch}) and the simulator's unit
 * model claim by this rule, so the model runs what the runtime runs.
 */
public final class GuidedClaims {

  private GuidedClaims() {}

  /**
   * The units to claim.
   *
   * @param left the units no thread has claimed yet
   * @param sharers the threads that may share them: the request's degree, the threads on it, at
   *     least 1
   * @param helper whether the claiming thread is a helper (not the request's own thread)
   * @param priority the request's class
   * @return between 1 and {@code left}, or 0 when nothing is left
   */
  public static int size(int left, int sharers, boolean helper, PriorityClass priority) {
    if (left <= 1) {
      return Math.max(0, left);
    }
    if (helper && priority.ordinal() > 0) {
      return 1;
    }
    return Math.max(1, share(left, sharers) / 2);
  }

  /**
   * The most a claim may take when the claimer extends it to a natural boundary (the end of an
   * index segment, where a cut costs no restart): three quarters of the thread's share, at least
   * {@link #size}.
   */
  public static int most(int left, int sharers, boolean helper, PriorityClass priority) {
    int size = size(left, sharers, helper, priority);
    if (left <= 1 || (helper && priority.ordinal() > 0)) {
      return size;
    }
    int share = share(left, sharers);
    return Math.max(size, share - share / 4);
  }

  private static int share(int left, int sharers) {
    return left / Math.max(1, sharers);
  }
}
