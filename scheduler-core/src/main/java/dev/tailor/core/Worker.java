package dev.tailor.core;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A pool thread. It parks until the scheduler assigns it a request, either to run the request's
 * body or to help it with held units; after each assignment the scheduler assigns it its next work
 * directly or parks it among the idle.
 */
final class Worker implements Runnable {

  private static final System.Logger LOG = System.getLogger(Worker.class.getName());
  private static final AtomicInteger THREAD_IDS = new AtomicInteger();

  /** Daemon threads named {@code tailor-worker-N}: a search pool must not keep the JVM alive. */
  static final ThreadFactory DEFAULT_FACTORY =
      r -> {
        Thread t = new Thread(r, "tailor-worker-" + THREAD_IDS.incrementAndGet());
        t.setDaemon(true);
        return t;
      };

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
    try {
      while (true) {
        Thread.interrupted(); // whatever a body or unit left behind must not reach the next one
        Request<?> r = assigned;
        if (r == null) {
          if (stopped) {
            return;
          }
          LockSupport.park(this);
          continue;
        }
        assigned = null;
        try {
          pool.runAssignment(this, r, help);
        } catch (Throwable t) {
          // Bodies, units, policies and listeners are all guarded; this is a scheduler bug.
          LOG.log(System.Logger.Level.ERROR, "tailor worker survived an internal error", t);
        }
      }
    } finally {
      pool.threadExited();
    }
  }
}
