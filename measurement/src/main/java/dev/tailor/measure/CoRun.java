package dev.tailor.measure;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * How long a point's requests ran beside how many others: for each number of busy request threads
 * {@code b} (the request's own included), the distribution of served run time over profiled time of
 * the requests that ran at {@code b} busy threads, from which {@code tailor calibrate} measures the
 * machine's co-run slowdown (how much slower a request runs on one core while other cores run
 * requests too: shared caches, memory bandwidth, the hypervisor's and the CPU's own frequency
 * rules).
 *
 * <p>It is measured only where it can be exactly: in a point whose every answered request ran on
 * one thread from start to end (as under {@code seq}), with the server's own record of when each
 * request first ran and ended, on this process's clock, and its profiled sequential time (a replay
 * in process with a profile). The busy threads at a moment are the answered requests running then,
 * warm-up included; a measured request counts at level {@code b} when at least {@link
 * #DOMINANT_SHARE} of its run had exactly {@code b} requests running, so that the end of a
 * neighbour and its successor's start a few microseconds later do not leave every request of a busy
 * point uncounted; the others count nowhere.
 *
 * @param levels per busy count, ascending, the requests that ran at it
 */
public record CoRun(List<Level> levels) {

  /** A ratio's unit in the histograms: 1/10,000, so that 1.2345 records as 12,345. */
  public static final long RATIO_UNITS = 10_000;

  /** The share of a request's run that must be at one busy count for it to count there: 0.9. */
  public static final double DOMINANT_SHARE = 0.9;

  private static final long HIGHEST_RATIO = 1_000 * RATIO_UNITS;

  /**
   * The requests that ran at one busy count.
   *
   * @param busy the request threads running, the request's own included, from 1
   * @param requests how many requests counted here
   * @param ratioHistogram their run time over profiled time, in {@link #RATIO_UNITS}, as {@link
   *     PointResult#encode} encodes a histogram
   */
  public record Level(int busy, long requests, String ratioHistogram) {

    /** The ratios' histogram, decoded. */
    public Histogram ratios() {
      return PointResult.decode(ratioHistogram);
    }
  }

  /**
   * One answered request as the server recorded it.
   *
   * @param firstRunNanos when it first ran, on {@link System#nanoTime}'s clock
   * @param endNanos when its last thread ended, on the same clock
   * @param threads the most threads that worked on it at once
   * @param profiledNanos its sequential time in the profile, or a value below 1 where unknown
   */
  public record Span(long firstRunNanos, long endNanos, int threads, long profiledNanos) {}

  /** Copies the levels. */
  public CoRun {
    levels = List.copyOf(levels);
  }

  /** The level of {@code busy} threads, or null where no request counted there. */
  @JsonIgnore
  public Level level(int busy) {
    for (Level l : levels) {
      if (l.busy() == busy) {
        return l;
      }
    }
    return null;
  }

  /**
   * The co-run record of a point's answered requests, or null where it cannot be measured: a
   * request ran on more than one thread, a measured one has no profiled time, or none counted.
   *
   * @param spans every answered request of the point, warm-up included, null where the server did
   *     not record it
   * @param measured for each span, whether its request is one of the point's measured requests
   */
  public static CoRun measure(Span[] spans, boolean[] measured) {
    if (spans.length != measured.length) {
      throw new IllegalArgumentException("need one measured flag per span");
    }
    List<Span> known = new ArrayList<>();
    for (int i = 0; i < spans.length; i++) {
      Span s = spans[i];
      if (s == null) {
        continue;
      }
      if (s.threads() > 1 || (measured[i] && s.profiledNanos() < 1)) {
        return null;
      }
      known.add(s);
    }
    Timeline busy = Timeline.of(known);
    Histogram[] byLevel = new Histogram[busy.highest() + 1];
    for (int i = 0; i < spans.length; i++) {
      Span s = spans[i];
      if (s == null || !measured[i] || s.endNanos() <= s.firstRunNanos()) {
        continue;
      }
      int level = busy.dominantLevel(s.firstRunNanos(), s.endNanos());
      if (level < 1) {
        continue;
      }
      if (byLevel[level] == null) {
        byLevel[level] = new Histogram(1, HIGHEST_RATIO, 3);
      }
      double ratio = (s.endNanos() - s.firstRunNanos()) / (double) s.profiledNanos();
      byLevel[level].recordValue(
          Math.max(1, Math.min(HIGHEST_RATIO, Math.round(ratio * RATIO_UNITS))));
    }
    List<Level> levels = new ArrayList<>();
    for (int b = 1; b < byLevel.length; b++) {
      if (byLevel[b] != null) {
        levels.add(new Level(b, byLevel[b].getTotalCount(), PointResult.encode(byLevel[b])));
      }
    }
    return levels.isEmpty() ? null : new CoRun(levels);
  }

  /** How many requests ran at each moment: a step function over the spans' ends. */
  private static final class Timeline {
    private final long[] times; // running[k] requests from times[k] to times[k + 1]
    private final int[] running;
    private final int highest;

    private Timeline(long[] times, int[] running) {
      this.times = times;
      this.running = running;
      int h = 0;
      for (int r : running) {
        h = Math.max(h, r);
      }
      this.highest = h;
    }

    /** The steps of {@code spans}; at a moment where one ends and another starts, the end first. */
    static Timeline of(List<Span> spans) {
      int n = spans.size();
      long origin = Long.MAX_VALUE;
      for (Span s : spans) {
        origin = Math.min(origin, s.firstRunNanos());
      }
      // (time - origin) << 1, less 1 for an end, so that an end sorts before a start at its time.
      long[] events = new long[2 * n];
      for (int i = 0; i < n; i++) {
        Span s = spans.get(i);
        events[2 * i] = (s.firstRunNanos() - origin) << 1;
        events[2 * i + 1] = ((Math.max(s.firstRunNanos(), s.endNanos()) - origin) << 1) - 1;
      }
      Arrays.sort(events);
      long[] times = new long[events.length];
      int[] running = new int[events.length];
      int k = 0;
      int now = 0;
      for (long e : events) {
        boolean end = (e & 1) != 0;
        long t = (end ? (e + 1) >> 1 : e >> 1) + origin;
        now += end ? -1 : 1;
        if (k > 0 && times[k - 1] == t) {
          running[k - 1] = now;
        } else {
          times[k] = t;
          running[k] = now;
          k++;
        }
      }
      return new Timeline(Arrays.copyOf(times, k), Arrays.copyOf(running, k));
    }

    int highest() {
      return highest;
    }

    /**
     * The count of running requests that held for at least {@link #DOMINANT_SHARE} of [from, to),
     * or 0 where none did.
     */
    int dominantLevel(long from, long to) {
      int k = Arrays.binarySearch(times, from);
      if (k < 0) {
        k = -k - 2; // the step that began before from
      }
      long[] at = new long[highest + 1];
      for (int j = Math.max(0, k); j < times.length && times[j] < to; j++) {
        long a = Math.max(from, times[j]);
        long b = j + 1 < times.length ? Math.min(to, times[j + 1]) : to;
        if (b > a && running[j] >= 0) {
          at[running[j]] += b - a;
        }
      }
      long length = to - from;
      for (int level = 1; level < at.length; level++) {
        if (at[level] >= DOMINANT_SHARE * length) {
          return level;
        }
      }
      return 0;
    }
  }
}
