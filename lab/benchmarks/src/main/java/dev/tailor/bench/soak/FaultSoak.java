package dev.tailor.bench.soak;

import dev.tailor.auto.AutoPolicy;
import dev.tailor.auto.AutoSettings;
import dev.tailor.auto.AutoStatus;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.SchedulerListener;
import dev.tailor.core.Tuning;
import dev.tailor.core.io.AtomicFiles;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.policy.FewToManyPolicy;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.TailControlPolicy;
import dev.tailor.core.policy.TpcPolicy;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TargetTable;
import dev.tailor.core.table.ThresholdTable;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * A fault soak of the runtime: many requests of every troublesome kind through one {@link
 * Scheduler}, checked for what must hold whatever happens. The kinds: bodies that throw, units that
 * throw, requests cancelled at once (mostly while queued) and in the middle of their run, slow
 * ones, nested ones (a body that submits a request to the same scheduler and waits for it, or runs
 * one inline), and callers running requests on their own threads. The policy answers from three
 * table-driven policies (Few-to-Many, TPC, tail-control) whose table files are replaced during the
 * run by good tables (the real writers) and corrupt ones (garbage written atomically), answers a
 * tenth of its questions with random degrees and admissions, and throws at one question in ten
 * thousand.
 *
 * <p>What is checked: every request completes exactly once (its future's callbacks counted per
 * request) with the outcome its kind allows, and is reported exactly once (the listener's
 * completions counted per request id, and the metrics' total); no scheduler thread dies (all alive
 * at every sample, none has an uncaught exception, with a default handler installed) and all exit
 * at close; no thread is left behind; used heap after a full GC, sampled every so many requests,
 * stays flat. Nothing here is timed except the run as a whole, which is reported, not judged.
 */
public final class FaultSoak {

  /** What to run. */
  public record Options(
      long requests, int workers, int callers, long sampleEvery, long swapEvery, long seed) {

    /**
     * Checks the options.
     *
     * @throws IllegalArgumentException naming the option and the value
     */
    public Options {
      if (requests < 1 || requests > Integer.MAX_VALUE / 4) {
        throw new IllegalArgumentException(
            "--requests must be 1.." + Integer.MAX_VALUE / 4 + ", got " + requests);
      }
      if (workers < 1) {
        throw new IllegalArgumentException("--workers must be >= 1, got " + workers);
      }
      if (callers < 0) {
        throw new IllegalArgumentException("--callers must be >= 0, got " + callers);
      }
      if (sampleEvery < 1 || swapEvery < 1) {
        throw new IllegalArgumentException(
            "--sample-every and --swap-every must be >= 1, got " + sampleEvery + ", " + swapEvery);
      }
    }
  }

  /**
   * How long the soak waits without progress before it calls the run stalled (a deadlock, a lost
   * wake-up) and reports what each scheduler thread is doing, rather than hang.
   */
  private static final long STALL_MINUTES = 2;

  private final Options o;
  private final int permits;
  private final Semaphore inFlight;
  private final AtomicIntegerArray reported;
  private final LongAdder cancelledBeforeStart = new LongAdder(); // as the listener saw them
  private final List<Thread> schedulerThreads = new CopyOnWriteArrayList<>();
  private final LongAdder uncaught = new LongAdder();
  private final AtomicReference<String> firstUncaught = new AtomicReference<>();
  private Scheduler scheduler;
  private SoakRequests requests;

  private FaultSoak(Options o) {
    this.o = o;
    this.permits = Math.max(64, 256 * o.workers());
    this.inFlight = new Semaphore(permits);
    this.reported = new AtomicIntegerArray((int) (2 * o.requests() + 2));
  }

  /** Runs the soak; {@code progress} hears a line at every heap sample. */
  public static SoakReport run(Options o, Consumer<String> progress) throws Exception {
    return new FaultSoak(o).execute(progress);
  }

