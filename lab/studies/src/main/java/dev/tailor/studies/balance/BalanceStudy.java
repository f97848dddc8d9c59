package dev.tailor.studies.balance;

import dev.tailor.measure.Median;
import dev.tailor.sim.arrival.ArrivalProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The sweep of the load-balancing study: for each core count and utilization, the same Poisson
 * arrivals and the same service times run under every balancer, and each gets its P50 and P99
 * latency; {@link Summary} then says, from the figures, up to where the single queue holds.
 */
public final class BalanceStudy {

  /** The name of the balancer the summary is about. */
  public static final String SINGLE_QUEUE = "single-queue";

  /** The fraction of each run's requests left out of its percentiles as warm-up. */
  static final double WARMUP_FRACTION = 0.1;

  private BalanceStudy() {}

  /** One balancer's latency at one point. */
  public record Result(String balancer, long p50Nanos, long p99Nanos) {}

  /**
   * One point: {@code cores} cores at utilization {@code load}, i.e. {@code ratePerSecond} arrivals
   * per second, and each balancer's result in the order given.
   */
  public record Cell(int cores, double load, double ratePerSecond, List<Result> results) {

    /** The result with the lowest P99 (the first such, in the order given). */
    public Result winner() {
      Result best = results.get(0);
      for (Result r : results) {
        if (r.p99Nanos() < best.p99Nanos()) {
          best = r;
        }
      }
      return best;
    }

    /** The named balancer's result, or null if it did not run. */
    public Result result(String balancer) {
      for (Result r : results) {
        if (r.balancer().equals(balancer)) {
          return r;
        }
      }
      return null;
    }
  }

  /**
   * Runs every balancer at every point. Point {@code (cores, load)} offers {@code load * cores /
   * mean} requests per second: Poisson arrivals seeded with {@code seed}, service times with {@code
   * seed + 1}, the balancers' choices with {@code seed + 2}.
   *
   * @throws IllegalArgumentException if a core count is below 1, a load outside {@code (0, 1)},
   *     fewer than 10 requests are asked for, or no balancer is given
   */
  public static List<Cell> sweep(
      ServiceTimes service,
      int[] cores,
      double[] loads,
      int requests,
      long seed,
      List<Balancer> balancers) {
    if (requests < 10) {
      throw new IllegalArgumentException("requests must be >= 10, got " + requests);
    }
    if (balancers.isEmpty()) {
      throw new IllegalArgumentException("no balancer to run");
    }
    for (int c : cores) {
      if (c < 1) {
        throw new IllegalArgumentException("cores must be >= 1, got " + c);
      }
    }
    for (double load : loads) {
      if (!(load > 0 && load < 1)) {
        throw new IllegalArgumentException("loads must be in (0, 1), got " + load);
      }
    }
    int warmup = (int) (requests * WARMUP_FRACTION);
    long[] serviceNanos = service.draw(requests, seed + 1);
    List<Cell> cells = new ArrayList<>();
    for (int c : cores) {
      for (double load : loads) {
        double rate = load * c * 1e9 / service.meanNanos();
        long[] arrivals = ArrivalProcess.poisson(rate, seed).first(requests);
        List<Result> results = new ArrayList<>();
        for (Balancer b : balancers) {
          Run run = b.run(arrivals, serviceNanos, c, seed + 2);
          results.add(
              new Result(
                  b.name(),
                  run.latencyPercentileNanos(50, warmup),
                  run.latencyPercentileNanos(99, warmup)));
        }
        cells.add(new Cell(c, load, rate, List.copyOf(results)));
      }
    }
    return List.copyOf(cells);
  }

