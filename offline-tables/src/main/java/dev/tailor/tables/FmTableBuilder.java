package dev.tailor.tables;

import dev.tailor.core.model.Schedule;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.sim.model.ScheduleEvaluator;
import dev.tailor.sim.model.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.stream.IntStream;

/**
 * Builds a Few-to-Many interval table under one of two rules ({@link IntervalTable.Rule}) over the
 * same schedules and the same model ({@link ScheduleEvaluator}).
 *
 * <p><b>The paper's rule</b> (Haque et al., ASPLOS'15, §4.1, Fig. 7): for every load {@code q =
 * 1..loads}, of the schedules {@code S = (v0, ..., v_{n-1})} on the grid {@code v_i in {0, step,
 * ..., y}} whose running intervals {@code v1..v_{n-1}} sum to at most {@code y} (the longest
 * request's life, the paper's second speed-up), keep those with {@code q·A(S) <= target_p} and take
 * the lowest φ-tail, then the lowest mean, then the first in {@code (v0, v1, ...)} order (the order
 * the paper's loops meet them). A wait of {@code y} becomes "await exit" (the paper's e1).
 *
 * <p>The paper's model has no queueing: a wait counts as no threads, and the load is taken as
 * given. So under load its rows delay requests while threads are idle, and the requests held back
 * raise the load they were chosen for. In a pool capped at the cores that feedback saturates the
 * policy at loads every baseline survives.
 *
 * <p><b>The throughput rule</b> ({@link ThroughputFrontier}) closes that loop with Little's law:
 * each row is built for the arrival rate {@code λ} that produces its load, and of the schedules
 * without a wait takes the lowest tail whose busy thread time the cores can serve at {@code λ}.
 * Waiting is left to the admission queue.
 *
 * <p>How it avoids the paper's hours: a schedule's per-request times and {@code A(S)} do not depend
 * on the load, only the constraint does, so each running part {@code (v1, ..., v_{n-1})} is
 * evaluated once over the requests ({@link ScheduleEvaluator#run}) and every wait {@code v0} is
 * derived from it exactly. A schedule that violates the target at load q violates it at every
 * higher load (the paper's third speed-up), so it fits at exactly the loads {@code 1..h(S)}; the
 * builder files each schedule under {@code h(S)} and a suffix minimum over the loads gives every
 * row. The running parts are evaluated in parallel; the choice is a minimum under a total order, so
 * the table is the same whatever the thread count.
 *
 * <p>A load at which no schedule fits gets the schedule with the lowest {@code A(S)}, which waits
 * the longest: an exit wait.
 */
public final class FmTableBuilder {

  /** The most running parts a search may enumerate, to fail fast on an impossible grid. */
  static final long MAX_RUNS = 5_000_000L;

  private final Options options;

  /** A builder with the given options. */
  public FmTableBuilder(Options options) {
    this.options = options;
  }

