package dev.tailor.core;

import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The runtime's one dispatch lock, and the threads to wake once it is released. It guards the
 * dispatch core, the idle workers and every change of a request's phase and threads ({@link
 * WorkerPool}); this class guards nothing itself but the list of threads to wake.
 *
 * <p>It stands apart because of the one rule it keeps: a thread given work under the lock is
 * unparked only after the lock is released ({@link #unlockAndWake}), so that a woken thread does
 * not run straight into the lock its waker still holds. Whoever gives work under it calls {@link
 * #wakeAfter} rather than {@link LockSupport#unpark}.
 */
final class DispatchLock {

  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Thread> toWake = new ArrayDeque<>(); // guarded by lock

  void lock() {
    lock.lock();
  }

  /** Releases the lock without waking anybody: for a reader that gave no thread work. */
  void unlock() {
    lock.unlock();
  }

  /** Wakes {@code thread} once the lock is released. Called under the lock. */
  void wakeAfter(Thread thread) {
    toWake.addLast(thread);
  }

  /** Releases the lock, then wakes the threads given work under it, in the order they were. */
  void unlockAndWake() {
    Thread first = toWake.pollFirst();
    Thread[] more = toWake.isEmpty() ? null : toWake.toArray(Thread[]::new);
    toWake.clear();
    lock.unlock();
    if (first != null) {
      LockSupport.unpark(first);
    }
    if (more != null) {
      for (Thread t : more) {
        LockSupport.unpark(t);
      }
    }
  }

  boolean isHeldByCurrentThread() {
    return lock.isHeldByCurrentThread();
  }
}
