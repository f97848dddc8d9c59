package dev.tailor.studies.balance;

import java.util.ArrayDeque;

/** See {@link Balancer#singleQueue(long, long)}. */
final class SingleQueue implements Balancer {

  private static final int ARRIVE = 0;
  private static final int ENQUEUED = 1;
  private static final int DEQUEUED = 2;
  private static final int FINISH = 3;

  private final long operationNanos;
  private final long contentionNanos;

  SingleQueue(long operationNanos, long contentionNanos) {
    this.operationNanos = Balancer.checkCost(operationNanos, "queue operation cost");
    this.contentionNanos = Balancer.checkCost(contentionNanos, "queue contention cost");
  }

  @Override
  public String name() {
    return "single-queue";
  }

  @Override
  public Run run(long[] arrivalNanos, long[] serviceNanos, int cores, long seed) {
    Balancer.checkInputs(arrivalNanos, serviceNanos, cores);
    int n = arrivalNanos.length;
    Ledger ledger = new Ledger(arrivalNanos, serviceNanos);
    Lock lock = new Lock();
    ArrayDeque<Integer> queue = new ArrayDeque<>();
    // Idle cores in the order they became idle; a core handed a request leaves at once, so the
    // queue holds a request no core has claimed only while every core is busy.
    ArrayDeque<Integer> idle = new ArrayDeque<>();
    for (int c = 0; c < cores; c++) {
      idle.add(c);
    }
    int claimed = 0;
    Events events = new Events();
    if (n > 0) {
      events.at(arrivalNanos[0], ARRIVE, 0);
    }
    for (Events.Event e = events.next(); e != null; e = events.next()) {
      long t = e.time();
      switch (e.kind()) {
        case ARRIVE -> {
          int i = e.subject();
          events.at(lock.hold(t), ENQUEUED, i);
          if (i + 1 < n) {
            events.at(arrivalNanos[i + 1], ARRIVE, i + 1);
          }
        }
        case ENQUEUED -> {
          queue.add(e.subject());
          if (!idle.isEmpty()) {
            claimed++;
            events.at(lock.hold(t), DEQUEUED, idle.poll());
          }
        }
        case DEQUEUED -> {
          claimed--;
          int c = e.subject();
          events.at(ledger.start(queue.poll(), c, t), FINISH, c);
        }
        case FINISH -> {
          int c = e.subject();
          if (queue.size() > claimed) {
            claimed++;
            events.at(lock.hold(t), DEQUEUED, c);
          } else {
            idle.add(c);
          }
        }
        default -> throw new AssertionError(e);
      }
    }
    return ledger.run();
  }

  /**
   * The queue's lock: operations hold it one at a time in the order they ask, each for the
   * operation cost plus the contention cost per operation still ahead of it.
   */
  private final class Lock {
    private final ArrayDeque<Long> releases = new ArrayDeque<>();
    private long freeAt;

    /** An operation asking at {@code t}: returns when it is done. */
    long hold(long t) {
      while (!releases.isEmpty() && releases.peekFirst() <= t) {
        releases.pollFirst();
      }
      long done = Math.max(t, freeAt) + operationNanos + contentionNanos * releases.size();
      freeAt = done;
      releases.addLast(done);
      return done;
    }
  }
}
