package dev.tailor.core.dispatch;

import dev.tailor.core.FailureLog;
import dev.tailor.core.budget.BudgetPolicy;
import java.util.function.IntConsumer;

/**
 * The slots of the thread budget: how many the budget has now, which threads hold them, and, once
 * the budget is {@linkplain ElasticBudget elastic}, its meter and its resizing. A slot is held by a
 * request's own thread or by a helper, counted apart, because the two are bounded apart under
 * prompt admission:
 *
 * <ul>
 *   <li>own threads never exceed the budget: a request is admitted only while they are fewer;
 *   <li>own threads and helpers together are kept within the budget plus the slack: a helper joins
 *       only while they are fewer and some core holds no own thread, and an admission that finds
 *       them all taken is made anyway, the operating system time-slicing the cores among them,
 *       while helpers over the bound, and every helper once own threads fill the budget, leave at
 *       their next boundary ({@link #excess}). So the bound is exceeded only by helpers told to
 *       leave, each for at most the rest of its claim.
 * </ul>
 *
 * Without prompt admission both bounds are the budget's, as before there was a slack: a request is
 * admitted only on a slot no helper holds. Every change of the busy slots is told to the meter and
 * the host. Not thread-safe, as the dispatch core; the counts are volatile and may be read without
 * the host's exclusion.
 */
final class Slots {

  private final int workers;
  private final DispatchHost<?> host;
  private final FailureLog failures;
  private volatile int budget;
  private volatile int own; // slots held by requests' own threads
  // own + helpers, kept whole, so that a reader without the exclusion never pairs an old count of
  // one kind with a new count of the other.
  private volatile int busy;
  private volatile int slack; // threads lent beyond the budget under prompt admission
  private volatile boolean prompt = true;
  private ElasticBudget elastic; // null: the budget is the pool, always
  private BudgetMeter meter; // the elastic budget's, or null
  private IntConsumer listener;

  Slots(int workers, DispatchHost<?> host, FailureLog failures) {
    this.workers = workers;
    this.host = host;
    this.failures = failures;
    this.budget = workers;
  }

  /**
   * Sets the slack and whether admission is prompt. Call before any request is queued.
   *
   * @throws IllegalArgumentException if the slack is below 0 or above the pool's workers
   */
  void configure(int slack, boolean prompt) {
    if (slack < 0 || slack > workers) {
      throw new IllegalArgumentException(
          "slack must be in [0, " + workers + "] (the workers), got " + slack);
    }
    this.slack = slack;
    this.prompt = prompt;
  }

  /**
   * The threads lent beyond the budget that helpers may hold now: the slack, under prompt admission
   * and while the budget is the whole pool. An elastic budget that gave cores away lends none, so
   * that background work keeps the cores it was given.
   */
  int slack() {
    return prompt && budget == workers ? slack : 0;
  }

  /** The slack as configured, lent or not. */
  int configuredSlack() {
    return slack;
  }

  /** Whether admission is prompt: own threads are bounded apart from helpers. */
  boolean prompt() {
    return prompt;
  }

  /**
   * How many more requests may be admitted now: the budget less the own threads under prompt
   * admission, else the budget less every busy thread. May be zero or negative.
   */
  int forAdmission() {
    return budget - (prompt ? own : busy);
  }

  /**
   * How many more helpers may join now: the budget plus the slack less the busy threads, and none
   * while own threads hold the whole budget: the slack hides a helper's late start on a machine
   * with a core to spare, and on one whose every core runs a request of its own a helper would only
   * time-slice with them.
   */
  int forHelpers() {
    int b = budget;
    return prompt && own >= b ? b - busy : b + slack() - busy;
  }

  /**
   * How many helpers should leave now: as many as the busy threads exceed the budget plus the slack
   * (an admission over the bound, or a budget that shrank), or, under prompt admission, all of them
   * once own threads fill the budget: a helper beside a request of its own on every core only
   * time-slices with them, and the arrival it slows is the short one. Zero when within bounds.
   */
  int excess() {
    int b = budget;
    int over = busy - b - slack();
    return own > b || (prompt && own >= b) ? Math.max(over, busy - own) : Math.max(0, over);
  }

  int budget() {
    return budget;
  }

  /** The slots held by threads, own threads and helpers. */
  int busy() {
    return busy;
  }

  /** A slot goes to a request's own thread ({@code own}) or a helper at {@code now}. */
  void take(boolean own, long now) {
    if (own) {
      this.own++;
    }
    busy++;
    busyChanged(now);
  }

  /** {@code helpers} slots of helpers and {@code own} of own threads come back at {@code now}. */
  void release(int helpers, int own, long now) {
    if (helpers != 0 || own != 0) {
      this.own -= own;
      busy -= helpers + own;
      busyChanged(now);
    }
  }

  private void busyChanged(long now) {
    int busy = this.busy;
    if (meter != null) {
      meter.changed(now, busy, budget);
    }
    host.busyWorkersChanged(now, busy);
  }

  /** A request was admitted after waiting {@code delayNanos}: for the elastic budget's meter. */
  void admitted(long delayNanos) {
    if (meter != null) {
      meter.admitted(delayNanos);
    }
  }

  /** A request exited after {@code serviceNanos} since its admission: for the meter. */
  void completed(long serviceNanos) {
    if (meter != null) {
      meter.completed(serviceNanos);
    }
  }

  void elastic(BudgetPolicy policy, int minBudget, long periodNanos, long now) {
    this.elastic = new ElasticBudget(policy, minBudget, workers, periodNanos, now);
    this.meter = elastic.meter;
  }

  void listener(IntConsumer listener) {
    this.listener = listener;
  }

  long nextCheck() {
    ElasticBudget e = elastic;
    return e == null ? Long.MAX_VALUE : e.nextCheck();
  }

  boolean checkDue(long now) {
    return elastic != null && now - elastic.nextCheck() >= 0;
  }

  /**
   * Resizes the budget at the end of its period and applies the change: a growth frees slots, a
   * shrink leaves fewer (perhaps fewer than zero) free. Returns whether the budget changed.
   */
  boolean resize(long now, double queuedWaitNanos, int queued) {
    int next = elastic.resize(now, budget, queuedWaitNanos, queued, failures);
    if (next == budget) {
      return false;
    }
    budget = next;
    busyChanged(now);
    IntConsumer l = listener;
    if (l != null) {
      try {
        l.accept(next);
      } catch (Throwable e) {
        failures.report("budgetListener", "the budget stands", e);
      }
    }
    return true;
  }

  double meanBudget(long now) {
    return meter == null ? workers : meter.meanBudget(now);
  }

  double budgetTimeNanos(long now) {
    return meter == null ? 0 : meter.budgetTimeNanos(now);
  }
}
