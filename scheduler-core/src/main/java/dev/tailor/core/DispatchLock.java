package dev.tailor.core;

import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The runtime's one dispatch lock, under which the dispatch core is asked and requests' admission
 * state changes, and the threads given work under it. Those are woken only after the lock is
 * released ({@link #unlockAndWake}), so that a woken thread does not run straight into the lock its
 * waker still holds.
 */
final class DispatchLock {

  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Thread> toWake = new ArrayDeque<>(); // guarded by lock

  void lock() {
    lock.lock();
  }

  /** Releases the lock without waking anyone: for a holder that gave no thread work. */
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
}
