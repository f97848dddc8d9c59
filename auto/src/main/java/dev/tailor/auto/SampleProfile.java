package dev.tailor.auto;

import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.measure.DemandProfile;
import java.util.ArrayList;
import java.util.List;

/**
 * The demand profile a rebuild builds from: one request per sample, its sequential time the
 * sample's work (busy time summed over its threads: its windows' time, so its sequential time plus
 * what running in parallel added to it), its speedup curve its size's third's from the probes
 * ({@link SpeedupEstimate}). The reservoir keeps no window times, so the profile has no unit times:
 * the simulations that judge a candidate use the fluid model, in which the progress-aware policy,
 * without a prediction, sees a request's length only once it has run past its target.
 */
final class SampleProfile {

  /** The windows each request is cut into, as the drop-in cuts a search by default. */
  static final int UNITS = 16;

  private SampleProfile() {}

  /** The profile of the samples, with curves up to {@code maxDegree}. */
  static DemandProfile of(Samples samples, SpeedupEstimate speedup, int maxDegree) {
    List<DemandProfile.Request> requests = new ArrayList<>(samples.size());
    for (int i = 0; i < samples.size(); i++) {
      long seq = samples.workNanos()[i];
      SpeedupCurve curve = speedup.curveFor(seq);
      double[] measured = new double[maxDegree];
      for (int d = 1; d <= maxDegree; d++) {
        measured[d - 1] = curve.at(d);
      }
      long[] units = new long[UNITS];
      for (int u = 0; u < UNITS; u++) {
        units[u] = seq / UNITS + (u < seq % UNITS ? 1 : 0);
      }
      requests.add(
          new DemandProfile.Request(
              "s" + i, null, null, seq, units, measured, new double[0], null));
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
