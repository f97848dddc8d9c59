package dev.tailor.core;

import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.model.GuidedClaims;
import dev.tailor.core.policy.PriorityClass;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * The tuning knobs of a {@link Scheduler}, as one immutable value: each {@code withX} method
 * returns a copy with one knob changed, checked as it is set. {@link #defaults()} is what a
 * scheduler runs with unless {@link Scheduler.Builder#tuning(Tuning)} says otherwise; the defaults
 * were chosen by measurement ({@code docs/results/one-configuration.md}), and most deployments need
 * none of these.
 *
 * <pre>{@code
 * Scheduler scheduler =
 *     Scheduler.builder()
 *         .workers(8)
 *         .tuning(Tuning.defaults().withSlack(0).withQuantum(Duration.ofMillis(2)))
 *         .build();
 * }</pre>
 */
public final class Tuning {

  /** How long idle threads spin before they park unless set: 20 µs (0 on one core). */
  static final long DEFAULT_SPIN_NANOS = 20_000L;

  /** The longest prompt bound: longer, a helper's claim would be no prompt bound at all. */
  static final Duration MAX_PROMPT_BOUND = Duration.ofMinutes(1);

  private static final Tuning DEFAULTS =
      new Tuning(
          10_000,
          Scheduler.DEFAULT_QUANTUM_NANOS,
          Runtime.getRuntime().availableProcessors() > 1 ? DEFAULT_SPIN_NANOS : 0,
          true,
          Scheduler.DEFAULT_SLACK,
          GuidedClaims.PROMPT_NANOS,
          Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
          null);

  // Not final, so that each wither copies, then sets one knob; none is written once the wither has
  // returned, so an instance never changes after it is seen.
  int queueCapacity;
  long quantumNanos;
  long spinNanos;
  boolean promptAdmission;
  int slack;
  long promptBoundNanos;
  long longThresholdNanos;
  private double[] classShares; // by class ordinal; null or NaN: the default floor; never mutated

  private Tuning(
      int queueCapacity,
      long quantumNanos,
      long spinNanos,
      boolean promptAdmission,
      int slack,
      long promptBoundNanos,
      long longThresholdNanos,
      double[] classShares) {
    this.queueCapacity = queueCapacity;
    this.quantumNanos = quantumNanos;
    this.spinNanos = spinNanos;
    this.promptAdmission = promptAdmission;
    this.slack = slack;
    this.promptBoundNanos = promptBoundNanos;
    this.longThresholdNanos = longThresholdNanos;
    this.classShares = classShares;
  }

  private Tuning(Tuning t) {
    this(
        t.queueCapacity,
        t.quantumNanos,
        t.spinNanos,
        t.promptAdmission,
        t.slack,
        t.promptBoundNanos,
        t.longThresholdNanos,
        t.classShares);
  }

  /** The defaults every knob has unless set. */
  public static Tuning defaults() {
    return DEFAULTS;
  }

  /**
   * The most requests that may wait for admission; beyond it submissions are rejected. Default
   * 10,000.
   *
   * @throws IllegalArgumentException if {@code capacity} is below 1
   */
  public Tuning withQueueCapacity(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("queueCapacity must be >= 1, got " + capacity);
    }
    Tuning t = new Tuning(this);
    t.queueCapacity = capacity;
    return t;
  }

  /**
   * How often running requests are re-evaluated; default 5 ms.
   *
   * @throws IllegalArgumentException if {@code quantum} is not positive
   */
  public Tuning withQuantum(Duration quantum) {
    Tuning t = new Tuning(this);
    t.quantumNanos = positiveNanos("quantum", quantum);
    return t;
  }

  /**
   * How long an idle worker, and a request's own thread waiting for its helpers, spin before they
   * park: they re-check for work with {@link Thread#onSpinWait()}. Work that comes within the spin
   * is taken without waking a parked thread, which saves a request that goes parallel one or two
   * wake-ups (several to tens of microseconds each, the most on virtual machines). A worker spins
   * once after each assignment, never after a wake-up without work, so an idle scheduler parks
   * every thread and uses no processor. Default 20 µs, or zero on a single processor, where a
   * spinning thread only holds up the one it waits for; {@link Duration#ZERO} disables spinning.
   *
   * @throws IllegalArgumentException if {@code spin} is negative
   */
  public Tuning withSpinBeforePark(Duration spin) {
    Objects.requireNonNull(spin, "spin");
    if (spin.isNegative()) {
      throw new IllegalArgumentException(
          "spinBeforePark must be zero (no spinning) or positive, got " + spin);
    }
    Tuning t = new Tuning(this);
    t.spinNanos = saturatedNanos(spin);
    return t;
  }

  /**
   * Whether a request that arrives while every thread is busy is admitted promptly; default on. On,
   * a helper claims at most about a millisecond of its request's windows at a time, by the
   * request's pace so far, and at the end of a claim gives its thread to a request of the same
   * class that waits for admission when the policy would admit it now; a free thread goes to such a
   * request before any running request gets a helper, whatever the policy's preference. A request's
   * own thread is never preempted. Off, a policy that helps first (tail-control's steal-first)
   * keeps free threads on running requests while they want helpers, as the paper describes it (Li
   * et al., PPoPP'16, Section 4).
   */
  public Tuning withPromptAdmission(boolean on) {
    Tuning t = new Tuning(this);
    t.promptAdmission = on;
    return t;
  }

  /**
   * Under prompt admission, how many threads helpers may hold beyond the budget; default 1. A
   * request the policy admits starts at once on its own thread whenever the own threads of running
   * requests are fewer than the budget, whatever helpers hold: own threads never exceed the budget;
   * a helper joins only while own threads and helpers are fewer than the budget plus the slack and
   * own threads fewer than the budget, and once own threads fill the budget every helper leaves at
   * the end of its claim, the operating system time-slicing the cores meanwhile. The slack hides a
   * helper's late start (Lucene's executor runs its caller beside a pool of one thread per core for
   * the same reason); 0 keeps every thread within the budget. Without prompt admission no thread is
   * lent and the slack does nothing.
   *
   * @throws IllegalArgumentException if {@code threads} is negative; building the scheduler fails
   *     if it exceeds the workers
   */
  public Tuning withSlack(int threads) {
    if (threads < 0) {
      throw new IllegalArgumentException("slack must be >= 0, got " + threads);
    }
    Tuning t = new Tuning(this);
    t.slack = threads;
    return t;
  }

  /**
   * Under prompt admission, the most time a helper's claim of its request's windows takes, at the
   * request's pace so far: about how long an arrival waits for a helper's thread (a window more
   * where one window is longer). Default 1 ms. Shorter bounds cost more claims; {@code ./tailor
   * bench prompt-claims} prints what the default costs.
   *
   * @throws IllegalArgumentException if {@code bound} is zero, negative or longer than a minute
   */
  public Tuning withPromptBound(Duration bound) {
    Objects.requireNonNull(bound, "promptBound");
    if (bound.isZero() || bound.isNegative() || bound.compareTo(MAX_PROMPT_BOUND) > 0) {
      throw new IllegalArgumentException(
          "promptBound must be positive and at most " + MAX_PROMPT_BOUND + ", got " + bound);
    }
    Tuning t = new Tuning(this);
    t.promptBoundNanos = bound.toNanos();
    return t;
  }

  /**
   * Work (or prediction) from which a request counts as long; default 80 ms, as in TPC.
   *
   * @throws IllegalArgumentException if {@code threshold} is not positive
   */
  public Tuning withLongRequestThreshold(Duration threshold) {
    Tuning t = new Tuning(this);
    t.longThresholdNanos = positiveNanos("longRequestThreshold", threshold);
    return t;
  }

  /**
   * The share of the thread budget a priority class is entitled to whenever it has work: its floor.
   * The floor is {@code share * workers} threads rounded down, but at least one if the share is
   * above zero. While the class has work and holds fewer threads than its floor, a free slot goes
   * to it before any higher class; and promptness never takes the class below its floor. The floor
   * holds within the budget: once requests' own threads fill it, every helper leaves, whatever its
   * class. A share of 0 is strict priority: the class runs only on what higher classes leave, and
   * may starve under sustained higher-class load.
   *
   * <p>Default: every class below {@link PriorityClass#INTERACTIVE} keeps one thread, so background
   * work always progresses, at the cost of at most one thread of the budget for interactive
   * requests while background work is present. The highest class needs no floor: it is never
   * preempted.
   *
   * @throws IllegalArgumentException if the share is not in [0, 1] or the class is the highest
   */
  public Tuning withClassShare(PriorityClass priorityClass, double share) {
    Objects.requireNonNull(priorityClass, "priorityClass");
    if (priorityClass.ordinal() == 0) {
      throw new IllegalArgumentException(
          "class " + priorityClass.label() + " is the highest class; it takes no share");
    }
    Dispatcher.floorThreads(share, 1); // checks the share
    double[] shares;
    if (classShares == null) {
      shares = new double[PriorityClass.values().length];
      Arrays.fill(shares, Double.NaN); // NaN: the default floor
    } else {
      shares = classShares.clone();
    }
    shares[priorityClass.ordinal()] = share;
    Tuning t = new Tuning(this);
    t.classShares = shares;
    return t;
  }

  /** The admission queue's capacity. */
  public int queueCapacity() {
    return queueCapacity;
  }

  /** How often running requests are re-evaluated. */
  public Duration quantum() {
    return Duration.ofNanos(quantumNanos);
  }

  /** How long idle threads spin before they park. */
  public Duration spinBeforePark() {
    return Duration.ofNanos(spinNanos);
  }

  /** Whether arrivals are admitted promptly. */
  public boolean promptAdmission() {
    return promptAdmission;
  }

  /** Threads helpers may hold beyond the budget under prompt admission. */
  public int slack() {
    return slack;
  }

  /** The most time a helper's claim takes under prompt admission. */
  public Duration promptBound() {
    return Duration.ofNanos(promptBoundNanos);
  }

  /** Work (or prediction) from which a request counts as long. */
  public Duration longRequestThreshold() {
    return Duration.ofNanos(longThresholdNanos);
  }

  /** The floors of threads per class, by ordinal, for {@code workers} threads. */
  int[] classFloors(int workers) {
    int[] floors = Dispatcher.defaultFloors();
    if (classShares != null) {
      for (int c = 1; c < floors.length; c++) {
        if (!Double.isNaN(classShares[c])) {
          floors[c] = Dispatcher.floorThreads(classShares[c], workers);
        }
      }
    }
    for (int c = 1; c < floors.length; c++) {
      floors[c] = Math.min(floors[c], workers);
    }
    return floors;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Tuning t
        && queueCapacity == t.queueCapacity
        && quantumNanos == t.quantumNanos
        && spinNanos == t.spinNanos
        && promptAdmission == t.promptAdmission
        && slack == t.slack
        && promptBoundNanos == t.promptBoundNanos
        && longThresholdNanos == t.longThresholdNanos
        && Arrays.equals(classShares, t.classShares);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
                queueCapacity,
                quantumNanos,
                spinNanos,
                promptAdmission,
                slack,
                promptBoundNanos,
                longThresholdNanos)
            * 31
        + Arrays.hashCode(classShares);
  }

  @Override
  public String toString() {
    return "Tuning[queueCapacity="
        + queueCapacity
        + ", quantum="
        + quantum()
        + ", spinBeforePark="
        + spinBeforePark()
        + ", promptAdmission="
        + promptAdmission
        + ", slack="
        + slack
        + ", promptBound="
        + promptBound()
        + ", longRequestThreshold="
        + longRequestThreshold()
        + (classShares == null ? "" : ", classShares=" + Arrays.toString(classShares))
        + "]";
  }

  private static long positiveNanos(String option, Duration d) {
    Objects.requireNonNull(d, option);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(option + " must be positive, got " + d);
    }
    return saturatedNanos(d);
  }

  /** The duration in nanoseconds, or {@link Long#MAX_VALUE} for one too long to say so. */
  static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }
}
