package dev.tailor.core.metrics;

import dev.tailor.core.Internal;
import java.util.Arrays;
import java.util.List;

/**
 * Sorts finished requests into groups for reporting, as the TPC paper's Table 2 sorts queries into
 * classes: by the label a request was submitted with if it has one, else by its work (busy time
 * summed over threads) against ascending bounds. The default bounds are TPC's: short below 30 ms,
 * medium below 80 ms, long from 80 ms.
 */
@Internal
public final class RequestGroups {

  private final long[] upperBoundsNanos;
  private final List<String> names;

  private RequestGroups(long[] upperBoundsNanos, List<String> names) {
    this.upperBoundsNanos = upperBoundsNanos;
    this.names = names;
  }

  /** TPC's groups: {@code short} (< 30 ms), {@code medium} (< 80 ms), {@code long}. */
  public static RequestGroups tpcDefault() {
    return of(new long[] {30_000_000L, 80_000_000L}, List.of("short", "medium", "long"));
  }

  /**
   * TPC's three groups scaled to a workload whose requests take {@code sequentialNanos}: long from
   * the 96th percentile (the paper's workload had 4% long queries, Jeon et al., ASPLOS'16, §2.5),
   * medium from 30/80 of that (the paper's 30 and 80 ms). With no time known, {@link
   * #tpcDefault()}.
   */
  public static RequestGroups tpcScaled(long[] sequentialNanos) {
    if (sequentialNanos.length == 0) {
      return tpcDefault();
    }
    long longFrom = longFromNanos(sequentialNanos);
    return of(new long[] {mediumFromNanos(longFrom), longFrom}, List.of("short", "medium", "long"));
  }

  /** The scaled long threshold: the 96th percentile of the times (at least 2 ns). */
  public static long longFromNanos(long[] sequentialNanos) {
    long[] sorted = sequentialNanos.clone();
    Arrays.sort(sorted);
    return Math.max(2, sorted[Math.min(sorted.length - 1, (int) (0.96 * sorted.length))]);
  }

  /** The scaled medium threshold: 30/80 of the long one, as in the paper (at least 1 ns). */
  public static long mediumFromNanos(long longFromNanos) {
    return Math.max(1, longFromNanos * 30 / 80);
  }

  /**
   * Groups with the given names; group {@code i} holds work below {@code upperBoundsNanos[i]}, the
   * last group everything above.
   *
   * @throws IllegalArgumentException unless there is one more name than bounds and the bounds
   *     ascend
   */
  public static RequestGroups of(long[] upperBoundsNanos, List<String> names) {
    if (names.size() != upperBoundsNanos.length + 1) {
      throw new IllegalArgumentException(
          "need one more group name than bounds: " + names + " for " + upperBoundsNanos.length);
    }
    for (int i = 1; i < upperBoundsNanos.length; i++) {
      if (upperBoundsNanos[i] <= upperBoundsNanos[i - 1]) {
        throw new IllegalArgumentException("group bounds must ascend");
      }
    }
    return new RequestGroups(upperBoundsNanos.clone(), List.copyOf(names));
  }

  /** The group of a finished request. */
  public String groupOf(RequestRecord r) {
    if (r.label() != null) {
      return r.label();
    }
    for (int i = 0; i < upperBoundsNanos.length; i++) {
      if (r.workNanos() < upperBoundsNanos[i]) {
        return names.get(i);
      }
    }
    return names.get(names.size() - 1);
  }

  /** The work-based group names, shortest first. */
  public List<String> names() {
    return names;
  }
}
