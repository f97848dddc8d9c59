package dev.tailor.core;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The cores an elastic budget gives back, for background work the embedding application runs beside
 * search: indexing into another index, merges, exports. There are as many as the scheduler's
 * workers minus its {@linkplain Scheduler#budget() budget}; a static budget returns none, and a
 * shut-down scheduler returns them all.
 *
 * <p>Background work takes a core for one chunk at a time ({@link #runChunk}): a batch of documents
 * to index, one merge step. When search takes cores back, background threads holding one finish
 * their chunk, and the next chunk waits until a core is returned again. So search gets its cores
 * back within one chunk's time: keep chunks short (a few milliseconds). Nothing here preempts a
 * chunk, as McClure et al.'s runtime does not preempt a task (NSDI'22, Section 5): a core is
 * yielded between tasks.
 *
 * <p>Thread-safe.
 */
@Internal
public final class BackgroundCores {

  private final int workers;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private int returned; // guarded by lock
  private int lent; // guarded by lock
  private long chunks; // guarded by lock

  BackgroundCores(int workers, int budget) {
    this.workers = workers;
    this.returned = workers - budget;
  }

  /** The budget is now {@code budget}; a shut-down scheduler passes 0. */
  void budgetChanged(int budget) {
    lock.lock();
    try {
      returned = workers - budget;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Cores the budget returns now. */
  public int returned() {
    lock.lock();
    try {
      return returned;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Cores background work holds now. May exceed {@link #returned()} for up to one chunk after
   * search took cores back.
   */
  public int lent() {
    lock.lock();
    try {
      return lent;
    } finally {
      lock.unlock();
    }
  }

  /** Cores given back so far: the chunks of background work run. */
  public long chunks() {
    lock.lock();
    try {
      return chunks;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Takes a returned core, waiting until one is free.
   *
   * @throws InterruptedException if interrupted while waiting; no core is taken then
   */
  public void acquire() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (lent >= returned) {
        changed.await();
      }
      lent++;
    } finally {
      lock.unlock();
    }
  }

  /** Takes a returned core if one is free now. */
  public boolean tryAcquire() {
    lock.lock();
    try {
      if (lent >= returned) {
        return false;
      }
      lent++;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Takes a returned core, waiting at most {@code timeout} for one: for background threads that
   * must notice a request to stop without being interrupted (an interrupt closes the file channels
   * of an index being written).
   *
   * @return whether a core was taken
   * @throws InterruptedException if interrupted while waiting; no core is taken then
   */
  public boolean tryAcquire(long timeout, TimeUnit unit) throws InterruptedException {
    long nanos = unit.toNanos(timeout);
    lock.lockInterruptibly();
    try {
      while (lent >= returned) {
        if (nanos <= 0) {
          return false;
        }
        nanos = changed.awaitNanos(nanos);
      }
      lent++;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Gives back a core taken with {@link #acquire()} or {@link #tryAcquire()}.
   *
   * @throws IllegalStateException if no core is held
   */
  public void release() {
    lock.lock();
    try {
      if (lent == 0) {
        throw new IllegalStateException("release() without a core taken");
      }
      lent--;
      chunks++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Runs one chunk of background work on a returned core: waits for one, runs {@code chunk}, gives
   * the core back (also if the chunk throws).
   *
   * @return what the chunk returned: whether there is more work
   * @throws InterruptedException if interrupted while waiting for a core; the chunk did not run
   */
  public boolean runChunk(BooleanSupplier chunk) throws InterruptedException {
    acquire();
    boolean more;
    try {
      more = chunk.getAsBoolean();
    } finally {
      release();
    }
    return more;
  }

  @Override
  public String toString() {
    return "BackgroundCores[returned=" + returned() + ", lent=" + lent() + "]";
  }
}
