package dev.tailor.core.dispatch;

import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.RequestView;
import java.util.function.Consumer;

/**
 * The admission queues of the dispatch core, one FIFO {@link ClassQueue} per {@link PriorityClass},
 * highest class first, with each class's floor of threads. Which head is admitted, delayed or held
 * is the {@link Dispatcher}'s decision; this class keeps the queues and their heads' state. Mutated
 * only under the host's exclusion; the counts and the heads' state may be read without it.
 *
 * @param <R> the host's request type
 */
final class AdmissionQueues<R extends RequestView> {

  /** By class ordinal, the highest class first. */
  final ClassQueue<R>[] byClass;

  private volatile int queued;

  /**
   * @param floorThreads for each class, by ordinal, its floor of threads (the highest class's is
   *     ignored: it is never preempted)
   * @throws IllegalArgumentException if a floor is missing or not in [0, workers]
   */
  AdmissionQueues(int[] floorThreads, int workers) {
    PriorityClass[] classes = PriorityClass.values();
    if (floorThreads.length != classes.length) {
      throw new IllegalArgumentException(
          "floorThreads needs one floor per priority class ("
              + classes.length
              + "), got "
              + floorThreads.length);
    }
    @SuppressWarnings("unchecked")
    ClassQueue<R>[] qs = new ClassQueue[classes.length];
    for (PriorityClass c : classes) {
      int floor = floorThreads[c.ordinal()];
      if (floor < 0 || floor > workers) {
        throw new IllegalArgumentException(
            "floor of class " + c.label() + " must be in [0, " + workers + "], got " + floor);
      }
      qs[c.ordinal()] = new ClassQueue<>(c, c.ordinal() == 0 ? 0 : floor);
    }
    this.byClass = qs;
  }

  /** The queue of the request's class (the highest class's for a request without one). */
  ClassQueue<R> of(R request) {
    PriorityClass c = request.priorityClass();
    return byClass[c == null ? 0 : c.ordinal()];
  }

  /** The highest class's queue. */
  ClassQueue<R> highest() {
    return byClass[0];
  }

  /** The arrival times of the queued requests, summed (overflow cancels out in the difference). */
  private long arrivalsSum;

  /** Requests waiting, over every class. */
  int queued() {
    return queued;
  }

  void add(R request) {
    ClassQueue<R> cq = of(request);
    cq.queue.addLast(request);
    cq.queued = cq.queue.size();
    queued++;
    arrivalsSum += request.arrivalNanos();
  }

  /** Takes a request out of its queue; returns whether it was the head (then forgotten). */
  boolean remove(R request) {
    ClassQueue<R> cq = of(request);
    boolean wasHead = cq.queue.peekFirst() == request;
    if (cq.queue.remove(request)) {
      queued--;
      arrivalsSum -= request.arrivalNanos();
    }
    cq.queued = cq.queue.size();
    if (wasHead) {
      cq.clearHead();
    }
    return wasHead;
  }

  /**
   * The head of {@code cq} was admitted: it leaves the queue, and the next head is asked afresh.
   */
  void headAdmitted(ClassQueue<R> cq) {
    arrivalsSum -= cq.queue.pollFirst().arrivalNanos();
    cq.queued = cq.queue.size();
    queued--;
    cq.headDelayedUntil = Dispatcher.NOT_DELAYED;
  }

  /** Empties every queue into {@code each}, from the highest class, in arrival order. */
  void drain(Consumer<? super R> each) {
    for (ClassQueue<R> cq : byClass) {
      for (R r; (r = cq.queue.pollFirst()) != null; ) {
        each.accept(r);
      }
      cq.queued = 0;
      cq.clearHead();
    }
    queued = 0;
    arrivalsSum = 0;
  }

  /** A running request exited: no head waits for an exit any more. */
  void exitSeen() {
    for (ClassQueue<R> cq : byClass) {
      cq.headAwaitsExit = false;
    }
  }

  /** The earliest time a delayed head may be asked again, or {@link Dispatcher#NOT_DELAYED}. */
  long headDelayedUntil() {
    long best = Dispatcher.NOT_DELAYED;
    for (ClassQueue<R> cq : byClass) {
      long until = cq.headDelayedUntil;
      if (until != Dispatcher.NOT_DELAYED && (best == Dispatcher.NOT_DELAYED || until - best < 0)) {
        best = until;
      }
    }
    return best;
  }

  /** Whether some class's head is delayed and its time has come at {@code now}. */
  boolean headDelayExpired(long now) {
    for (ClassQueue<R> cq : byClass) {
      long until = cq.headDelayedUntil;
      if (until != Dispatcher.NOT_DELAYED && now - until >= 0) {
        return true;
      }
    }
    return false;
  }

  /** Whether a class above {@code c} has a head the policy would be asked about at {@code now}. */
  boolean higherHeadAdmissible(PriorityClass c, long now) {
    boolean higherWaits = false;
    for (int i = 0; i < c.ordinal() && !higherWaits; i++) {
      higherWaits = byClass[i].headAdmissible(now);
    }
    return higherWaits;
  }

  /**
   * The waits so far of every queued request at {@code now}, summed: from a running sum of their
   * arrivals, so that the elastic budget's period costs the same under the lock however long the
   * queue is. Every arrival is at or before {@code now}, so no wait is negative.
   */
  double waitedNanos(long now) {
    return (double) (queued * now - arrivalsSum);
  }

  /** Says that a running request of any class may now want a helper. */
  void helpMayBeWanted() {
    for (ClassQueue<R> cq : byClass) {
      cq.mayHelp = true;
    }
  }
}
