package dev.tailor.tables;

import dev.tailor.core.model.Schedule;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.sim.model.ScheduleEvaluator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The throughput rule's search (see {@link IntervalTable.Rule}): the schedules without a wait that
 * no leaner schedule beats, and the mapping of a load to one of them.
 *
 * <p>A schedule {@code S} costs each request {@code E[busy_S]} thread-nanoseconds on average and
 * takes {@code E[T_S]}. At an arrival rate {@code λ} the cores serve it only if {@code λ·E[busy_S]
 * <= ρ·cores}; the best schedule the rate allows, {@code S*(λ)}, is then the one with the lowest
 * tail (then mean, then first in grid order) among those with {@code E[busy_S] <= ρ·cores/λ}. So
 * only the <em>frontier</em> matters: the schedules ordered by busy time, each better than every
 * leaner one. Between two neighbours' rates the best schedule is constant: {@code S*(λ) = f_i} for
 * {@code λ in (ρ·cores/busy_{i+1}, ρ·cores/busy_i]}.
 *
 * <p>Little's law maps load to rate: with {@code S*(λ)} running, {@code qs·λ·E[T]} requests are in
 * the system, {@code qs >= 1} allowing for those queued. Row {@code q} takes the highest rate whose
 * load is at most q, {@code λ_q = max {λ : qs·λ·E[T_{S*(λ)}] <= q}}, and its schedule {@code
 * S*(λ_q)}: within one neighbour interval the load grows with λ, so the highest rate of interval i
 * is {@code min(ρ·cores/busy_i, q/(qs·E[T_i]))} when that lies in the interval. The highest rate is
 * the conservative choice: a load observed online can come from several rates, and the higher needs
 * the leaner schedule. Above the leanest schedule's rate nothing keeps up; that row takes the
 * leanest schedule, and the queue grows whatever the table says.
 */
final class ThroughputFrontier {

  /** Relative slack for comparisons, so that rounding moves no boundary. */
  private static final double SLACK = 1e-9;

  /**
   * One schedule of the frontier.
   *
   * @param schedule the schedule (no wait)
   * @param busyNanos {@code E[busy]}, the mean thread time a request takes
   * @param meanNanos {@code E[T]}, the mean time
   * @param tailNanos the φ-tail of the times
   * @param parallelism {@code A(S) = E[busy]/E[T]}
   */
  record Point(
      Schedule schedule, double busyNanos, double meanNanos, double tailNanos, double parallelism) {

    /** Lowest tail, then lowest mean (both to whole nanoseconds), then grid order. */
    static final Comparator<Point> QUALITY =
        Comparator.<Point>comparingDouble(p -> Math.rint(p.tailNanos))
            .thenComparingDouble(p -> Math.rint(p.meanNanos))
            .thenComparing(Point::schedule);

    /** Leanest first; among equally lean ones, the best first. */
    static final Comparator<Point> LEANEST_THEN_BEST =
        Comparator.comparingDouble(Point::busyNanos).thenComparing(QUALITY);
  }

  private final List<Point> points; // busy strictly increasing, quality strictly improving

  private ThroughputFrontier(List<Point> points) {
    this.points = List.copyOf(points);
  }

  /** The frontier of some candidates: leanest first, each better than all leaner ones. */
  static ThroughputFrontier of(List<Point> candidates) {
    List<Point> sorted = new ArrayList<>(candidates);
    sorted.sort(Point.LEANEST_THEN_BEST);
    List<Point> out = new ArrayList<>();
    for (Point p : sorted) {
      if (out.isEmpty() || Point.QUALITY.compare(p, out.get(out.size() - 1)) < 0) {
        out.add(p);
      }
    }
    return new ThroughputFrontier(out);
  }

  /** The frontier of both frontiers' schedules. */
  ThroughputFrontier merge(ThroughputFrontier o) {
    List<Point> all = new ArrayList<>(points);
    all.addAll(o.points);
    return of(all);
  }

  /** The frontier's schedules, leanest first. */
  List<Point> points() {
    return points;
  }

  /**
   * Row {@code q}: the schedule for the highest arrival rate that produces at most load q.
   *
   * @param servers {@code ρ·cores}, the threads the busy time may fill
   * @param queueFactor qs
   */
  IntervalTable.Row row(int q, double servers, double queueFactor) {
    int chosen = 0; // the leanest, if no rate keeps up
    double bestRate = -1;
    for (int i = 0; i < points.size(); i++) {
      Point p = points.get(i);
      double highest = servers / p.busyNanos();
      double lowest = i + 1 < points.size() ? servers / points.get(i + 1).busyNanos() : 0;
      double rate = Math.min(highest, q / (queueFactor * p.meanNanos()));
      // Ties go to the later, better schedule: the same rate allows it.
      if (rate > lowest * (1 + SLACK) && rate >= bestRate) {
        bestRate = rate;
        chosen = i;
      }
    }
    Point p = points.get(chosen);
    double perSecond = bestRate < 0 ? servers / p.busyNanos() * 1e9 : bestRate * 1e9;
    return new IntervalTable.Row(
        q, p.schedule(), p.tailNanos(), p.meanNanos(), p.parallelism(), perSecond);
  }

  /**
   * Collects one chunk's candidates in primitive arrays and keeps only its frontier, so that a grid
   * of millions of schedules allocates objects only for the few that stay.
   */
  static final class Builder {
    private double[] busy = new double[1024];
    private double[] tailKey = new double[1024];
    private double[] meanKey = new double[1024];
    private double[] mean = new double[1024];
    private double[] tail = new double[1024];
    private int[] part = new int[1024];
    private int size;

    /** Adds running part number {@code index} (no wait), as the evaluator evaluated it. */
    void add(ScheduleEvaluator.Run run, int index) {
      if (size == busy.length) {
        int n = size * 2;
        busy = Arrays.copyOf(busy, n);
        tailKey = Arrays.copyOf(tailKey, n);
        meanKey = Arrays.copyOf(meanKey, n);
        mean = Arrays.copyOf(mean, n);
        tail = Arrays.copyOf(tail, n);
        part = Arrays.copyOf(part, n);
      }
      ScheduleEvaluator.Evaluation e = run.withWait(0);
      busy[size] = e.parallelism() * e.meanNanos();
      mean[size] = e.meanNanos();
      tail[size] = e.tailNanos();
      meanKey[size] = Math.rint(e.meanNanos());
      tailKey[size] = Math.rint(e.tailNanos());
      part[size] = index;
      size++;
    }

    /**
     * The frontier of what was added. Parts are numbered in grid order, so among equals the lower
     * number is the first schedule.
     *
     * @param intervalsOf the intervals of a part number
     */
    ThroughputFrontier build(IntFunction<long[]> intervalsOf) {
      Integer[] order = new Integer[size];
      for (int i = 0; i < size; i++) {
        order[i] = i;
      }
      Comparator<Integer> quality =
          Comparator.<Integer>comparingDouble(i -> tailKey[i])
              .thenComparingDouble(i -> meanKey[i])
              .thenComparingInt(i -> part[i]);
      Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> busy[i]).thenComparing(quality));
      List<Point> out = new ArrayList<>();
      int last = -1;
      for (int i : order) {
        if (last < 0 || quality.compare(i, last) < 0) {
          last = i;
          long[] v = intervalsOf.apply(part[i]);
          out.add(new Point(Schedule.of(v), busy[i], mean[i], tail[i], busy[i] / mean[i]));
        }
      }
      return new ThroughputFrontier(out);
    }
  }
}
