package dev.tailor.core.model;

import dev.tailor.core.Internal;
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
 * SPAA'23, Section 3).
 *
 * <p>A thread alone takes all that is left once what is left should take less than {@link
 * #HANDOFF_NANOS}, judged by its pace so far ({@link #takesTheRest}): a helper that came now could
 * not pay for its hand-off, so the claims that would keep work for it only cost boundaries. The
 * drop-in's searches ({@code WindowedSearch}) and the simulator's unit model claim by these rules,
 * so the model runs what the runtime runs.
 */
@Internal
public final class GuidedClaims {

  /**
   * What a helper's hand-off costs a request, about: waking a parked worker, its join, and at the
   * end the own thread's wait (tens of microseconds on a virtual machine: {@code ./tailor bench
   * scheduler-overhead} prints it). Work left below this is not worth keeping for a helper.
   */
  public static final long HANDOFF_NANOS = 50_000;

  /**
   * The most work a helper claims at once by default ({@code Scheduler.Builder.promptBound}), by
   * the request's pace: a request that arrives while every thread is busy waits at most about this
   * long (one window more where a window is longer) for a helper to give way, since a helper looks
   * at its request's degree and at the admission queue only between claims. Prompt I-Cilk (Singer
   * et al., SPAA'23, Section 3) bounds the time ready work waits for a core; tail-control (Li et
   * al., PPoPP'16, Section 4) admits a waiting request at every steal. A millisecond is under a
   * tenth of the slowest queries of the demo's workload (P99 about 14 ms sequential) and many times
   * what a claim costs (a cursor move and a look at the degree), so the bound is short against the
   * tail yet costs few extra claims.
   */
  public static final long PROMPT_NANOS = 1_000_000;

  private GuidedClaims() {}

  /**
   * Whether a thread alone on a request takes all the units left: when its pace so far says they
   * take less than {@link #HANDOFF_NANOS}.
   *
   * @param elapsedNanos how long the claims so far took
   * @param claimed how many units they held
   * @param left the units no thread has claimed yet
   */
  public static boolean takesTheRest(long elapsedNanos, int claimed, int left) {
    // elapsed / claimed * left < HANDOFF, without the division; both products stay far below
    // Long.MAX_VALUE for any real search.
    return claimed > 0 && left > 0 && elapsedNanos * left < HANDOFF_NANOS * claimed;
  }

  /**
   * The units to claim, for a thread that has already claimed {@code claimed} of them, when the
   * request's progress is to show early ({@link dev.tailor.core.policy.Policy#watchesProgress()}):
   * {@link #size(int, int, boolean, PriorityClass)}, but never more than the thread has claimed so
   * far, at least one. A thread alone on 16 units claims 1, 1, 2, 4, 4, 2, 1, 1 instead of 8, 4, 2,
   * 1, 1: its pace is known after its first unit, and refined at every doubling.
   */
  public static int probingSize(
      int left, int sharers, boolean helper, PriorityClass priority, int claimed) {
    return Math.min(size(left, sharers, helper, priority), Math.max(1, claimed));
  }

  /**
   * The units a helper claims: {@code size} ({@link #size}), but no more than take {@code
   * boundNanos} at the request's pace so far ({@code finishedNanos} over {@code finishedUnits} of
   * its units that have finished), at least one; one unit while none has finished, when its pace is
   * not known. The request's own thread is never held to this: it finishes what it starts.
   *
   * @param size the claim {@link #size} gives
   * @param finishedNanos the time the request's finished units took
   * @param finishedUnits how many of its units have finished
   * @param boundNanos the most time a claim should take ({@link #PROMPT_NANOS} by default), at most
   *     about an hour
   */
  public static int helperSize(int size, long finishedNanos, int finishedUnits, long boundNanos) {
    if (size <= 1) {
      return size;
    }
    if (finishedUnits <= 0 || finishedNanos <= 0) {
      return 1;
    }
    // units that fit: bound / (finishedNanos / finishedUnits), without the division's rounding;
    // bound * finishedUnits stays below Long.MAX_VALUE for a bound under an hour and any int count.
    long fit = boundNanos * finishedUnits / finishedNanos;
    return (int) Math.max(1, Math.min(size, fit));
  }

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
