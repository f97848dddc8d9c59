package dev.tailor.tables;

import dev.tailor.core.metrics.RequestGroups;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.table.TargetTable;
import dev.tailor.measure.DemandProfile;
import java.util.List;

/**
 * The request groups of a TPC table (Jeon et al., ASPLOS'16, §3.1) and their speedup profiles, as
 * {@link TpcTableBuilder} derives them from a demand profile: short, medium and long by sequential
 * time, each group's profile the mean of its requests' speedups.
 *
 * <p>Apart from the builder because it is a step of its own that needs no simulation: it reads only
 * the profile's measured times, and the search ({@link TargetSearch}) never changes it.
 */
final class TpcGroups {

  private TpcGroups() {}

  /**
   * The groups and their speedup profiles up to {@code maxDegree}.
   *
   * @param mediumFromNanos the medium threshold, or 0 for 30/80 of the long one
   * @param longFromNanos the long threshold, or 0 for the profile's 96th percentile
   * @throws IllegalArgumentException if the medium threshold is above the long one
   */
  static TargetTable.Groups of(
      DemandProfile profile, int maxDegree, long mediumFromNanos, long longFromNanos) {
    List<DemandProfile.Request> requests = profile.requests();
    long[] times = requests.stream().mapToLong(DemandProfile.Request::sequentialNanos).toArray();
    long longFrom = longFromNanos > 0 ? longFromNanos : RequestGroups.longFromNanos(times);
    long mediumFrom =
        mediumFromNanos > 0 ? mediumFromNanos : RequestGroups.mediumFromNanos(longFrom);
    if (mediumFrom > longFrom) {
      throw new IllegalArgumentException(
          "the medium threshold " + mediumFrom + " ns is above the long one " + longFrom + " ns");
    }
    // Rows 0-2 sum the short, medium and long groups; row 3 the whole profile, the profile of a
    // group no request fell into.
    double[][] sums = new double[4][maxDegree];
    int[] counts = new int[4];
    for (DemandProfile.Request r : requests) {
      long t = r.sequentialNanos();
      int group = t >= longFrom ? 2 : t >= mediumFrom ? 1 : 0;
      SpeedupCurve c = r.speedupCurve();
      for (int d = 1; d <= maxDegree; d++) {
        sums[group][d - 1] += c.at(d);
        sums[3][d - 1] += c.at(d);
      }
      counts[group]++;
      counts[3]++;
    }
    SpeedupCurve all = mean(sums[3], counts[3]);
    return new TargetTable.Groups(
        mediumFrom,
        longFrom,
        counts[0] == 0 ? all : mean(sums[0], counts[0]),
        counts[1] == 0 ? all : mean(sums[1], counts[1]),
        counts[2] == 0 ? all : mean(sums[2], counts[2]));
  }

  /**
   * The mean speedup by degree, never below 1 (a group whose requests slow down when split is
   * served as if sequential), and exactly 1 at degree 1.
   */
  private static SpeedupCurve mean(double[] sums, int count) {
    double[] s = new double[sums.length];
    for (int d = 0; d < s.length; d++) {
      s[d] = Math.max(1.0, sums[d] / count);
    }
    s[0] = 1.0;
    return SpeedupCurve.of(s);
  }
}
