package dev.tailor.tables;

import dev.tailor.core.policy.TpcPolicy;
import dev.tailor.core.table.TargetTable;
import dev.tailor.measure.DemandProfile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The TPC table {@link TargetSearch} starts from: a row for each LongT {@code 0..loads-1} and one
 * for {@code ∞}, every target the same, and the record of what the table is built from and how.
 *
 * <p>The paper starts from the unloaded latency with every request on all cores, "the smallest
 * target we may ever achieve" (Jeon et al., ASPLOS'16, §3.3); here that is the median over the
 * profile of {@code T / S(P)}. Apart from the builder because it is the search's first phase, fixed
 * before any table is measured, and the one place the table's inputs are written down.
 */
final class TpcSearchStart {

  private TpcSearchStart() {}

  /**
   * The starting table for {@code profile} under {@code options}, with {@code groups} and the
   * search's step {@code step}; not yet searched (no creation time, no search record).
   */
  static TargetTable table(
      TpcTableBuilder.Options options,
      DemandProfile profile,
      TpcTableBuilder.Sources sources,
      TargetTable.Groups groups,
      long step) {
    long start = medianAlone(profile, options.maxDegree());
    List<TargetTable.Row> rows = new ArrayList<>();
    for (int load = 0; load < options.loads(); load++) {
      rows.add(new TargetTable.Row(load, start));
    }
    rows.add(new TargetTable.Row(TargetTable.INFINITE, start));
    TargetTable.Inputs inputs =
        new TargetTable.Inputs(
            sources.profile(),
            sources.profileDigest(),
            profile.requests().size(),
            sources.model(),
            sources.modelDigest(),
            options.variant() == TpcPolicy.Variant.TPC_ORACLE
                ? "known"
                : profile.predictions().method(),
            options.cores(),
            options.maxDegree(),
            options.ratesRps().stream().mapToDouble(Double::doubleValue).toArray(),
            options.weightValues(),
            options.quantileValue(),
            step,
            options.seeds(),
            options.model().name().toLowerCase(Locale.ROOT),
            options.loadMetric());
    return new TargetTable(inputs, groups, rows, "", 0, new TargetTable.Search(0, 0, 0, 0));
  }

  /** The median over the profile of a request's time alone at {@code maxDegree}, at least 1 ns. */
  private static long medianAlone(DemandProfile profile, int maxDegree) {
    double[] alone = new double[profile.requests().size()];
    for (int i = 0; i < alone.length; i++) {
      DemandProfile.Request r = profile.requests().get(i);
      alone[i] = r.sequentialNanos() / r.speedupCurve().at(maxDegree);
    }
    Arrays.sort(alone);
    return Math.max(1, Math.round(alone[alone.length / 2]));
  }
}