  /**
   * What the search explores.
   *
   * @param cores the cores of the target machine
   * @param rule the rule {@link #build} chooses rows by
   * @param maxDegree n
   * @param degrees the degrees a schedule may use, increasing and ending with n; the others'
   *     intervals stay 0 (the paper's Fig. 5 uses {1, 3})
   * @param stepNanos the grid's step
   * @param horizonNanos y; 0 for the longest request's sequential time, rounded up to a step
   * @param phi the tail's quantile
   * @param loads the rows: loads 1 to this
   * @param bins demand bins, 0 for every request
   * @param threads threads for the search
   */
  public record Options(
      int cores,
      IntervalTable.Rule rule,
      int maxDegree,
      int[] degrees,
      long stepNanos,
      long horizonNanos,
      double phi,
      int loads,
      int bins,
      int threads) {

    /** Checks the values. */
    public Options {
      require(cores >= 1, "cores must be >= 1, got " + cores);
      require(rule != null, "a rule is needed");
      require(maxDegree >= 1, "max degree must be >= 1, got " + maxDegree);
      if (degrees == null) {
        degrees = IntStream.rangeClosed(1, maxDegree).toArray();
      }
      degrees = degrees.clone();
      for (int i = 0; i < degrees.length; i++) {
        require(
            degrees[i] >= 1 && degrees[i] <= maxDegree && (i == 0 || degrees[i] > degrees[i - 1]),
            "degrees must increase within 1.." + maxDegree + ", got " + Arrays.toString(degrees));
      }
      require(
          degrees.length > 0 && degrees[degrees.length - 1] == maxDegree,
          "degrees must end with the max degree " + maxDegree);
      require(stepNanos >= 1, "step must be positive, got " + stepNanos);
      require(horizonNanos >= 0, "horizon must be >= 0, got " + horizonNanos);
      require(phi > 0 && phi <= 1, "phi must be in (0, 1], got " + phi);
      require(loads >= 1, "loads must be >= 1, got " + loads);
      require(bins >= 0, "bins must be >= 0, got " + bins);
      require(threads >= 1, "threads must be >= 1, got " + threads);
    }

    private static void require(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException(message);
      }
    }
  }

  /**
   * Searches under the options' rule and returns the table.
   *
   * @param workload the requests, one by one (bins are made here if the options ask)
   * @param profile the profile's file name, recorded
   * @param profileDigest the profile's {@code sha256:} digest, recorded
   * @throws IllegalArgumentException if the grid has more than {@value #MAX_RUNS} running parts
   */
  public IntervalTable build(Workload workload, String profile, String profileDigest) {
    return prepare(workload).table(options.rule(), profile, profileDigest, null);
  }

  /**
   * Enumerates the grid over a workload once, so that tables under several rules come from it
   * without enumerating again: what {@code tables tune} needs. Under the throughput rule the search
   * itself is shared, since only the mapping of loads to rows depends on ρ and qs.
   *
   * @throws IllegalArgumentException if the grid has more than {@value #MAX_RUNS} running parts
   */
  public Prepared prepare(Workload workload) {
    return new Prepared(workload);
  }

  /**
   * A grid enumerated over one workload, ready to give tables under any rule. Confine it to one
   * thread: the throughput frontier is searched on first use and kept.
   */
  public final class Prepared {
    private final Workload workload;
    private final long y;
    private final Search search;
    private ThroughputFrontier frontier; // searched on first use

    private Prepared(Workload workload) {
      this.workload = workload;
      int n = options.maxDegree();
      long step = options.stepNanos();
      long horizon = options.horizonNanos();
      if (horizon == 0) {
        horizon = (long) Math.ceil(workload.longestNanos());
      }
      // The grid ends on y, so that v0 = y can mean "await exit".
      this.y = Math.ceilDiv(horizon, step) * step;
      int steps = (int) Math.min(Integer.MAX_VALUE, y / step);
      Workload searched = options.bins() > 0 ? workload.binned(options.bins()) : workload;
      ScheduleEvaluator evaluator = new ScheduleEvaluator(searched, n, options.phi());
      int[] runs = runs(n, steps, options.degrees());
      // With n = 1 there is no running interval: one empty running part.
      int count = n == 1 ? 1 : runs.length / (n - 1);
      this.search = new Search(evaluator, runs, count, n, step, steps);
    }

    /**
     * The table under a rule.
     *
     * @param tuning how the rule's inputs were chosen, recorded; null if they were given
     */
    public IntervalTable table(
        IntervalTable.Rule rule, String profile, String profileDigest, String tuning) {
      long started = System.nanoTime();
      List<IntervalTable.Row> rows = new ArrayList<>();
      if (rule.isPaper()) {
        Best[] byLoad = search.run(options.threads(), options.loads(), rule.targetParallelism());
        for (int q = 1; q <= options.loads(); q++) {
          Best b = byLoad[q];
          rows.add(new IntervalTable.Row(q, b.schedule, b.tail, b.mean, b.parallelism));
        }
      } else {
        if (frontier == null) {
          frontier = search.frontier(options.threads());
        }
        for (int q = 1; q <= options.loads(); q++) {
          rows.add(frontier.row(q, rule.utilization() * options.cores(), rule.queueFactor()));
        }
      }
      IntervalTable.Inputs inputs =
          new IntervalTable.Inputs(
              profile,
              profileDigest,
              (int) Math.round(workload.totalWeight()),
              options.bins(),
              options.cores(),
              rule,
              options.maxDegree(),
              options.degrees(),
              options.stepNanos(),
              y,
              options.phi(),
              options.loads(),
              tuning);
      double seconds = (System.nanoTime() - started) / 1e9;
      return new IntervalTable(inputs, Instant.now().toString(), seconds, rows);
    }
  }

  /**
   * Every running part {@code (v1, ..., v_{n-1})} in steps, flattened, in lexicographic order: each
   * value in {@code 0..steps}, their sum at most {@code steps}, zero for degrees not allowed.
   */
  static int[] runs(int n, int steps, int[] degrees) {
    boolean[] allowed = new boolean[n + 1];
    for (int d : degrees) {
      allowed[d] = true;
    }
    int width = n - 1;
    if (width == 0) {
      return new int[0];
    }
    // k free intervals summing to at most `steps`: C(steps + k, k) running parts. Checked before
    // enumerating, so that an impossible grid fails at once rather than out of memory.
    int k = 0;
    for (int d = 1; d < n; d++) {
      k += allowed[d] ? 1 : 0;
    }
    double parts = 1;
    for (int i = 1; i <= k; i++) {
      parts = parts * (steps + i) / i;
    }
    if (parts > MAX_RUNS) {
      throw new IllegalArgumentException(
          String.format(
              "the grid has %.3g running parts, more than %d; use a larger step, a smaller"
                  + " horizon or fewer degrees",
              parts, MAX_RUNS));
    }
    IntList out = new IntList();
    int[] v = new int[width];
    enumerate(v, 0, steps, allowed, out);
    return out.toArray();
  }

  private static void enumerate(int[] v, int i, int left, boolean[] allowed, IntList out) {
    if (i == v.length) {
      out.addAll(v);
      return;
    }
    int max = allowed[i + 1] ? left : 0; // v[i] is the interval at degree i + 1
    for (int x = 0; x <= max; x++) {
      v[i] = x;
      enumerate(v, i + 1, left - x, allowed, out);
    }
    v[i] = 0;
  }

  /** A growable int array: the running parts of a large grid would box badly in a List. */
  private static final class IntList {
    private int[] a = new int[1024];
    private int size;

    void addAll(int[] v) {
      if (size + v.length > a.length) {
        a = Arrays.copyOf(a, Math.max(a.length * 2, size + v.length));
      }
      System.arraycopy(v, 0, a, size, v.length);
      size += v.length;
    }

    int size() {
      return size;
    }

    int[] toArray() {
      return Arrays.copyOf(a, size);
    }
  }

  /** The best schedule found for one load, and the order that decides "best". */
  static final class Best {
    final Schedule schedule;
    final double tail;
    final double mean;
    final double parallelism;
    private final long[] intervals;
    private final double tailKey; // rounded to whole nanoseconds: sub-ns noise is a tie
    private final double meanKey;

    Best(Schedule schedule, ScheduleEvaluator.Evaluation e) {
      this.schedule = schedule;
      this.tail = e.tailNanos();
      this.mean = e.meanNanos();
      this.parallelism = e.parallelism();
      this.intervals = schedule.intervals();
      this.tailKey = Math.rint(tail);
      this.meanKey = Math.rint(mean);
    }

    /** Lowest tail, then lowest mean, then the first schedule in (v0, v1, ...) order. */
    boolean betterThan(Best o) {
      if (o == null) {
        return true;
      }
      int c = Double.compare(tailKey, o.tailKey);
      if (c == 0) {
        c = Double.compare(meanKey, o.meanKey);
      }
      if (c == 0) {
        c = schedule.compareTo(o.schedule);
      }
      return c < 0;
    }

    /** {@link #betterThan} for a candidate not yet made into a Best (the search's hot path). */
    static boolean beats(ScheduleEvaluator.Evaluation e, long[] intervals, Best o) {
      if (o == null) {
        return true;
      }
      int c = Double.compare(Math.rint(e.tailNanos()), o.tailKey);
      if (c == 0) {
        c = Double.compare(Math.rint(e.meanNanos()), o.meanKey);
      }
      if (c == 0) {
        c = Arrays.compare(intervals, o.intervals);
      }
      return c < 0;
    }

    /** Lowest A(S), then as {@link #betterThan}: the fallback for a load nothing fits. */
    boolean leanerThan(Best o) {
      if (o == null) {
        return true;
      }
      int c = Double.compare(parallelism, o.parallelism);
      return c < 0 || (c == 0 && betterThan(o));
    }

    static Best better(Best a, Best b) {
      return b == null || (a != null && a.betterThan(b)) ? a : b;
    }
  }

  /** One search: the running parts split in chunks, each chunk's bests merged. */
  private static final class Search {
    private final ScheduleEvaluator prototype;
    private final int[] runs;
    private final int count;
    private final int n;
    private final long step;
    private final int steps;

    Search(ScheduleEvaluator prototype, int[] runs, int count, int n, long step, int steps) {
      this.prototype = prototype;
      this.runs = runs;
      this.count = count;
      this.n = n;
      this.step = step;
      this.steps = steps;
    }

    Best[] run(int threads, int loads, double target) {
      Chunk merged =
          inChunks(threads, (c, chunks) -> chunk(c, chunks, loads, target), Chunk::merge);
      // byLoad[q] = best over the schedules that fit at q, i.e. those filed at q or above.
      Best[] byLoad = new Best[loads + 2];
      for (int q = loads; q >= 1; q--) {
        byLoad[q] = Best.better(merged.filed[q], byLoad[q + 1]);
        if (byLoad[q] == null) {
          byLoad[q] = merged.leanest;
        }
      }
      return byLoad;
    }

    /**
     * The throughput rule's candidates: every schedule without a wait, reduced to those that no
     * leaner schedule beats ({@link ThroughputFrontier}).
     */
    ThroughputFrontier frontier(int threads) {
      return inChunks(threads, this::frontierChunk, ThroughputFrontier::merge);
    }

    private ThroughputFrontier frontierChunk(int c, int chunks) {
      ScheduleEvaluator evaluator = prototype.forAnotherThread();
      ThroughputFrontier.Builder out = new ThroughputFrontier.Builder();
      int from = (int) ((long) count * c / chunks);
      int to = (int) ((long) count * (c + 1) / chunks);
      for (int i = from; i < to; i++) {
        out.add(evaluator.run(intervals(i)), i);
      }
      return out.build(this::intervals);
    }

    /** The intervals of running part {@code i}, with no wait. */
    private long[] intervals(int i) {
      long[] intervals = new long[n];
      for (int d = 1; d < n; d++) {
        intervals[d] = runs[i * (n - 1) + d - 1] * step;
      }
      return intervals;
    }

    /**
     * Runs {@code work(c, chunks)} over contiguous chunks of the running parts, on {@code threads}
     * threads, and merges the results in chunk order, so that the outcome does not depend on the
     * thread count.
     */
    private <T> T inChunks(
        int threads, BiFunction<Integer, Integer, T> work, BinaryOperator<T> merge) {
      if (threads == 1) {
        return work.apply(0, 1);
      }
      int chunks = Math.min(count, Math.max(1, threads * 64));
      ForkJoinPool pool = new ForkJoinPool(threads);
      try {
        return pool.submit(
                () ->
                    IntStream.range(0, chunks)
                        .parallel()
                        .mapToObj(c -> work.apply(c, chunks))
                        .reduce(merge)
                        .orElseThrow())
            .get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      } catch (ExecutionException e) {
        throw new IllegalStateException(e.getCause());
      } finally {
        pool.shutdown();
      }
    }

    private Schedule schedule(long[] intervals, int waitSteps) {
      return waitSteps == steps ? Schedule.awaitingExit(intervals) : Schedule.of(intervals);
    }

    /** The c-th of {@code chunks} contiguous slices of the running parts (all of them if 1). */
    private Chunk chunk(int c, int chunks, int loads, double target) {
      ScheduleEvaluator evaluator = prototype.forAnotherThread();
      Chunk out = new Chunk(loads);
      int from = (int) ((long) count * c / chunks);
      int to = (int) ((long) count * (c + 1) / chunks);
      long[] intervals = new long[n];
      for (int i = from; i < to; i++) {
        for (int d = 1; d < n; d++) {
          intervals[d] = runs[i * (n - 1) + d - 1] * step;
        }
        ScheduleEvaluator.Run run = evaluator.run(intervals);
        for (int w = 0; w <= steps; w++) {
          long v0 = w * step;
          ScheduleEvaluator.Evaluation e = run.withWait(v0);
          int h = Math.min(loads, e.highestLoad(target));
          intervals[0] = v0;
          // Allocate only for a schedule that would replace a best: most never do.
          if (h >= 1 && Best.beats(e, intervals, out.filed[h])) {
            out.filed[h] = new Best(schedule(intervals, w), e);
          }
          if (out.leanest == null || e.parallelism() <= out.leanest.parallelism) {
            Best b = new Best(schedule(intervals, w), e);
            if (b.leanerThan(out.leanest)) {
              out.leanest = b;
            }
          }
        }
        intervals[0] = 0;
      }
      return out;
    }
  }

  /** The bests of some running parts: per highest fitting load, and the leanest overall. */
  private static final class Chunk {
    final Best[] filed; // filed[h]: best schedule whose highest fitting load (capped) is h
    Best leanest;

    Chunk(int loads) {
      filed = new Best[loads + 1];
    }

    Chunk merge(Chunk o) {
      for (int h = 1; h < filed.length; h++) {
        filed[h] = Best.better(filed[h], o.filed[h]);
      }
      if (o.leanest != null && o.leanest.leanerThan(leanest)) {
        leanest = o.leanest;
      }
      return this;
    }
  }
}
