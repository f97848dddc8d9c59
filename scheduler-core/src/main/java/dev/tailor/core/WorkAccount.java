package dev.tailor.core;

import static dev.tailor.core.policy.RequestView.UNKNOWN;

import dev.tailor.core.metrics.RequestLedger;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.model.WindowProgress;

/**
 * A request's accounting: the work its threads did and the degrees it ran at ({@link
 * RequestLedger}), the windows it planned and finished ({@link WindowProgress}), when its own
 * thread first ran, and whether it counts as long (then its working threads count in the pool's
 * {@code longThreads}, which policies read as {@code busyThreadsOnLongRequests}).
 *
 * <p>It stands apart from {@link Request} because it is the one part of the request that is guarded
 * by a monitor rather than by the dispatch lock or a volatile: every field here is guarded by the
 * request's own monitor (the {@link Request} object, not this one), so that the request can change
 * its own thread and its count of working threads in one critical section ({@link
 * Request#beginOwn}), and so that the degree is changed with the ledger's record of it. The long
 * flag is volatile as well, so that it may be read without the monitor.
 */
final class WorkAccount {

  /** The request; its monitor guards everything below. */
  private final Request<?> request;

  private final RequestLedger ledger = new RequestLedger(); // guarded by request
  private final WindowProgress windows = new WindowProgress(); // guarded by request
  private long firstRunNanos = UNKNOWN; // guarded by request: when beginOwn first ran
  private volatile boolean isLong; // written under request's monitor, read without it

  WorkAccount(Request<?> request) {
    this.request = request;
  }

  /** The request starts at {@code start} with {@code degree}: the ledger's first degree. */
  void start(int degree, long start) {
    synchronized (request) {
      ledger.start(degree, start);
      request.degree = degree;
    }
  }

  /**
   * The own thread starts working at {@code now}; the first time, that is the breakdown's end of
   * dispatch. The caller may hold the request's monitor (it is reentrant).
   */
  void beginOwnWork(long now) {
    synchronized (request) {
      beginWork(now);
      if (firstRunNanos == UNKNOWN) {
        firstRunNanos = now; // the breakdown's end of dispatch: no clock read of its own
      }
    }
  }

  /** One more thread works on the request from {@code now}. */
  void beginWork(long now) {
    synchronized (request) {
      int working = ledger.working() + 1;
      ledger.working(working, now);
      ledger.threadsSeen(working);
      if (isLong) {
        request.pool.longThreads.incrementAndGet();
      }
    }
  }

  /** One thread fewer works on the request from {@code now}. */
  void endWork(long now) {
    synchronized (request) {
      ledger.working(ledger.working() - 1, now);
      if (isLong) {
        request.pool.longThreads.decrementAndGet();
      }
    }
  }

  /** Changes a running request's degree and returns the old one. */
  int changeDegree(int d, long now) {
    synchronized (request) {
      int old = ledger.changeDegree(d, now);
      request.degree = d;
      return old;
    }
  }

  /** Flags the request long once its prediction or its work reaches the threshold. */
  void checkLong(long thresholdNanos, long now) {
    if (isLong) {
      return;
    }
    long predicted = request.attributes.predictedSequentialNanos();
    if ((predicted != UNKNOWN && predicted >= thresholdNanos) || workNanos(now) >= thresholdNanos) {
      synchronized (request) {
        if (!isLong) {
          isLong = true;
          request.pool.longThreads.addAndGet(ledger.working());
        }
      }
    }
  }

  boolean isLong() {
    return isLong;
  }

  long workNanos(long now) {
    synchronized (request) {
      return ledger.workNanos(now);
    }
  }

  void windowsPlanned(int n) {
    synchronized (request) {
      windows.planned(n);
    }
  }

  void windowsFinished(int n, long nanos) {
    synchronized (request) {
      windows.finished(n, nanos);
    }
  }

  /** The sequential time projected from the finished windows ({@link WindowProgress}). */
  long projectedSequentialNanos() {
    synchronized (request) {
      return windows.projectedNanos(
          request.predictedSequentialNanos(), ledger.workNanos(request.pool.nanoTime()));
    }
  }

  /** The request's record, for {@link Completion#terminate}. */
  RequestRecord record(long end, RequestRecord.Outcome outcome) {
    synchronized (request) {
      long start = request.startNanos == UNKNOWN ? end : request.startNanos;
      long firstRun = firstRunNanos == UNKNOWN ? start : Math.clamp(firstRunNanos, start, end);
      return ledger.record(
          request.id,
          request.attributes.label(),
          request.arrivalNanos,
          start,
          firstRun,
          end,
          outcome);
    }
  }
}
