package dev.tailor.bench;

import dev.tailor.core.RequestBody;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.Tuning;
import dev.tailor.core.policy.Policies;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code bench scheduler-overhead}: the Scheduler's cost per trivial request against a
 * ThreadPoolExecutor; the added cost of going parallel, with idle threads spinning before they park
 * ({@link dev.tailor.core.Tuning#withSpinBeforePark}, by default) and without; and what the
 * spinning costs in processor time, idle and under a light load; and what the latency breakdown
 * adds to a request and the projection to a claim of windows. All but the processor time come from
 * the JMH benchmarks {@code SchedulerOverheadBenchmark}, {@code HelperUnitBenchmark}, {@code
 * BreakdownCostBenchmark} and {@code ProjectionCostBenchmark}, run together in one JMH run; the
 * processor time is measured in this process afterwards.
 */
public final class SchedulerOverheadBench {

  static final double RATIO_GOAL = 1.10;
  static final double ADDED_NANOS_GOAL = 1_000;
  static final double FIXED_NANOS_GOAL = 10_000;
  static final double IDLE_CPU_GOAL_PERCENT = 1.0;
  private static final int FEW = 32;
  private static final int MANY = 512;

  /** {@code HelperUnitBenchmark}'s spin parameter: parking at once, and the builder's default. */
  static final String SPIN_OFF = "0";

  static final String SPIN_DEFAULT = "default";

  /** The light load: one request of {@value #LIGHT_UNITS} trivial units every millisecond. */
  static final int LIGHT_UNITS = 4;

  private static final long LIGHT_PERIOD_NANOS = 1_000_000;
  private static final int WARM_UP_REQUESTS = 5_000;

  /** The benchmark's name, as {@code ./tailor bench} knows it. */
  public static final String NAME = "scheduler-overhead";

  private static final String PATTERN =
      "SchedulerOverheadBenchmark|HelperUnitBenchmark|BreakdownCostBenchmark"
          + "|ProjectionCostBenchmark";

  /** The most the latency breakdown may add to a request, nanoseconds. */
  static final double BREAKDOWN_NANOS_GOAL = 200;

  /** The most the projection may add to a claim of windows, nanoseconds. */
  static final double PROJECTION_NANOS_GOAL = 100;

  private SchedulerOverheadBench() {}

  /**
   * Runs the JMH benchmarks through {@code jmh} and prints their figures, then measures and prints
   * the processor time of idle and lightly loaded schedulers.
   *
   * @throws IOException if JMH fails or its results lack a benchmark
   */
  public static void run(JmhLauncher jmh, boolean quick, PrintWriter out)
      throws IOException, InterruptedException {
    int cores = Runtime.getRuntime().availableProcessors();
    print(jmh.run(PATTERN, quick), cores, out);
    Duration window = Duration.ofSeconds(quick ? 1 : 3);
    out.printf(
        "%nmeasuring processor time: a scheduler of %d workers, idle and under a light load,"
            + " %d s each...%n",
        cores, window.toSeconds());
    out.flush();
    printCpu(measureCpu(cores, window), out);
    out.flush();
  }

  static void print(Map<String, JmhLauncher.Score> s, int cores, PrintWriter out)
      throws IOException {
    out.printf("%nscheduler-overhead: measured on this machine (%d cores), one JMH run%n", cores);
    out.printf(
        "  %-32s %16s %16s %8s %11s%n",
        "per request", "ThreadPoolExec.", "Scheduler (seq)", "ratio", "added");
    JmhLauncher.Score tpe = JmhLauncher.score(s, "tpeRoundTrip");
    JmhLauncher.Score ours = JmhLauncher.score(s, "schedulerRoundTrip");
    row(out, "trivial request, round trip", tpe, ours);
    row(
        out,
        "trivial request, batches of 64",
        JmhLauncher.score(s, "tpeBatch"),
        JmhLauncher.score(s, "schedulerBatch"));

    out.printf(
        "%n  %-32s %16s %16s %8s %11s%n",
        "per request of N trivial units", "inline (d=1)", "parallel (d=2)", "ratio", "added");
    double[][] fixed = new double[2][2];
    double[][] perUnit = new double[2][2];
    String[] spins = {SPIN_OFF, SPIN_DEFAULT};
    String[] ways = {"released", "joined"};
    for (int i = 0; i < spins.length; i++) {
      String spin = "[spinMicros=" + spins[i] + "]";
      String spinLabel = i == 0 ? "spin off" : "spin on";
      JmhLauncher.Score fewInline = JmhLauncher.score(s, "inline" + spin + "[units=" + FEW + "]");
      JmhLauncher.Score manyInline = JmhLauncher.score(s, "inline" + spin + "[units=" + MANY + "]");
      for (int j = 0; j < ways.length; j++) {
        JmhLauncher.Score few = JmhLauncher.score(s, ways[j] + spin + "[units=" + FEW + "]");
        JmhLauncher.Score many = JmhLauncher.score(s, ways[j] + spin + "[units=" + MANY + "]");
        row(out, spinLabel + ", " + ways[j] + ", N = " + FEW, fewInline, few);
        row(out, spinLabel + ", " + ways[j] + ", N = " + MANY, manyInline, many);
        double fewAdded = few.score() - fewInline.score();
        double manyAdded = many.score() - manyInline.score();
        perUnit[i][j] = (manyAdded - fewAdded) / (MANY - FEW);
        fixed[i][j] = fewAdded - perUnit[i][j] * FEW;
      }
    }

    double ratio = ours.score() / tpe.score();
    double added = ours.score() - tpe.score();
    out.printf(
        "%n  goal: a trivial request at degree 1 costs at most %.2fx a ThreadPoolExecutor task and"
            + " at most %.0f ns more%n  measured (round trip): %.3fx, %+.0f ns -> %s%n",
        RATIO_GOAL,
        ADDED_NANOS_GOAL,
        ratio,
        added,
        ratio <= RATIO_GOAL && added <= ADDED_NANOS_GOAL ? "met" : "NOT met");
    JmhLauncher.Score without = JmhLauncher.score(s, "withoutBreakdown");
    JmhLauncher.Score with = JmhLauncher.score(s, "withBreakdown");
    double breakdown = with.score() - without.score();
    out.printf(
        "%n  latency breakdown (recording a finished request, same run): %.0f ns with it, %.0f ns"
            + " without%n  goal: at most %.0f ns more per request%n  measured: %+.0f ns -> %s%n",
        with.score(),
        without.score(),
        BREAKDOWN_NANOS_GOAL,
        breakdown,
        breakdown <= BREAKDOWN_NANOS_GOAL ? "met" : "NOT met");
    JmhLauncher.Score noReport = JmhLauncher.score(s, "noReport");
    JmhLauncher.Score claim = JmhLauncher.score(s, "claim");
    JmhLauncher.Score claimAndRead = JmhLauncher.score(s, "claimAndRead");
    double reported = claim.score() - noReport.score();
    double read = claimAndRead.score() - noReport.score();
    out.printf(
        "%n  projection, per claim of windows on a running request (same run): %.0f ns"
            + " reporting it, %.0f ns reporting it and reading the projection, %.0f ns neither%n"
            + "  goal: at most %.0f ns more per claim%n  measured: %+.0f ns a claim -> %s;"
            + " %+.0f ns with a policy's read -> %s%n",
        claim.score(),
        claimAndRead.score(),
        noReport.score(),
        PROJECTION_NANOS_GOAL,
        reported,
        reported <= PROJECTION_NANOS_GOAL ? "met" : "NOT met",
        read,
        read <= PROJECTION_NANOS_GOAL ? "met" : "NOT met");
    out.printf(
        "%n  added cost of going parallel, against inline with the same spin (fixed per request;"
            + " per unit, the slope from N = %d to %d)%n",
        FEW, MANY);
    out.printf("  %-44s %26s %26s%n", "", "spin off (park at once)", "spin on (default)");
    String[] wayLabels = {
      "released (all units on the helper)", "joined (own thread and helper share)"
    };
    for (int j = 0; j < ways.length; j++) {
      out.printf(
          "  %-44s %26s %26s%n",
          wayLabels[j],
          String.format("%+.0f ns, %+.0f ns/unit", fixed[0][j], perUnit[0][j]),
          String.format("%+.0f ns, %+.0f ns/unit", fixed[1][j], perUnit[1][j]));
    }
    out.printf(
        "  goal: with spinning on, a request that goes parallel costs at most %.0f ns more than"
            + " inline, fixed%n  measured: released %+.0f ns -> %s; joined %+.0f ns -> %s%n",
        FIXED_NANOS_GOAL,
        fixed[1][0],
        fixed[1][0] <= FIXED_NANOS_GOAL ? "met" : "NOT met",
        fixed[1][1],
        fixed[1][1] <= FIXED_NANOS_GOAL ? "met" : "NOT met");
    out.printf(
        "  (released keeps one wake-up no spin removes: its own thread parks on the body's own"
            + " latch, as a Lucene query's thread does on its slices' futures)%n");
  }

  private static void row(
      PrintWriter out, String label, JmhLauncher.Score base, JmhLauncher.Score ours) {
    out.printf(
        "  %-32s %16s %16s %7.3fx %+8.0f ns%n",
        label,
        base.nanos(),
        ours.nanos(),
        ours.score() / base.score(),
        ours.score() - base.score());
  }

  // ---- processor time -------------------------------------------------------------------------

  /**
   * Processor time as a percentage of one core: the scheduler's own threads (workers and
   * reevaluator, from {@link ThreadMXBean}, to the nanosecond), and the whole process (from the
   * operating system, in clock ticks of 10 ms, and with the light load's own thread).
   */
  record CpuShare(double schedulerPercent, double processPercent) {}

  /** Processor time idle and under the light load, spinning off and on (the default). */
  record CpuUse(CpuShare idleOff, CpuShare idleOn, CpuShare lightOff, CpuShare lightOn) {}

  /**
   * Measures the four windows after a first pass under the light load that is not reported: by then
   * this process has compiled what the schedulers run, and its compiler threads are quiet.
   */
  static CpuUse measureCpu(int workers, Duration window) throws InterruptedException {
    cpuShare(workers, null, true, window);
    return new CpuUse(
        cpuShare(workers, Duration.ZERO, false, window),
        cpuShare(workers, null, false, window),
        cpuShare(workers, Duration.ZERO, true, window),
        cpuShare(workers, null, true, window));
  }

  static void printCpu(CpuUse c, PrintWriter out) {
    out.printf(
        "%n  %-56s %18s %14s%n", "processor time, % of one core", "scheduler threads", "process");
    cpuRow(out, "idle, spin off", c.idleOff());
    cpuRow(out, "idle, spin on (default)", c.idleOn());
    String light = "light load (" + LIGHT_UNITS + " units, d=2, every 1 ms)";
    cpuRow(out, light + ", spin off", c.lightOff());
    cpuRow(out, light + ", spin on", c.lightOn());
    double idleAdded = points(c.idleOn().schedulerPercent() - c.idleOff().schedulerPercent());
    out.printf(
        "  goal: idle, spinning uses at most %.0f%% of a core more than parking at once%n"
            + "  measured (scheduler threads): %+.2f%% of a core -> %s; process: %+.2f%%%n",
        IDLE_CPU_GOAL_PERCENT,
        idleAdded,
        idleAdded <= IDLE_CPU_GOAL_PERCENT ? "met" : "NOT met",
        points(c.idleOn().processPercent() - c.idleOff().processPercent()));
    out.printf(
        "  under the light load spinning uses %+.2f%% of a core (scheduler threads), %+.2f%%"
            + " (process)%n",
        points(c.lightOn().schedulerPercent() - c.lightOff().schedulerPercent()),
        points(c.lightOn().processPercent() - c.lightOff().processPercent()));
  }

  /** A difference of percentages to the hundredth printed, without a "-0.00". */
  private static double points(double difference) {
    double rounded = Math.round(difference * 100) / 100.0;
    return rounded == 0 ? 0.0 : rounded;
  }

  private static void cpuRow(PrintWriter out, String label, CpuShare s) {
    out.printf("  %-56s %17.2f%% %13.2f%%%n", label, s.schedulerPercent(), s.processPercent());
  }

  private static final Runnable NOTHING = () -> {};

  private static final RequestBody<Integer> LIGHT_REQUEST =
      ctx -> {
        for (int i = 0; i < LIGHT_UNITS; i++) {
          ctx.fork(NOTHING);
        }
        ctx.joinUnits();
        return LIGHT_UNITS;
      };

  /**
   * Measures a scheduler of {@code workers} at degree 2 over {@code window}, after warming it up
   * with requests back to back: idle, or under one request every millisecond. {@code spin} null
   * keeps the builder's default.
   */
  private static CpuShare cpuShare(int workers, Duration spin, boolean light, Duration window)
      throws InterruptedException {
    List<Thread> threads = new CopyOnWriteArrayList<>();
    ThreadFactory factory =
        r -> {
          Thread t = new Thread(r, "scheduler-overhead-cpu-" + threads.size());
          t.setDaemon(true);
          threads.add(t);
          return t;
        };
    Scheduler.Builder b = Scheduler.builder().policy(Policies.fixed(2)).workers(workers);
    if (spin != null) {
      b.tuning(Tuning.defaults().withSpinBeforePark(spin));
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    if (mx.isThreadCpuTimeSupported() && !mx.isThreadCpuTimeEnabled()) {
      mx.setThreadCpuTimeEnabled(true);
    }
    try (Scheduler s = b.threadFactory(factory).build()) {
      for (int i = 0; i < WARM_UP_REQUESTS; i++) {
        SchedulerInternals.submit(s, LIGHT_REQUEST)
            .get(); // compiled code, and every worker has worked and spun
      }
      LightLoad load = light ? LightLoad.start(s) : null;
      Thread.sleep(500); // the load settles, or the warm-up's last spins end
      long threads0 = threadsCpu(mx, threads);
      long process0 = processCpu();
      long t0 = System.nanoTime();
      Thread.sleep(window.toMillis());
      long threads1 = threadsCpu(mx, threads);
      long process1 = processCpu();
      long t1 = System.nanoTime();
      if (load != null) {
        load.stop();
      }
      double wall = t1 - t0;
      return new CpuShare(
          100.0 * (threads1 - threads0) / wall, 100.0 * (process1 - process0) / wall);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a warm-up request failed", e.getCause());
    }
  }

  private static long threadsCpu(ThreadMXBean mx, List<Thread> threads) {
    long sum = 0;
    for (Thread t : threads) {
      long cpu = mx.getThreadCpuTime(t.threadId());
      if (cpu > 0) {
        sum += cpu;
      }
    }
    return sum;
  }

  private static long processCpu() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return 0;
  }

  /** One request every millisecond from a thread of its own, until stopped; no waiting on them. */
  private static final class LightLoad implements Runnable {
    private final Scheduler scheduler;
    private final Thread thread;
    private volatile boolean stopped;

    private LightLoad(Scheduler scheduler) {
      this.scheduler = scheduler;
      this.thread = new Thread(this, "scheduler-overhead-light-load");
      thread.setDaemon(true);
    }

    static LightLoad start(Scheduler s) {
      LightLoad load = new LightLoad(s);
      load.thread.start();
      return load;
    }

    @Override
    public void run() {
      long next = System.nanoTime();
      while (!stopped) {
        next += LIGHT_PERIOD_NANOS;
        long wait;
        while ((wait = next - System.nanoTime()) > 0) {
          LockSupport.parkNanos(wait);
        }
        SchedulerInternals.submit(scheduler, LIGHT_REQUEST);
      }
    }

    void stop() throws InterruptedException {
      stopped = true;
      thread.join();
    }
  }
}
