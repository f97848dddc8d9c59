package dev.tailor.core.dispatch;

import dev.tailor.core.FailureLog;
import dev.tailor.core.budget.BudgetPolicy;
import java.util.function.IntConsumer;

/**
 * The slots of the thread budget: how many the budget has now, how many are free, and, once the
 * budget is {@linkplain ElasticBudget elastic}, its meter and its resizing. Every change of the
 * busy slots is told to the meter and the host. Free slots go negative only while a budget that
 * shrank is below the busy threads. Not thread-safe, as the dispatch core; the counts are volatile
 * and may be read without the host's exclusion.
 */
final class Slots {

  private final int workers;
  private final DispatchHost<?> host;
  private final FailureLog failures;
  private volatile int free;
  private volatile int budget;
  // budget - free, kept whole: a resize writes free and budget one after the other, so a reader
  // without the exclusion could pair one's old value with the other's new one. A resize leaves it.
  private volatile int busy;
  private ElasticBudget elastic; // null: the budget is the pool, always
  private BudgetMeter meter; // the elastic budget's, or null
  private IntConsumer listener;

  Slots(int workers, DispatchHost<?> host, FailureLog failures) {
    this.workers = workers;
    this.host = host;
    this.failures = failures;
    this.free = workers;
    this.budget = workers;
  }

  int free() {
    return free;
  }

  int budget() {
    return budget;
  }

  /** The slots held by threads: the budget less the free slots, read whole. */
  int busy() {
    return busy;
  }

  /** A slot goes to a thread at {@code now}. */
  void take(long now) {
    free--;
    busy++;
    busyChanged(now);
  }

  /** {@code n} slots come back at {@code now}. */
  void release(int n, long now) {
    if (n != 0) {
      free += n;
      busy -= n;
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
    free += next - budget;
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
