package dev.tailor.bench.soak;

import dev.tailor.core.RequestAttributes;
import dev.tailor.core.RequestBody;
import dev.tailor.core.RequestContext;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The requests of a {@link FaultSoak} and the check of how each ended: every request's kind,
 * attributes and body are drawn from the seed and its index alone, and its outcome (its future's
 * completion, or what its caller saw) is counted once and checked against what its kind allows.
 * Thread-safe: submitters, callers, scheduler threads and the canceller share one.
 */
final class SoakRequests {

  // The kinds of request, by how they behave.
  static final int NORMAL = 0;
  static final int SLOW = 1;
  static final int BODY_FAILS = 2;
  static final int UNIT_FAILS = 3;
  static final int CANCEL_AT_ONCE = 4;
  static final int CANCEL_MID_RUN = 5;
  static final int NESTED_SUBMIT = 6;
  static final int NESTED_RUN = 7;

  /** Every this many requests one runs on a caller's thread ({@link Scheduler#run}). */
  static final int CALLER_SHARE = 10;

  private static final long MIDRUN_GUARD_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final FaultSoak.Options o;
  private final Scheduler scheduler;
  private final AtomicIntegerArray completions;
  private final LongAdder nestedSubmitted = new LongAdder();
  private final LongAdder completed = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final LongAdder cancelled = new LongAdder();
  private final LongAdder unexpected = new LongAdder();
  private final List<String> unexpectedExamples = new CopyOnWriteArrayList<>();
  private final LongAdder midRunNotCancelled = new LongAdder();
  private final BlockingQueue<CompletableFuture<?>> toCancel = new LinkedBlockingQueue<>();

  SoakRequests(FaultSoak.Options o, Scheduler scheduler) {
    this.o = o;
    this.scheduler = scheduler;
    this.completions = new AtomicIntegerArray((int) o.requests());
  }

  /** Whether request {@code i} runs on a caller's thread. */
  boolean onCaller(long i) {
    return o.callers() > 0 && i % CALLER_SHARE == 0;
  }

  /** A well-mixed 64-bit hash of the seed and a request's index, its plan's only source. */
  static long mix(long seed, long i) {
    long z = seed + i * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The kind of request {@code i}. */
  int kind(int i) {
    int roll = (int) Long.remainderUnsigned(mix(o.seed(), i), 1000);
    int kind =
        roll < 30
            ? BODY_FAILS
            : roll < 45
                ? UNIT_FAILS
                : roll < 65
                    ? CANCEL_AT_ONCE
                    : roll < 80
                        ? CANCEL_MID_RUN
                        : roll < 130
                            ? SLOW
                            : roll < 155 ? NESTED_SUBMIT : roll < 180 ? NESTED_RUN : NORMAL;
    if (onCaller(i) && (kind == CANCEL_AT_ONCE || kind == CANCEL_MID_RUN)) {
      return NORMAL; // a caller's request has no future to cancel
    }
    return kind;
  }

  /** The attributes request {@code i} is submitted with. */
  RequestAttributes attributes(int i) {
    long h = mix(o.seed(), i);
    if ((h >>> 40 & 1) == 0) {
      return RequestAttributes.NONE;
    }
    return RequestAttributes.predicted(Long.remainderUnsigned(h >>> 41, 100_000_000L)); // < 100 ms
  }

  /** The body of request {@code i}: it returns {@code i}, or fails or waits as its kind says. */
  RequestBody<Integer> body(int i, int kind, AtomicReference<CompletableFuture<Integer>> self) {
    long h = mix(o.seed(), i);
    int units = (int) Long.remainderUnsigned(h >>> 10, 7);
    boolean joins = (h >>> 13 & 1) == 0 || kind == UNIT_FAILS;
    int work = (int) Long.remainderUnsigned(h >>> 14, 20_000);
    return ctx -> {
      int unitWork = kind == SLOW ? 50_000 : work;
      for (int u = 0; u < units; u++) {
        boolean fails = kind == UNIT_FAILS && u == units - 1;
        ctx.fork(
            () -> {
              spin(unitWork);
              if (fails) {
                throw new SoakFailure();
              }
            });
      }
      if (kind == UNIT_FAILS && units == 0) {
        ctx.fork(
            () -> {
              throw new SoakFailure();
            });
      }
      spin(kind == SLOW ? 300_000 : work / 4);
      switch (kind) {
        case BODY_FAILS -> throw new SoakFailure();
        case CANCEL_MID_RUN -> awaitCancellation(ctx, self);
        case NESTED_SUBMIT -> {
          nestedSubmitted.increment();
          CompletableFuture<Integer> inner = SchedulerInternals.submit(scheduler, c -> i);
          if (inner.get() != i) {
            throw new IllegalStateException("request " + i + ": its nested request's result");
          }
        }
        case NESTED_RUN -> {
          if (SchedulerInternals.run(scheduler, c -> i) != i) {
            throw new IllegalStateException("request " + i + ": its inline request's result");
          }
        }
        default -> {}
      }
      if (joins) {
        ctx.joinUnits();
      }
      return i;
    };
  }

  /** Hands the request's own future to the canceller, then runs until it sees the cancellation. */
  private void awaitCancellation(
      RequestContext ctx, AtomicReference<CompletableFuture<Integer>> self) {
    long deadline = System.nanoTime() + MIDRUN_GUARD_NANOS;
    CompletableFuture<Integer> f;
    while ((f = self.get()) == null) {
      Thread.yield(); // the submitter sets it as soon as submit returns
    }
    toCancel.add(f);
    while (!ctx.isCancelled()) {
      if (System.nanoTime() - deadline > 0) {
        midRunNotCancelled.increment();
        return;
      }
      Thread.yield();
    }
  }

  /** Cancels, until interrupted, the futures that requests cancelled mid-run hand over. */
  void cancelMidRun() {
    try {
      while (true) {
        toCancel.take().cancel(true);
      }
    } catch (InterruptedException e) {
      // the soak is over
    }
  }

  /** Counts a request's completion and checks its outcome against its kind. */
  void outcome(int i, int kind, Integer value, Throwable failure) {
    if (completions.incrementAndGet(i) != 1) {
      return; // counted: completed other than once
    }
    if (failure == null) {
      if (kind == BODY_FAILS || kind == UNIT_FAILS || kind == CANCEL_MID_RUN) {
        unexpected(i, "kind " + kind + " completed");
      } else if (value == null || value != i) {
        unexpected(i, "returned " + value);
      } else {
        completed.increment();
      }
      return;
    }
    if (failure instanceof CancellationException) {
      if (kind == CANCEL_AT_ONCE || kind == CANCEL_MID_RUN) {
        cancelled.increment();
      } else {
        unexpected(i, "kind " + kind + " cancelled");
      }
      return;
    }
    if ((kind == BODY_FAILS || kind == UNIT_FAILS) && causedBySoak(failure)) {
      failed.increment();
    } else {
      unexpected(i, "kind " + kind + " failed: " + failure);
    }
  }

  private static boolean causedBySoak(Throwable t) {
    for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
      if (t instanceof SoakFailure) {
        return true;
      }
    }
    return false;
  }