  /**
   * Where the single queue stops being the right choice. A cell holds when the single queue's P99
   * is within {@code tolerance} of the best P99 there.
   *
   * @param tolerance the fraction, e.g. 0.05
   * @param cores the largest core count up to which every cell holds (0 if the smallest fails)
   * @param ratePerSecond the highest rate of a cell below the lowest rate of any failing cell
   *     (every cell at a lower rate holds), or the highest rate swept if none fails
   * @param failing the cells that do not hold
   * @param winners the balancers that win the failing cells, comma-separated
   * @param medianLoss the median over failing cells of single P99 over the best P99, minus 1
   * @param maxLoss the largest such loss
   */
  public record Summary(
      double tolerance,
      int cores,
      double ratePerSecond,
      int failing,
      String winners,
      double medianLoss,
      double maxLoss) {

    /**
     * Computes the summary of a sweep.
     *
     * @throws IllegalArgumentException if the sweep is empty or did not run the single queue
     */
    public static Summary of(List<Cell> cells, double tolerance) {
      if (cells.isEmpty() || cells.get(0).result(SINGLE_QUEUE) == null) {
        throw new IllegalArgumentException("the summary needs a sweep that ran " + SINGLE_QUEUE);
      }
      int[] coreCounts = cells.stream().mapToInt(Cell::cores).distinct().sorted().toArray();
      int holdsTo = 0;
      for (int c : coreCounts) {
        boolean all = cells.stream().filter(x -> x.cores() == c).allMatch(x -> holds(x, tolerance));
        if (!all) {
          break;
        }
        holdsTo = c;
      }
      List<Cell> failing = cells.stream().filter(x -> !holds(x, tolerance)).toList();
      double lowestFailing =
          failing.stream().mapToDouble(Cell::ratePerSecond).min().orElse(Double.POSITIVE_INFINITY);
      double rate =
          cells.stream()
              .mapToDouble(Cell::ratePerSecond)
              .filter(r -> r < lowestFailing)
              .max()
              .orElse(0);
      double[] loss = failing.stream().mapToDouble(BalanceStudy::loss).sorted().toArray();
      String winners =
          String.join(",", failing.stream().map(x -> x.winner().balancer()).distinct().toList());
      return new Summary(
          tolerance,
          holdsTo,
          rate,
          failing.size(),
          winners,
          loss.length == 0 ? 0 : Median.of(loss),
          loss.length == 0 ? 0 : loss[loss.length - 1]);
    }

    /** The summary line. */
    public String sentence() {
      String within =
          String.format(
              Locale.ROOT,
              "the single queue stays within %s%% of the best P99",
              percent(tolerance));
      if (failing == 0) {
        return String.format(
            Locale.ROOT,
            "%s in every cell swept (up to %d cores and %,.0f requests/s)",
            within,
            cores,
            ratePerSecond);
      }
      String holds =
          cores == 0
              ? String.format(
                  Locale.ROOT,
                  "the single queue falls more than %s%% behind the best P99 already at the fewest"
                      + " cores swept; it stays within that",
                  percent(tolerance))
              : within + String.format(Locale.ROOT, " up to %d cores and", cores);
      String rate =
          ratePerSecond == 0
              ? " at no rate swept"
              : String.format(Locale.ROOT, " %,.0f requests/s", ratePerSecond);
      return String.format(
          Locale.ROOT,
          "%s%s; beyond, %s wins by %s%% (median of the %d cells where the single queue falls"
              + " behind; up to %s%%)",
          holds,
          cores == 0 ? " up to" + rate : rate,
          winners.replace(",", " or "),
          percent(medianLoss),
          failing,
          percent(maxLoss));
    }

    private static String percent(double fraction) {
      return new java.math.BigDecimal(fraction * 100)
          .round(new java.math.MathContext(3))
          .stripTrailingZeros()
          .toPlainString();
    }
  }

  private static boolean holds(Cell cell, double tolerance) {
    return cell.result(SINGLE_QUEUE).p99Nanos() <= (1 + tolerance) * cell.winner().p99Nanos();
  }

  private static double loss(Cell cell) {
    return (double) cell.result(SINGLE_QUEUE).p99Nanos() / cell.winner().p99Nanos() - 1;
  }
}
