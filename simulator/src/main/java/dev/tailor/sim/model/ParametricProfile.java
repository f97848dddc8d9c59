package dev.tailor.sim.model;

import dev.tailor.measure.DemandProfile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A synthetic demand profile shaped like the Few-to-Many paper's Lucene workload (its Fig. 2):
 * demand with its mode near 90 ms, its median near 186 ms and a tail to about 1 s; an average
 * speedup of about 1.9 at degree 2 and 3 at degree 4, flat from 5; better than average for the
 * longest 5% of requests and worse for the shortest 5%. Deterministic for a seed.
 *
 * <p>Demand is log-normal with {@code σ² = ln(186/90)} (so that mode = median·e^{-σ²}), truncated
 * at 1 s by redrawing and floored at 1 ms; its median is lifted by 2.6% to make up for the
 * truncation. A request's speedup is the paper's average curve {@code 1, 1.9, 2.5, 3, 3.1, 3.1,
 * ...} scaled above 1 by an efficiency: 0.5 for the shortest 5%, 1.25 for the longest 5% and about
 * 1 (±5%) between, capped at linear.
 */
public final class ParametricProfile {

  /** The paper's average Lucene speedup at degrees 1..6; flat beyond. */
  static final double[] AVERAGE = {1, 1.9, 2.5, 3.0, 3.1, 3.1};

  static final double MEDIAN_MS = 186 * 1.026;
  static final double SIGMA = Math.sqrt(Math.log(186.0 / 90.0));
  static final double MAX_MS = 1000;
  static final double MIN_MS = 1;

  private ParametricProfile() {}

  /**
   * A profile of {@code requests} requests with speedups up to {@code maxDegree}.
   *
   * @throws IllegalArgumentException if {@code requests < 1} or {@code maxDegree < 1}
   */
  public static DemandProfile generate(int requests, int maxDegree, long seed) {
    if (requests < 1 || maxDegree < 1) {
      throw new IllegalArgumentException(
          "requests and maxDegree must be >= 1, got " + requests + ", " + maxDegree);
    }
    SplittableRandom random = new SplittableRandom(seed);
    double mu = Math.log(MEDIAN_MS);
    double[] millis = new double[requests];
    for (int i = 0; i < requests; i++) {
      double ms;
      do {
        ms = Math.exp(mu + SIGMA * gaussian(random));
      } while (ms > MAX_MS);
      millis[i] = Math.max(MIN_MS, ms);
    }
    double[] sorted = millis.clone();
    Arrays.sort(sorted);
    double shortCut = sorted[(int) (0.05 * (requests - 1))];
    double longCut = sorted[(int) Math.ceil(0.95 * (requests - 1))];

    List<DemandProfile.Request> out = new ArrayList<>(requests);
    for (int i = 0; i < requests; i++) {
      double efficiency;
      if (millis[i] < shortCut) {
        efficiency = 0.5;
      } else if (millis[i] > longCut) {
        efficiency = 1.25;
      } else {
        efficiency = 1.0 + 0.05 * (2 * random.nextDouble() - 1);
      }
      double[] s = new double[maxDegree];
      for (int d = 1; d <= maxDegree; d++) {
        double avg = AVERAGE[Math.min(d, AVERAGE.length) - 1];
        s[d - 1] = d == 1 ? 1 : Math.min(d, Math.max(1, 1 + efficiency * (avg - 1)));
      }
      long nanos = Math.round(millis[i] * 1e6);
      out.add(
          new DemandProfile.Request(
              Integer.toString(i),
              null,
              "parametric-" + i,
              nanos,
              new long[] {nanos},
              s,
              new double[0],
              new DemandProfile.Features("parametric", 0, new long[0], 0)));
    }
    return generated(
        "parametric",
        "parametric: the Few-to-Many paper's Lucene workload shape",
        seed,
        maxDegree,
        out);
  }

  /**
   * A profile generated from a seed rather than measured: its environment names the generator, its
   * description and seed, and this JVM; every request measured at every degree up to {@code
   * maxDegree}.
   */
  static DemandProfile generated(
      String source,
      String description,
      long seed,
      int maxDegree,
      List<DemandProfile.Request> requests) {
    return DemandProfile.of(
        new DemandProfile.Environment(
            source,
            description,
            0,
            "seed=" + seed,
            maxDegree,
            Runtime.version().toString(),
            System.getProperty("os.name") + " " + System.getProperty("os.arch"),
            "generated"),
        new DemandProfile.Settings(1, 1, maxDegree, maxDegree),
        true,
        requests);
  }

  /** A standard normal variate (Box-Muller), from the seeded generator only. */
  static double gaussian(SplittableRandom random) {
    double u = 1 - random.nextDouble(); // (0, 1]
    double v = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