  private SoakReport execute(Consumer<String> progress) throws Exception {
    Path dir = Files.createTempDirectory("tailor-soak");
    WarningCount warnings = new WarningCount();
    Thread.UncaughtExceptionHandler previousDefault = Thread.getDefaultUncaughtExceptionHandler();
    Thread.UncaughtExceptionHandler handler =
        (t, e) -> {
          uncaught.increment();
          firstUncaught.compareAndSet(null, t.getName() + ": " + e);
        };
    Thread.setDefaultUncaughtExceptionHandler(handler);
    try {
      Path fmFile = dir.resolve("fm.json");
      Path tpcFile = dir.resolve("tpc.json");
      Path tcFile = dir.resolve("tc.json");
      SoakTables.fm(0).write(fmFile);
      SoakTables.tpc(0).write(tpcFile);
      SoakTables.tc(0).write(tcFile);
      FewToManyPolicy fm = FewToManyPolicy.watching(fmFile);
      TpcPolicy tpc = TpcPolicy.watching(TpcPolicy.Variant.TPC, tpcFile);
      TailControlPolicy tc = TailControlPolicy.watching(TailControlPolicy.Variant.TC, tcFile);
      // auto learns from every request and rebuilds often, half its rebuilds failing on purpose.
      AutoPolicy auto =
          AutoPolicy.drill(
              AutoSettings.parse(
                  "requests=500,period=1s,samples=1000,requests-per-point=200,seeds=1,"
                      + "iterations=1"),
              0.5);
      SoakPolicy policy = new SoakPolicy(new Policy[] {fm, tpc, tc, auto}, o.workers());
      TableSwapper swapper =
          new TableSwapper(
              new TableSwapper.Target<>(fmFile, fm.table(), SoakTables::fm, IntervalTable::write),
              new TableSwapper.Target<>(tpcFile, tpc.table(), SoakTables::tpc, TargetTable::write),
              new TableSwapper.Target<>(tcFile, tc.table(), SoakTables::tc, ThresholdTable::write));
      Set<Thread> before = liveThreads();
      List<SoakReport.HeapSample> heap = new ArrayList<>();
      heap.add(new SoakReport.HeapSample(0, usedHeapAfterGc()));
      int fewestAlive = Integer.MAX_VALUE;
      long start = System.nanoTime();

      ThreadFactory factory =
          r -> {
            Thread t = new Thread(r, "soak-scheduler-" + schedulerThreads.size());
            t.setDaemon(true);
            t.setUncaughtExceptionHandler(handler);
            schedulerThreads.add(t);
            return t;
          };
      scheduler =
          Scheduler.builder()
              .policy(policy)
              .workers(o.workers())
              .tuning(
                  Tuning.defaults()
                      .withQueueCapacity(4 * permits + o.callers() + 16)
                      .withQuantum(Duration.ofMillis(1)))
              .threadFactory(factory)
              .listener(
                  new SchedulerListener() {
                    @Override
                    public void requestCompleted(RequestRecord record) {
                      reported.incrementAndGet((int) Math.min(record.id(), reported.length() - 1));
                      if (record.outcome() == RequestRecord.Outcome.CANCELLED
                          && record.maxThreads() == 0) {
                        cancelledBeforeStart.increment(); // no thread ever worked on it
                      }
                    }
                  })
              .build();
      requests = new SoakRequests(o, scheduler);
      Thread canceller = new Thread(requests::cancelMidRun, "soak-canceller");
      canceller.setDaemon(true);
      canceller.start();
      List<Thread> callers = new ArrayList<>();
      for (int c = 0; c < o.callers(); c++) {
        int first = c * SoakRequests.CALLER_SHARE;
        Thread caller = new Thread(() -> runOnCaller(first), "soak-caller-" + c);
        caller.setDaemon(true);
        callers.add(caller);
        caller.start();
      }

      String stalled = null;
      for (long i = 0; i < o.requests() && stalled == null; i++) {
        if (i > 0 && i % o.swapEvery() == 0) {
          swapper.swap(SoakRequests.mix(o.seed(), -i));
        }
        if (i > 0 && i % o.sampleEvery() == 0) {
          heap.add(new SoakReport.HeapSample(i, usedHeapAfterGc()));
          fewestAlive = Math.min(fewestAlive, aliveSchedulerThreads());
          progress.accept(
              String.format(
                  Locale.ROOT,
                  "soak: %,d of %,d requests started, %.0f s",
                  i,
                  o.requests(),
                  (System.nanoTime() - start) / 1e9));
        }
        if (requests.onCaller(i)) {
          continue;
        }
        if (!inFlight.tryAcquire(STALL_MINUTES, TimeUnit.MINUTES)) {
          stalled = stall("submitting request " + i);
          break;
        }
        submit((int) i);
      }
      for (Thread caller : callers) {
        caller.join(stalled == null ? TimeUnit.MINUTES.toMillis(STALL_MINUTES) : 1);
        if (stalled == null && caller.isAlive()) {
          stalled = stall(caller.getName() + " running its requests");
        }
      }
      // Every submitted future has completed...
      if (stalled == null && !inFlight.tryAcquire(permits, STALL_MINUTES, TimeUnit.MINUTES)) {
        stalled = stall("waiting for the last futures");
      }
      fewestAlive = Math.min(fewestAlive, aliveSchedulerThreads());
      // ...and every request has ended and been reported.
      scheduler.shutdown();
      if (stalled == null && !scheduler.awaitTermination(STALL_MINUTES, TimeUnit.MINUTES)) {
        stalled = stall("waiting for the scheduler to terminate");
      }
      canceller.interrupt();
      canceller.join();
      double seconds = (System.nanoTime() - start) / 1e9;
      heap.add(new SoakReport.HeapSample(o.requests(), usedHeapAfterGc()));
      int aliveAfterClose = 0;
      for (Thread t : schedulerThreads) {
        t.join(stalled == null ? TimeUnit.MINUTES.toMillis(1) : 1);
        aliveAfterClose += t.isAlive() ? 1 : 0;
      }
      fm.close();
      tpc.close();
      tc.close();
      AutoStatus learned = auto.status();
      auto.close();
      Set<Thread> after = liveThreads();
      List<String> leftBehind = new ArrayList<>();
      for (Thread t : after) {
        if (!before.contains(t) && !t.getName().contains("CompilerThread")) {
          leftBehind.add(t.getName());
        }
      }

      SoakRequests.Counts counts = requests.counts();
      long idsExpected = o.requests() + counts.nestedSubmitted();
      long idsReported = 0;
      long idsNotOnce = 0;
      for (int id = 1; id < reported.length(); id++) {
        int n = reported.get(id);
        idsReported += n > 0 ? 1 : 0;
        if ((id <= idsExpected && n != 1) || (id > idsExpected && n != 0)) {
          idsNotOnce++;
        }
      }
      long metricsTotal = 0;
      for (RequestRecord.Outcome outcome : RequestRecord.Outcome.values()) {
        metricsTotal += SchedulerInternals.metrics(scheduler).count(outcome);
      }
      return new SoakReport(
          o,
          o.requests(),
          counts.nestedSubmitted(),
          counts.completed(),
          counts.failed(),
          counts.cancelled(),
          cancelledBeforeStart.sum(),
          counts.unexpected(),
          counts.unexpectedExamples(),
          counts.completionsNotOnce(),
          idsReported,
          idsNotOnce,
          metricsTotal,
          counts.midRunNotCancelled(),
          schedulerThreads.size(),
          fewestAlive == Integer.MAX_VALUE ? schedulerThreads.size() : fewestAlive,
          aliveAfterClose,
          uncaught.sum(),
          firstUncaught.get(),
          before.size(),
          after.size(),
          leftBehind,
          swapper.good,
          swapper.swappedIn,
          swapper.corrupt,
          swapper.rejected,
          policy.thrown.sum(),
          learned.rebuilds(),
          learned.failures(),
          learned.swaps() + learned.kept() + learned.skipped(),
          learned.samplesDropped(),
          warnings.byLogger(),
          heap,
          seconds,
          stalled);
    } finally {
      if (scheduler != null) {
        scheduler.shutdownNow();
      }
      Thread.setDefaultUncaughtExceptionHandler(previousDefault);
      warnings.close();
      AtomicFiles.deleteTree(dir);
    }
  }

