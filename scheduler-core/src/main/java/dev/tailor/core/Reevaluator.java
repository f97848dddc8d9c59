package dev.tailor.core;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;

/**
 * Re-reads running requests' degrees every quantum on its own thread ({@link #reevaluate}, which
 * unit boundaries call too, on theirs), lets a delayed head in when its time has come, and ends the
 * elastic budget's periods. Lock-free but for a dispatch that has slots to hand out.
 *
 * <p>The reevaluator must outlive anything that goes wrong: were its thread to die, ramp-ups and
 * delayed admissions would stop without a word. So whatever one request's re-evaluation throws is
 * reported to the {@link FailureLog} and the tick goes on with the next request, and the next tick
 * comes.
 */
final class Reevaluator implements Runnable {

  private final WorkerPool pool;
  private final long quantumNanos;
  private final Thread thread;

  Reevaluator(WorkerPool pool, long quantumNanos, ThreadFactory factory) {
    this.pool = pool;
    this.quantumNanos = quantumNanos;
    this.thread = factory.newThread(this);
    thread.setName("tailor-reevaluator");
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Lets the reevaluator see that the pool is stopping. */
  void wake() {
    LockSupport.unpark(thread);
  }

  @Override
  public void run() {
    // With an elastic budget shorter than the quantum, the reevaluator wakes every budget period
    // and
    // ticks when a quantum has passed; the quantum is kept in real time, like the park.
    long wait = Math.min(quantumNanos, pool.budgetPeriodNanos);
    long lastTick = System.nanoTime();
    try {
      while (!pool.lifecycle.isStopping()) {
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
      pool.lifecycle.threadExited();
    }
  }

  /**
   * One tick, on the calling thread: re-reads every running request's degree, then lets the delayed
   * head in if its time has come and a slot is free (or hands on a slot a terminating worker holds
   * back, {@link WorkerPool#slotHeldForHandOver}), then resizes an elastic budget whose period has
   * ended. Never throws. Tests call it to make a tick happen now rather than wait for one.
   */
  void tick() {
    for (Request<?> r : pool.dispatch.running()) {
      reevaluate(r, true);
    }
    try {
      if (pool.dispatch.headDelayExpired(pool.nanoTime()) && pool.dispatch.admissionSlots() > 0
          || pool.slotHeldForHandOver()) {
        pool.dispatchNow();
      }
    } catch (Throwable t) {
      pool.failures.report("reevaluator", "the delayed head is let in at a later tick", t);
    }
    checkBudget();
  }

  /**
   * Asks the policy for a running request's degree and applies the answer, without the lock: at a
   * tick (which also refreshes the request's long flag) and at a unit or claim boundary. Never
   * throws: what goes wrong is reported, and the request keeps its degree until the next time.
   */
  void reevaluate(Request<?> r, boolean tick) {
    try {
      long now = pool.nanoTime();
      if (tick) {
        r.account.checkLong(pool.longThresholdNanos(), now);
      }
      int d = pool.dispatch.askDegree(r);
      if (d == r.degree || r.phase() != Request.Phase.RUNNING) {
        return;
      }
      int old = r.account.changeDegree(d, now);
      if (old == d) {
        return; // another thread applied the same answer first
      }
      pool.notifications.degreeChanged(r, old, d, now);
      if (d > old && !r.units.noneHeld()) {
        pool.unitForked(r);
      }
    } catch (Throwable t) {
      pool.failures.report(
          tick ? "reevaluator" : "unitBoundary",
          "the request keeps its degree until the next tick",
          t);
    }
  }

  private void checkBudget() {
    try {
      pool.checkBudget();
    } catch (Throwable t) {
      pool.failures.report("reevaluator", "the budget is resized at a later tick", t);
    }
  }
}
