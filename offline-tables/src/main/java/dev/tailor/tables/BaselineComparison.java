package dev.tailor.tables;

import dev.tailor.core.policy.DegreeCap;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * How the tuners judge a table's policy: at every load, its P99 over the lowest P99 of the
 * baselines on the same profile and the same arrivals, every policy under one degree cap. A
 * saturated point's P99 is infinite; a load every baseline saturates at is neutral (ratio 1), since
 * it says nothing about the table. Ratios compare by their worst, then by their geometric mean.
 */
final class BaselineComparison {

  private final List<String> baselines;
  private final List<Double> rps;
  private final Simulator.Config simulation;
  private final int requests;
  private final int maxDegree;

  /**
   * @param baselines the baselines' specifications
   * @param rps the loads, requests per second
   * @param simulation the simulator's configuration
   * @param requests requests per simulated point
   * @param maxDegree the degree cap of every policy
   */
  BaselineComparison(
      List<String> baselines,
      List<Double> rps,
      Simulator.Config simulation,
      int requests,
      int maxDegree) {
    this.baselines = List.copyOf(baselines);
    this.rps = List.copyOf(rps);
    this.simulation = simulation;
    this.requests = requests;
    this.maxDegree = maxDegree;
  }

  /** Per load, the lowest P99 of the baselines (infinite if every one saturated). */
  double[] bestBaselines(DemandProfile profile, long seed) {
    double[] best = new double[rps.size()];
    for (int i = 0; i < best.length; i++) {
      best[i] = Double.POSITIVE_INFINITY;
      for (String spec : baselines) {
        best[i] = Math.min(best[i], p99(PolicyRegistry.of(spec), profile, seed, i));
      }
    }
    return best;
  }

  /**
   * Per load, the P99 of the policy {@code atLoad} makes for that load's index over {@code best}.
   * Each policy made is closed after its point.
   */
  double[] ratios(IntFunction<Policy> atLoad, DemandProfile profile, long seed, double[] best) {
    double[] ratios = new double[best.length];
    for (int i = 0; i < ratios.length; i++) {
      double p99 = p99(atLoad.apply(i), profile, seed, i);
      ratios[i] = Double.isInfinite(best[i]) ? 1 : p99 / best[i];
    }
    return ratios;
  }

  private double p99(Policy policy, DemandProfile profile, long seed, int load) {
    try (Policy capped = DegreeCap.of(policy, maxDegree)) {
      SweepPlan sweep = SweepPlan.counted("poisson", seed, requests);
      PointResult r =
          new Simulator(profile, capped, simulation)
              .run(sweep.point(rps.get(load), profile.requests().size()), "tuning");
      return r.saturated() ? Double.POSITIVE_INFINITY : r.latencyAt("p99");
    }
  }

  /** The worst of the ratios. */
  static double worst(double[] ratios) {
    return Arrays.stream(ratios).max().orElse(0);
  }

  /** The geometric mean of the ratios. */
  static double mean(double[] ratios) {
    double sum = 0;
    for (double r : ratios) {
      sum += Math.log(r);
    }
    return Math.exp(sum / ratios.length);
  }

  /** Whether {@code a} beats {@code b}: a lower worst ratio, or an equal one and a lower mean. */
  static boolean better(double[] a, double[] b) {
    int c = Double.compare(worst(a), worst(b));
    return c < 0 || (c == 0 && mean(a) < mean(b));
  }

  /** What was tried and its ratios, in one line. */
  static String describe(Object tried, double[] ratios) {
    StringBuilder out = new StringBuilder();
    for (double r : ratios) {
      out.append(out.isEmpty() ? "" : " ").append(format(r));
    }
    return String.format(
        Locale.ROOT,
        "%-48s worst %s, mean %s  (%s)",
        tried,
        format(worst(ratios)),
        format(mean(ratios)),
        out);
  }

  /**
   * A profile's requests in two halves.
   *
   * @param tuning the half the candidates are chosen on
   * @param check the half the choice is checked on
   */
  record Halves(DemandProfile tuning, DemandProfile check) {}

  /**
   * The profile's requests in two halves, by a shuffle of the given seed; each half carries its
   * requests' predictions, if the profile has them.
   *
   * @throws IllegalArgumentException if the profile has fewer than 2 requests
   */
  static Halves split(DemandProfile profile, long seed) {
    int n = profile.requests().size();
    if (n < 2) {
      throw new IllegalArgumentException("tuning needs a profile of at least 2 requests");
    }
    int[] order = new int[n];
    Arrays.setAll(order, i -> i);
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    int half = n / 2;
    return new Halves(
        withRequests(profile, Arrays.copyOfRange(order, 0, half)),
        withRequests(profile, Arrays.copyOfRange(order, half, n)));
  }

  private static DemandProfile withRequests(DemandProfile p, int[] indices) {
    List<DemandProfile.Request> requests = new ArrayList<>(indices.length);
    for (int i : indices) {
      requests.add(p.requests().get(i));
    }
    DemandProfile out =
        DemandProfile.of(p.environment(), p.settings(), p.complete(), p.conditions(), requests);
    DemandProfile.Predictions all = p.predictions();
    if (all == null) {
      return out;
    }
    long[] predicted = new long[indices.length];
    for (int k = 0; k < indices.length; k++) {
      predicted[k] = all.sequentialNanos()[indices[k]];
    }
    return out.withPredictions(
        new DemandProfile.Predictions(all.model(), all.modelDigest(), all.method(), predicted));
  }

  /** A load as the tuners' records write it: whole when it is. */
  static String rate(double rps) {
    return rps == Math.rint(rps) ? Long.toString((long) rps) : Double.toString(rps);
  }

  /** A ratio with 3 significant figures, or {@code sat.} if infinite. */
  static String format(double v) {
    return Double.isInfinite(v) ? "sat." : String.format(Locale.ROOT, "%.3g", v);
  }
}
