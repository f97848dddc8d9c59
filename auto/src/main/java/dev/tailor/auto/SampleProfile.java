package dev.tailor.auto;

import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.measure.DemandProfile;
import java.util.ArrayList;
import java.util.List;

/**
 * The demand profile a rebuild builds from: one request per sample, its sequential time from the
 * requests probed at degree 1 ({@link #sequentialNanos}), its speedup curve its size's third's from
 * the probes ({@link SpeedupEstimate}). The reservoir keeps no window times, so each request is a
 * serial part and {@value #UNITS} equal windows ({@link #units}), the two shares the probes'
 * speedup and busy time measured, and the simulations that judge a candidate use the unit model:
 * helpers join while windows are left, as in the runtime. With equal windows the projection after
 * the first window is exact, which flatters the progress-aware policy in the guard's simulation;
 * the guard's verdict is only as good as this model.
 */
final class SampleProfile {

  /** The windows each request is cut into, as the drop-in cuts a search by default. */
  static final int UNITS = 16;

  private SampleProfile() {}

  /**
   * The request's {@value #UNITS} equal windows: what is left of its time once its serial share is
   * taken out. The speedup it lacks beyond that share is then hand-off overhead, which {@link
   * dev.tailor.measure.UnitWork} calibrates from the curve and charges to the threads' busy time,
   * as the probes measured it.
   */
  static long[] units(long seqNanos, double serialShare) {
    long total = Math.round((1 - serialShare) * seqNanos);
    long[] units = new long[UNITS];
    for (int u = 0; u < UNITS; u++) {
      units[u] = total / UNITS + (u < total % UNITS ? 1 : 0);
    }
    return units;
  }

  /**
   * Each sample's sequential time. A request's work (busy time over its threads) grows with the
   * threads it was given, and those the live policy chose by its size, so work is a ranking, not a
   * measure. The requests probed at degree 1 are a random sample whose run time is their sequential
   * time: the sizes are theirs, given to the samples in the order of their work (quantile mapping,
   * linear between probes). Above the largest probe's quantile, where no probe reaches, a sample's
   * time is the largest probe's scaled by its work over the work at that quantile.
   */
  static long[] sequentialNanos(Samples samples, Samples probes) {
    long[] alone = probes.runsProbedAt(1);
    int n = samples.size();
    Integer[] byWork = new Integer[n];
    for (int i = 0; i < n; i++) {
      byWork[i] = i;
    }
    java.util.Arrays.sort(
        byWork, (a, b) -> Long.compare(samples.workNanos()[a], samples.workNanos()[b]));
    long[] seq = new long[n];
    int m = alone.length;
    // The rank whose quantile is the largest probe's, (m - 0.5) / m.
    int topRank = Math.min(n - 1, (int) Math.floor((m - 0.5) / m * n));
    long topWork = Math.max(1, samples.workNanos()[byWork[topRank]]);
    for (int r = 0; r < n; r++) {
      int i = byWork[r];
      double position = (r + 0.5) / n * m - 0.5;
      if (r > topRank) {
        seq[i] = Math.max(1, Math.round(alone[m - 1] * (double) samples.workNanos()[i] / topWork));
      } else if (position <= 0) {
        seq[i] = alone[0];
      } else {
        int lo = (int) Math.floor(position);
        int hi = Math.min(m - 1, lo + 1);
        double f = position - lo;
        seq[i] = Math.round(alone[lo] + f * (alone[hi] - alone[lo]));
      }
    }
    return seq;
  }

  /** The profile of the samples, sized by the probes, with curves up to {@code maxDegree}. */
  static DemandProfile of(Samples samples, Samples probes, SpeedupEstimate speedup, int maxDegree) {
    long[] seq = sequentialNanos(samples, probes);
    List<DemandProfile.Request> requests = new ArrayList<>(samples.size());
    for (int i = 0; i < samples.size(); i++) {
      SpeedupCurve curve = speedup.curveFor(seq[i]);
      double[] measured = new double[maxDegree];
      for (int d = 1; d <= maxDegree; d++) {
        measured[d - 1] = curve.at(d);
      }
      long[] units = units(seq[i], speedup.serialShareFor(seq[i]));
      requests.add(
          new DemandProfile.Request(
              "s" + i, null, null, seq[i], units, measured, new double[0], null));
    }
    return DemandProfile.of(
        new DemandProfile.Environment(
            "auto",
            "the requests auto served",
            0,
            "reservoir",
            maxDegree,
            Runtime.version().toString(),
            System.getProperty("os.name") + " " + System.getProperty("os.arch"),
            "online"),
        new DemandProfile.Settings(1, 1, maxDegree, maxDegree),
        true,
        requests);
  }
}