  private void unexpected(int i, String what) {
    unexpected.increment();
    if (unexpectedExamples.size() < 5) {
      unexpectedExamples.add("request " + i + ": " + what);
    }
  }

  private static volatile long sink;

  /** About {@code iterations} nanoseconds of processor work. */
  private static void spin(int iterations) {
    long x = iterations;
    for (int k = 0; k < iterations; k++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
    }
    sink = x;
  }

  /** The planned failure of a body or a unit: no stack trace, it is expected. */
  private static final class SoakFailure extends RuntimeException {
    SoakFailure() {
      super("planned failure", null, false, false);
    }
  }

  /** Counts request {@code i}, which the scheduler refused to take. */
  void rejected(int i, RuntimeException e) {
    completions.incrementAndGet(i);
    unexpected(i, "rejected: " + e);
  }

  /**
   * How the requests ended, counted so far.
   *
   * @param nestedSubmitted requests that nested bodies submitted
   * @param completed requests that returned their own index
   * @param failed requests that failed as their kind planned
   * @param cancelled requests cancelled as their kind planned
   * @param unexpected outcomes their kind does not allow
   * @param unexpectedExamples the first few of those, described
   * @param completionsNotOnce requests that completed other than exactly once
   * @param midRunNotCancelled requests waiting to be cancelled mid-run that never saw it
   */
  record Counts(
      long nestedSubmitted,
      long completed,
      long failed,
      long cancelled,
      long unexpected,
      List<String> unexpectedExamples,
      long completionsNotOnce,
      long midRunNotCancelled) {}

  /** The counts so far; read once every request has ended. */
  Counts counts() {
    long notOnce = 0;
    for (int i = 0; i < completions.length(); i++) {
      notOnce += completions.get(i) == 1 ? 0 : 1;
    }
    return new Counts(
        nestedSubmitted.sum(),
        completed.sum(),
        failed.sum(),
        cancelled.sum(),
        unexpected.sum(),
        List.copyOf(unexpectedExamples),
        notOnce,
        midRunNotCancelled.sum());
  }
}
