package dev.tailor.auto;

import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicySpec;
import dev.tailor.core.policy.SystemView;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * When to rebuild, the rebuilds themselves, and their account. A rebuild is due once both the
 * period and the request count have passed since the last one ended, and no sooner than the CPU
 * share allows after what the last one cost. After a rebuild, the work of the first {@link
 * ShiftDetector#REFERENCE} requests served becomes the reference (work depends on the threads the
 * live policy gives, so it is taken afresh under each), and then every {@link ShiftDetector#WINDOW}
 * requests the recent work is tested against it; a shift keeps only the recent samples and shortens
 * the next wait to a quarter of the period. A swap is on trial until the swapped-in policy has
 * served {@link #TRIAL} requests ({@link #judgeSwap}); no rebuild runs meanwhile.
 *
 * <p>Rebuilds and shift checks run one at a time, on one daemon thread at the lowest priority, or
 * inline on the thread that made them due (for the simulator, {@link AutoPolicy#forSimulation}).
 * Whatever a rebuild throws, or a rebuild that runs past its limit, is counted and leaves the live
 * policy serving.
 */
final class Rebuilder implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(Rebuilder.class.getName());

  /** Requests a swapped-in policy serves before it is judged against the one it replaced. */
  static final int TRIAL = 500;

  /**
   * How much worse than before a swapped-in policy's served P99 may be before it is rolled back.
   */
  static final double ROLLBACK = 1.25;

  private final AutoSettings settings;
  private final Reservoir reservoir;
  private final Reservoir probed;
  private final AtomicReference<Policy> live;
  private final double faultShare;
  private final SplittableRandom faults;
  private final boolean inline;
  private final ExecutorService executor; // null when inline
  // The executor's one thread, once started: close() joins it, as the executor's termination can
  // be signalled while its thread is still ending.
  private volatile Thread thread;
  private final long createdWallNanos = System.nanoTime();

  // Guarded by this.
  private boolean started;
  private boolean busy;
  private long lastEndNanos;
  private long sinceRebuild;
  private long sinceShiftCheck;
  private long nextPeriodNanos;
  private long lastCostNanos;
  private long[] reference = new long[0]; // empty until taken after a rebuild
  private boolean rebuiltOnce;
  private SystemView clock;
  private int cores = 1;
  private int maxDegree = 1;
  private long seed = 1;

  // Written by the task, read by status().
  private volatile long rebuilds;
  private volatile long swaps;
  private volatile long kept;
  private volatile long skipped;
  private volatile long failures;
  private volatile String lastFailure;
  private volatile long shifts;
  private volatile long cpuNanos;
  private volatile AutoStatus.Verdict last;
  private volatile long firstComparedNanos = -1;
  private volatile long rollbacks;
  private volatile String lastRollback;

  // The swap on trial, guarded by this: the policy it replaced, kept until the swapped-in one has
  // served TRIAL requests, and the P99 and rate the replaced one had when it was replaced.
  private Policy onTrialFrom;
  private PolicySpec onTrialSpec;
  private double beforeP99;
  private double beforeRate;
  private PolicySpec blocked; // a candidate rolled back, not tried again by the next rebuild

  /**
   * @param faultShare the share of rebuilds made to throw, for fault drills; 0 in service
   * @param inline whether rebuilds run on the thread that made them due (the simulator's)
   */
  Rebuilder(
      AutoSettings settings,
      Reservoir reservoir,
      Reservoir probed,
      AtomicReference<Policy> live,
      double faultShare,
      boolean inline) {
    this.settings = settings;
    this.reservoir = reservoir;
    this.probed = probed;
    this.live = live;
    this.faultShare = faultShare;
    this.faults = new SplittableRandom(0x7a11);
    this.nextPeriodNanos = settings.periodNanos();
    this.inline = inline;
    this.executor =
        inline
            ? null
            : Executors.newSingleThreadExecutor(
                r -> {
                  Thread t = new Thread(r, "tailor-auto-rebuild");
                  t.setDaemon(true);
                  t.setPriority(Thread.MIN_PRIORITY);
                  thread = t;
                  return t;
                });
  }

  /**
   * A request has completed at {@code now} on {@code clock}'s time, with {@code cores} threads in
   * the scheduler and a request allowed {@code maxDegree}: counts it and starts a rebuild or a
   * shift check if one is due. Cheap: counting and comparing, and at most a task handed to the
   * rebuild thread.
   */
  void requestCompleted(long now, SystemView clock, int cores, int maxDegree) {
    Runnable task;
    synchronized (this) {
      if (!started) {
        started = true;
        lastEndNanos = now;
        this.clock = clock;
      }
      this.cores = Math.max(this.cores, cores);
      this.maxDegree = Math.max(this.maxDegree, maxDegree);
      sinceRebuild++;
      sinceShiftCheck++;
      if (busy) {
        return;
      }
      if (onTrialFrom != null && sinceRebuild >= TRIAL) {
        task = this::judgeSwap;
      } else if (onTrialFrom == null
          && sinceRebuild >= settings.requests()
          && now - lastEndNanos >= nextPeriodNanos) {
        task = this::rebuild;
      } else if (rebuiltOnce && sinceShiftCheck >= ShiftDetector.WINDOW) {
        sinceShiftCheck = 0;
        task = this::checkShift;
      } else {
        return;
      }
      busy = true;
    }
    if (executor == null) {
      task.run();
      return;
    }
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      synchronized (this) {
        busy = false; // closed: nothing more is rebuilt
      }
    }
  }

  /**
   * Judges the swap on trial by what it did, not by what the guard simulated: once the swapped-in
   * policy has served {@link #TRIAL} requests, if their P99 (probes aside) is more than {@link
   * #ROLLBACK} times the replaced policy's over its last {@link #TRIAL} while the arrival rate rose
   * by less than a tenth, the replaced policy serves again and the next rebuild does not offer the
   * rolled-back one; otherwise the replaced one is closed.
   */
  private void judgeSwap() {
    try {
      Samples served = reservoir.last(TRIAL);
      double after = served.p99LatencyUnprobed();
      double rate = served.rateRps();
      Policy from;
      double before;
      double rateBefore;
      PolicySpec spec;
      synchronized (this) {
        from = onTrialFrom;
        before = beforeP99;
        rateBefore = beforeRate;
        spec = onTrialSpec;
        onTrialFrom = null;
      }
      if (after > ROLLBACK * before && rate < 1.1 * rateBefore) {
        Policy swapped = live.getAndSet(from);
        swapped.close();
        rollbacks++;
        synchronized (this) {
          blocked = spec;
        }
        String why =
            String.format(
                java.util.Locale.ROOT,
                "rolled back %s: it served a P99 of %.2f ms against %.2f ms before it",
                spec,
                after / 1e6,
                before / 1e6);
        lastRollback = why;
        LOG.log(System.Logger.Level.WARNING, "auto: " + why);
      } else {
        from.close();
      }
    } finally {
      synchronized (this) {
        busy = false;
      }
    }
  }

  /**
   * Rebuilds now, on the calling thread, unless a rebuild or a shift check is under way.
   *
   * @return whether it rebuilt
   */
  boolean rebuildNow() {
    synchronized (this) {
      if (busy) {
        return false;
      }
      busy = true;
    }
    rebuild();
    return true;
  }

  private void rebuild() {
    long cost = 0;
    try {
      long s;
      int c;
      int p;
      synchronized (this) {
        s = seed++;
        c = cores;
        p = maxDegree;
      }
      if (faultShare > 0 && drawFault()) {
        throw new IllegalStateException("a fault drill failed this rebuild on purpose");
      }
      Samples samples = reservoir.snapshot();
      Samples probes = probed.snapshot();
      PolicySpec excluded;
      synchronized (this) {
        excluded = blocked;
        blocked = null;
      }
      Rebuild.Result r =
          Rebuild.run(
              samples,
              probes,
              c,
              p,
              live.get(),
              excluded,
              settings,
              s,
              System.nanoTime() + settings.timeoutNanos());
      AutoStatus.Verdict v = r.verdict();
      cost = v.cpuNanos();
      last = v;
      if (v.chosen() != null && firstComparedNanos < 0 && clock != null) {
        firstComparedNanos = clock.nanoTime();
      }
      if (r.policy() != null) {
        Policy old = live.getAndSet(r.policy());
        Samples served = reservoir.last(TRIAL);
        synchronized (this) {
          if (onTrialFrom != null) {
            onTrialFrom.close(); // a rebuild asked for by hand during a trial: judge the newest
          }
          onTrialFrom = old;
          onTrialSpec = r.identity();
          beforeP99 = served.p99LatencyUnprobed();
          beforeRate = served.rateRps();
        }
        swaps++;
      } else if (v.chosen() == null) {
        skipped++;
      } else {
        kept++;
      }
      LOG.log(System.Logger.Level.INFO, "auto rebuild: " + v.reason());
      AutoEvents.rebuilt(v, live.get().spec());
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      failures++;
      lastFailure = e.toString();
      LOG.log(System.Logger.Level.WARNING, "auto rebuild failed, the live policy keeps serving", e);
      AutoEvents.failed(e.toString());
    } finally {
      rebuilds++;
      cpuNanos += cost;
      synchronized (this) {
        // Work depends on the threads the live policy gives, so the reference for the shift test
        // is taken afresh under the policy serving after this rebuild.
        reference = new long[0];
        rebuiltOnce = true;
        sinceRebuild = 0;
        sinceShiftCheck = 0;
        lastEndNanos = clock == null ? lastEndNanos : clock.nanoTime();
        lastCostNanos = cost;
        nextPeriodNanos = Math.max(settings.periodNanos(), capNanos());
        busy = false;
      }
    }
  }

  private void checkShift() {
    try {
      long[] ref;
      long since;
      synchronized (this) {
        ref = reference;
        since = sinceRebuild;
      }
      if (ref.length == 0) {
        // The first requests served by the policy since the last rebuild become the reference.
        if (since >= ShiftDetector.REFERENCE) {
          long[] taken =
              reservoir.last(ShiftDetector.REFERENCE).recentWorkSorted(ShiftDetector.REFERENCE);
          synchronized (this) {
            reference = taken;
          }
        }
        return;
      }
      long[] recent = reservoir.last(ShiftDetector.WINDOW).recentWorkSorted(ShiftDetector.WINDOW);
      if (ShiftDetector.shifted(ref, recent)) {
        shifts++;
        reservoir.keepLast(ShiftDetector.WINDOW);
        probed.keepLast(0); // the old mix's sizes and speedups
        synchronized (this) {
          reference = new long[0];
          sinceRebuild = ShiftDetector.WINDOW; // the samples of the new mix kept
          nextPeriodNanos = Math.max(settings.periodNanos() / 4, capNanos());
        }
        LOG.log(System.Logger.Level.INFO, "auto: the query mix shifted; rebuilding sooner");
      }
    } finally {
      synchronized (this) {
        busy = false;
      }
    }
  }

  /** The least wait after the last rebuild that keeps rebuilds within their CPU share. */
  private long capNanos() {
    // Inline (simulated) rebuilds take no time on the virtual clock: the cap is about real cores.
    return inline ? 0 : (long) (lastCostNanos / settings.cpuShare());
  }

  private synchronized boolean drawFault() {
    return faults.nextDouble() < faultShare;
  }

  /** The last rebuild's verdict, or null. */
  AutoStatus.Verdict last() {
    return last;
  }

  /** Swaps and rollbacks so far: how many times the serving policy was replaced. */
  long replacements() {
    return swaps + rollbacks;
  }

  /** The account so far, with the policy's count of probed requests. */
  AutoStatus status(long probes) {
    long period;
    synchronized (this) {
      period = nextPeriodNanos;
    }
    long cpu = cpuNanos;
    long alive = Math.max(1, System.nanoTime() - createdWallNanos);
    return new AutoStatus(
        live.get().spec(),
        reservoir.size(),
        reservoir.capacity(),
        reservoir.bytes() + probed.bytes(),
        reservoir.dropped(),
        probes,
        rebuilds,
        swaps,
        kept,
        skipped,
        failures,
        lastFailure,
        shifts,
        cpu,
        cpu / (double) alive,
        period,
        rollbacks,
        lastRollback,
        firstComparedNanos,
        last);
  }

  /**
   * Stops the rebuild thread: a rebuild under way is abandoned at its next step, and waited for (a
   * minute at most), so that no thread of the policy outlives it. Idempotent.
   */
  @Override
  public void close() {
    if (executor != null) {
      executor.shutdownNow();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      try {
        boolean stopped = executor.awaitTermination(1, TimeUnit.MINUTES);
        Thread t = thread;
        if (stopped && t != null) {
          // Terminated is signalled from the thread's last steps; it has ended once joined.
          stopped = t.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        }
        if (!stopped) {
          LOG.log(System.Logger.Level.WARNING, "auto: a rebuild did not stop within a minute");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