  // ---- the driver ---------------------------------------------------------------------------

  private void submit(int i) {
    int kind = requests.kind(i);
    AtomicReference<CompletableFuture<Integer>> self =
        kind == SoakRequests.CANCEL_MID_RUN ? new AtomicReference<>() : null;
    CompletableFuture<Integer> f;
    try {
      f =
          SchedulerInternals.submit(
              scheduler, requests.body(i, kind, self), requests.attributes(i));
    } catch (RuntimeException e) {
      inFlight.release();
      requests.rejected(i, e);
      return;
    }
    f.whenComplete(
        (value, failure) -> {
          inFlight.release();
          requests.outcome(i, kind, value, failure);
        });
    if (self != null) {
      self.set(f);
    }
    if (kind == SoakRequests.CANCEL_AT_ONCE) {
      f.cancel(true);
    }
  }

  private void runOnCaller(int first) {
    for (long i = first; i < o.requests(); i += (long) SoakRequests.CALLER_SHARE * o.callers()) {
      int index = (int) i;
      int kind = requests.kind(index);
      try {
        requests.outcome(
            index,
            kind,
            SchedulerInternals.run(
                scheduler, requests.body(index, kind, null), requests.attributes(index)),
            null);
      } catch (Exception e) {
        requests.outcome(index, kind, null, e);
      }
    }
  }

  // ---- threads and memory ---------------------------------------------------------------------

  /**
   * Describes a stall: where the soak waited, the scheduler's state, and where each scheduler
   * thread and caller is, by its innermost frame outside the JDK.
   */
  private String stall(String where) {
    StringBuilder s =
        new StringBuilder(
            "no progress for " + STALL_MINUTES + " minutes " + where + "; " + scheduler);
    for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
      String name = e.getKey().getName();
      if (!name.startsWith("soak-")) {
        continue;
      }
      for (StackTraceElement frame : e.getValue()) {
        if (!frame.getClassName().startsWith("java.") && !frame.getClassName().startsWith("jdk.")) {
          s.append("; ").append(name).append(" in ").append(frame);
          break;
        }
      }
    }
    return s.toString();
  }

  private int aliveSchedulerThreads() {
    int alive = 0;
    for (Thread t : schedulerThreads) {
      alive += t.isAlive() ? 1 : 0;
    }
    return alive;
  }

  private static Set<Thread> liveThreads() {
    return new HashSet<>(Thread.getAllStackTraces().keySet());
  }

  private static long usedHeapAfterGc() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
