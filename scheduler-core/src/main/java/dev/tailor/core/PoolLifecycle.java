package dev.tailor.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link WorkerPool}'s life: whether it accepts work, how many accepted requests have not
 * terminated, the shutdowns, and the stop of its threads once both a shutdown has come and the last
 * request has terminated, whichever is seen first.
 *
 * <p>Whether the pool accepts work and the count of requests not terminated are one atomic word
 * ({@code ctl}, as {@code ThreadPoolExecutor}'s is), so that a request's termination, which runs
 * outside the dispatch lock, needs no lock to let a shutdown finish, and the pool's threads are
 * stopped exactly once (a CAS sets {@code STOPPED}). The count is raised under the dispatch lock,
 * which a shutdown takes to set its flag, so that no request is accepted after it.
 *
 * <p>It stands apart from the pool's dispatch because none of it decides who runs: it only lets
 * work in or not, and ends the threads.
 */
final class PoolLifecycle {

  // ctl: SHUTDOWN and STOPPED flags above the count of accepted requests not yet terminated.
  private static final long SHUTDOWN = 1L << 62;
  private static final long STOPPED = 1L << 61;
  private static final long COUNT = STOPPED - 1;

  private final WorkerPool pool;
  private final AtomicLong ctl = new AtomicLong();

  /** Counts the pool's threads (workers and reevaluator) down as they exit. */
  private final CountDownLatch terminated;

  /**
   * @param threads the pool's threads that will exit, workers and reevaluator
   */
  PoolLifecycle(WorkerPool pool, int threads) {
    this.pool = pool;
    this.terminated = new CountDownLatch(threads);
  }

  /** An arrival is accepted: one more to wait for. Called under the dispatch lock. */
  void accepted() {
    ctl.incrementAndGet(); // under the lock, which shutdown takes to set its flag
  }

  /** A request terminated: one fewer to wait for; the last one after a shutdown stops the pool. */
  void requestTerminated() {
    long c = ctl.decrementAndGet();
    if ((c & SHUTDOWN) != 0 && (c & COUNT) == 0) {
      stopIfDone();
    }
  }

  boolean isShutdown() {
    return (ctl.get() & SHUTDOWN) != 0;
  }

  boolean isStopping() {
    return (ctl.get() & STOPPED) != 0;
  }

  void shutdown() {
    pool.lock.lock();
    try {
      ctl.getAndUpdate(c -> c | SHUTDOWN);
    } finally {
      pool.lock.unlockAndWake();
    }
    stopIfDone();
  }

  int shutdownNow() {
    List<Request<?>> dropped = new ArrayList<>();
    Request<?>[] toCancel;
    pool.lock.lock();
    try {
      ctl.getAndUpdate(c -> c | SHUTDOWN);
      pool.dispatch.drainQueue(
          r -> {
            r.stop.cancel();
            r.markDone();
            dropped.add(r);
          });
      toCancel = pool.dispatch.running();
    } finally {
      pool.lock.unlockAndWake();
    }
    for (Request<?> r : dropped) {
      r.exit.terminate(pool.nanoTime());
    }
    for (Request<?> r : toCancel) {
      if (r.future != null) {
        r.future.cancel(false); // cancelled at once, as a user's cancel does; flags the request
      } else {
        r.stop.cancel();
      }
    }
    stopIfDone();
    return dropped.size();
  }

  /**
   * After a shutdown, once every accepted request has terminated, stops the workers and the
   * reevaluator, once: whoever sees it first (the shutdown, or the last request's termination) does
   * it.
   */
  private void stopIfDone() {
    long c;
    do {
      c = ctl.get();
      if ((c & SHUTDOWN) == 0 || (c & STOPPED) != 0 || (c & COUNT) != 0) {
        return;
      }
    } while (!ctl.compareAndSet(c, c | STOPPED));
    pool.backgroundCores.budgetChanged(0); // search needs no core any more
    for (Worker w : pool.workers) {
      w.stop();
    }
    pool.reevaluator.wake();
  }

  boolean awaitTermination(long nanos) throws InterruptedException {
    return terminated.await(nanos, TimeUnit.NANOSECONDS);
  }

  boolean isTerminated() {
    return terminated.getCount() == 0;
  }

  /** One of the pool's threads has exited. */
  void threadExited() {
    terminated.countDown();
  }
}
