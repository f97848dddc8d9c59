package dev.tailor.core;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A pool thread. It parks until the scheduler assigns it a request, either to run the request's
 * body or to help it with held units; after each assignment the scheduler assigns it its next work
 * directly or puts it among the idle. A worker that joins the idle spins for {@link
 * WorkerPool#spinNanos} first, re-checking for an assignment, and parks only if none came: work
 * that arrives soon after (a request's next units, the next request) is then taken without the
 * wake-up of a parked thread, while an idle pool parks all its workers.
 */
final class Worker implements Runnable {

  private static final AtomicInteger THREAD_IDS = new AtomicInteger();

  /** Daemon threads named {@code tailor-worker-N}: a search pool must not keep the JVM alive. */
  static final ThreadFactory DEFAULT_FACTORY =
      r -> {
        Thread t = new Thread(r, "tailor-worker-" + THREAD_IDS.incrementAndGet());
        t.setDaemon(true);
        return t;
      };

  /**
   * A spinning thread yields its processor every this many pauses (a few microseconds): on a busy
   * machine a woken thread with work to do may be waiting for that very processor.
   */
  private static final int YIELD_EVERY = 32;

  private final WorkerPool pool;
  final Thread thread;

  private volatile Request<?> assigned;
  private boolean help; // written before assigned, read after it
  private volatile boolean stopped;

  Worker(WorkerPool pool, ThreadFactory factory) {
    this.pool = pool;
    this.thread = factory.newThread(this);
  }

  /**
   * Assigns work. The caller wakes {@link #thread} afterwards, unless it is the worker's own
   * thread, which picks the work up without parking.
   */
  void assign(Request<?> r, boolean help) {
    this.help = help;
    this.assigned = r;
  }

  /** Lets the worker exit once it is idle. */
  void stop() {
    stopped = true;
    LockSupport.unpark(thread);
  }

  @Override
  public void run() {
    boolean maySpin = false; // once after each assignment, not after a wake-up without work
    try {
      while (true) {
        Thread.interrupted(); // whatever a body or unit left behind must not reach the next one
        Request<?> r = assigned;
        if (r == null) {
          if (stopped) {
            return;
          }
          if (maySpin) {
            maySpin = false;
            spinForWork();
          } else {
            LockSupport.park(this);
          }
          continue;
        }
        maySpin = true;
        assigned = null;
        try {
          pool.runAssignment(this, r, help);
        } catch (Throwable t) {
          // Bodies, units, policies and listeners are all guarded; this is a scheduler bug.
          pool.failures.report("worker", "the worker goes on", t);
        }
      }
    } finally {
      pool.lifecycle.threadExited();
    }
  }

  /**
   * Spins for up to the pool's budget until an assignment or a stop comes. A waker's unpark that
   * lands meanwhile only makes the next park return at once, and the loop re-checks.
   */
  private void spinForWork() {
    long budget = pool.spinNanos;
    if (budget <= 0) {
      return;
    }
    long start = System.nanoTime();
    int step = 0;
    do {
      spinStep(++step);
      if (assigned != null || stopped) {
        return;
      }
    } while (System.nanoTime() - start < budget);
  }

  /**
   * One step of a spin-wait, here and in {@link Request}'s join: a {@link Thread#onSpinWait()}, and
   * every {@value #YIELD_EVERY} steps a {@link Thread#yield()}, so that two spinning threads on two
   * processors do not keep a third from running, such as the client a request's completion just
   * woke. Yielding when nothing else wants the processor returns at once.
   */
  static void spinStep(int step) {
    Thread.onSpinWait();
    if (step % YIELD_EVERY == 0) {
      Thread.yield();
    }
  }
}
