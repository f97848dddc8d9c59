package dev.tailor.tables;

import dev.tailor.core.table.ThresholdTable;
import dev.tailor.measure.DemandProfile;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a tail-control threshold table (Li et al., PPoPP'16, §4.1): {@link ThresholdCalculation}
 * for every number of active requests {@code q = 1..qMax}, from a work distribution cut from a
 * profile ({@link WorkDistribution}).
 *
 * <p>A request's work is its sequential time: the computation it needs on one thread, which is what
 * a serialized request still has to do and what its threads' busy time sums to when it runs in
 * parallel without loss.
 *
 * <p>{@code qMax}: the paper derives it "from profiling or a heuristic such as twice the average
 * number of active requests based on rps using queueing theory". Unless given, it is the larger of
 * that heuristic, with the server taken as one queue served at {@code m / w̄} (M/M/1: {@code 2ρ/(1
 * - ρ)}, {@code ρ = U/m}), and {@code 4m}: the heuristic alone gives a handful of rows at moderate
 * load, too few for the pileups the table exists for. A load above {@code qMax} reads the last row.
 */
public final class TcTableBuilder {

  private TcTableBuilder() {}

  /**
   * Where the work distribution came from, for the table's record.
   *
   * @param label the profile's file as given, or a generated workload's description
   * @param digest the profile file's SHA-256 ({@code sha256:...}), or null for a generated workload
   */
  public record Source(String label, String digest) {}

  /** The works of a profile's requests: their sequential times. */
  public static long[] works(DemandProfile profile) {
    return profile.requests().stream().mapToLong(DemandProfile.Request::sequentialNanos).toArray();
  }

  /** The default {@code qMax} for a utilization of {@code u} cores out of {@code cores}. */
  public static int defaultQMax(double u, int cores) {
    double rho = u / cores;
    return (int) Math.max(Math.ceil(2 * rho / (1 - rho)), 4L * cores);
  }

  /**
   * The table for a distribution, a target, a rate and a number of cores.
   *
   * @param qMax the highest load with a row, or 0 for {@link #defaultQMax}
   * @throws IllegalArgumentException if an input is not positive or the rate overloads the cores
   *     ({@link ThresholdCalculation})
   */
  public static ThresholdTable build(
      WorkDistribution distribution,
      Source source,
      long targetNanos,
      double rps,
      int cores,
      int qMax) {
    long started = System.nanoTime();
    ThresholdCalculation calc = new ThresholdCalculation(distribution, targetNanos, rps, cores);
    int rows = qMax > 0 ? qMax : defaultQMax(calc.utilization(), cores);
    List<ThresholdTable.Row> out = new ArrayList<>(rows);
    for (int q = 1; q <= rows; q++) {
      ThresholdCalculation.Candidate best = calc.best(q);
      out.add(new ThresholdTable.Row(q, best.thresholdNanos(), best.misses()));
    }
    ThresholdTable.Inputs inputs =
        new ThresholdTable.Inputs(
            source.label(),
            source.digest(),
            distribution.requests(),
            distribution.bins(),
            distribution.binning(),
            Math.round(calc.meanWorkNanos()),
            targetNanos,
            rps,
            cores,
            calc.utilization(),
            rows);
    return new ThresholdTable(
        inputs,
        out,
        Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
        (System.nanoTime() - started) / 1e9);
  }
}
