package dev.tailor.core;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;

/**
 * Re-reads running requests' degrees: every quantum on its own thread, and at each unit boundary on
 * the helper that reached it. Lock-free: the policy is asked through the dispatch core's guard, and
 * the answer applied to the request under its own monitor; only a degree that rises while a slot is
 * free takes the dispatch lock, to send a helper.
 *
 * <p>The ticker must outlive anything that goes wrong: were its thread to die, ramp-ups and delayed
 * admissions would stop without a word. So whatever one request's re-evaluation throws is reported
 * to the {@link FailureLog} and the tick goes on with the next request, and the next tick comes.
 */
final class Ticker implements Runnable {

  private final WorkerPool pool;
  private final long quantumNanos;
  private final Thread thread;

  Ticker(WorkerPool pool, long quantumNanos, ThreadFactory factory) {
    this.pool = pool;
    this.quantumNanos = quantumNanos;
    this.thread = factory.newThread(this);
    thread.setName("tailor-ticker");
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Lets the ticker see that the pool is stopping. */
  void wake() {
    LockSupport.unpark(thread);
  }

  @Override
  public void run() {
    // With an elastic budget shorter than the quantum, the ticker wakes every budget period and
    // ticks when a quantum has passed; the quantum is kept in real time, like the park.
    long wait = Math.min(quantumNanos, pool.budgetPeriodNanos);
    long lastTick = System.nanoTime();
    try {
      while (!pool.isStopping()) {
        LockSupport.parkNanos(this, wait);
        long t = System.nanoTime();
        if (t - lastTick >= quantumNanos - wait / 2) {
          lastTick = t;
          tick();
        } else {
          checkBudget();
        }
      }
    } finally {
      pool.threadExited();
    }
  }

  /**
   * One tick, on the calling thread: re-reads every running request's degree, then lets the delayed
   * head in if its time has come and a slot is free, then resizes an elastic budget whose period
   * has ended. Never throws. Tests call it to make a tick happen now rather than wait for one.
   */
  void tick() {
    for (Request<?> r : pool.dispatch.running()) {
      reevaluate(r, true);
    }
    try {
      if (pool.dispatch.headDelayExpired(pool.nanoTime()) && pool.dispatch.freeSlots() > 0) {
        pool.dispatchNow();
      }
    } catch (Throwable t) {
      pool.failures.report("ticker", "the delayed head is let in at a later tick", t);
    }
    checkBudget();
  }

  private void checkBudget() {
    try {
      pool.checkBudget();
    } catch (Throwable t) {
      pool.failures.report("ticker", "the budget is resized at a later tick", t);
    }
  }

  /**
   * Asks the policy for a running request's degree and applies the answer. The tick also refreshes
   * the request's long flag; unit boundaries leave that to the tick. Never throws: what goes wrong
   * is reported, and the request keeps its degree until the next re-evaluation.
   */
  void reevaluate(Request<?> r, boolean tick) {
    try {
      apply(r, tick);
    } catch (Throwable t) {
      pool.failures.report(
          tick ? "ticker" : "unitBoundary", "the request keeps its degree until the next tick", t);
    }
  }

  private void apply(Request<?> r, boolean tick) {
    long now = pool.nanoTime();
    if (tick) {
      r.checkLong(pool.longThresholdNanos(), now);
    }
    int d = pool.dispatch.askDegree(r);
    if (d == r.degree || r.phase() != Request.Phase.RUNNING) {
      return;
    }
    int old = r.changeDegree(d, now);
    if (old == d) {
      return; // another thread applied the same answer first
    }
    pool.notifications.degreeChanged(r, old, d, now);
    if (d > old && !r.units.noneHeld()) {
      pool.unitForked(r);
    }
  }
}
