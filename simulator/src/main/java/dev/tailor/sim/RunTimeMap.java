package dev.tailor.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFields;
import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How a served request's run time relates to its profiled time, measured for each degree that a
 * replay ran at a light load, and for each part of the profile's distribution: a calibration's
 * per-query part beyond one run scale.
 *
 * <p>A single factor cannot say what a replay shows. A query of a millisecond served costs a fixed
 * amount more than profiled (waking, the searcher's own set-up, a colder cache), so its ratio is
 * higher than a long query's; and a query served on two threads gains less than the profiler saw
 * (the helper must be woken and joins late, its windows run on a cache the first thread did not
 * warm). So the map holds, for degree {@code d}, the served run time's percentiles at a light load
 * over the profiled degree-{@code d} time's percentiles, percentile by percentile: {@code
 * ratios[p]} is served P<sub>p</sub> over profiled P<sub>p</sub>. A request whose profiled time at
 * degree {@code d} lies at percentile {@code p} of the profile is served in that time times {@code
 * ratios[p]} (interpolated between percentiles); that sets its sequential time (degree 1) and its
 * speedup at each degree measured (served time at 1 over served time at {@code d}). Degrees beyond
 * the last measured one keep the profile's derived speedups, times the last measured degree's
 * served speedup over its profiled one: a documented rule, not a measurement.
 *
 * <p>What the served run time includes: from the request's first running to its last unit's end, so
 * a stall or GC pause inside a run counts here too (at a light load, a few requests in a hundred
 * meet one; the machine model charges them again).
 *
 * @param degrees each measured degree, ascending, degree 1 first
 */
public record RunTimeMap(List<Degree> degrees) {

  /**
   * The ratios at one degree.
   *
   * @param degree the threads each request held (1 for {@code seq}, {@code d} for {@code fixed:d})
   * @param requests the served requests they were measured over
   * @param ratios served over profiled run time, at each of the 101 percentiles (0 to 100)
   */
  public record Degree(int degree, long requests, double[] ratios) {

    /** Checks the fields; copies the ratios. */
    public Degree {
      if (degree < 1 || requests < 1) {
        throw new IllegalArgumentException(
            "a degree of the run-time map needs degree, requests >= 1");
      }
      if (ratios == null || ratios.length != Calibration.PERCENTILES) {
        throw new IllegalArgumentException(
            "the run-time map's ratios need " + Calibration.PERCENTILES + " percentiles");
      }
      for (double r : ratios) {
        if (!(r >= 0.1 && r <= 100)) {
          throw new IllegalArgumentException("a run-time ratio must lie within 0.1..100, got " + r);
        }
      }
      ratios = ratios.clone();
    }

    /** The ratio at percentile {@code p} (0 to 100), interpolated. */
    double at(double p) {
      double x = Math.clamp(p, 0, 100);
      int i = (int) x;
      if (i >= 100) {
        return ratios[100];
      }
      return ratios[i] + (x - i) * (ratios[i + 1] - ratios[i]);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Degree d
          && degree == d.degree
          && requests == d.requests
          && Arrays.equals(ratios, d.ratios);
    }

    @Override
    public int hashCode() {
      return degree * 31 + Arrays.hashCode(ratios);
    }
  }

  /** Checks that degree 1 comes first and the degrees ascend; copies the list. */
  public RunTimeMap {
    if (degrees == null || degrees.isEmpty() || degrees.get(0).degree() != 1) {
      throw new IllegalArgumentException("a run-time map starts at degree 1");
    }
    for (int i = 1; i < degrees.size(); i++) {
      if (degrees.get(i).degree() <= degrees.get(i - 1).degree()) {
        throw new IllegalArgumentException("the run-time map's degrees must ascend");
      }
    }
    degrees = List.copyOf(degrees);
  }

  /**
   * The map from served and profiled percentiles at each degree: {@code served[d]} and {@code
   * profiled[d]} are 101 percentiles in nanoseconds each.
   */
  public static Degree degree(int degree, long requests, long[] served, long[] profiled) {
    double[] ratios = new double[Calibration.PERCENTILES];
    for (int p = 0; p < ratios.length; p++) {
      ratios[p] = Math.clamp(served[p] / (double) Math.max(1, profiled[p]), 0.1, 100);
    }
    return new Degree(degree, requests, ratios);
  }

  /**
   * The profiled time's percentiles of {@code profile}'s requests at degree {@code d}: sequential
   * time over the measured speedup, where the profile measured that degree.
   *
   * @throws IllegalArgumentException if a request has no measured speedup at {@code d}
   */
  public static long[] profiledPercentiles(DemandProfile profile, int d) {
    long[] times = profiledAt(profile, d);
    Arrays.sort(times);
    long[] p = new long[Calibration.PERCENTILES];
    for (int i = 0; i < p.length; i++) {
      // HdrHistogram's reading: the least value with at least ceil(i% of n) values at or below it.
      long rank = Math.max(1, (long) Math.ceil(i / 100.0 * times.length));
      p[i] = times[(int) Math.min(times.length, rank) - 1];
    }
    return p;
  }

  private static long[] profiledAt(DemandProfile profile, int d) {
    List<DemandProfile.Request> rs = profile.requests();
    long[] times = new long[rs.size()];
    for (int i = 0; i < times.length; i++) {
      DemandProfile.Request r = rs.get(i);
      if (r.measuredSpeedup().length < d) {
        throw new IllegalArgumentException(
            "request " + r.id() + " of the profile has no measured speedup at degree " + d);
      }
      times[i] = Math.round(r.sequentialNanos() / r.measuredSpeedup()[d - 1]);
    }
    return times;
  }

  /**
   * {@code profile} as served: each request's sequential time and unit times scaled by degree 1's
   * ratio at its percentile, its speedup at each measured degree {@code d > 1} the served time at 1
   * over the served time at {@code d} (its own percentile at {@code d}), and its speedups beyond
   * the last measured degree scaled as the class comment says. Predictions are left to the caller.
   */
  public DemandProfile serve(DemandProfile profile) {
    int n = profile.requests().size();
    // Only the degrees every request of this profile measured: the others leave speedups as they
    // are (a profile of the same queries may have measured fewer degrees than the calibration).
    int measuredEverywhere =
        profile.requests().stream().mapToInt(r -> r.measuredSpeedup().length).min().orElse(1);
    int usable = (int) degrees.stream().filter(d -> d.degree() <= measuredEverywhere).count();
    double[][] percentile = new double[usable][];
    for (int k = 0; k < usable; k++) {
      percentile[k] = ranks(profiledAt(profile, degrees.get(k).degree()));
    }
    List<DemandProfile.Request> served = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      DemandProfile.Request r = profile.requests().get(i);
      double scale = degrees.get(0).at(percentile[0][i]);
      double seq = r.sequentialNanos() * scale;
      double[] measured = r.measuredSpeedup().clone();
      double lastGain = 1; // served speedup over profiled at the last measured degree
      for (int k = 1; k < usable; k++) {
        int d = degrees.get(k).degree();
        double servedAtD =
            r.sequentialNanos() / measured[d - 1] * degrees.get(k).at(percentile[k][i]);
        double speedup = seq / servedAtD;
        lastGain = speedup / measured[d - 1];
        measured[d - 1] = speedup;
      }
      double[] derived = r.derivedSpeedup().clone();
      for (int j = 0; j < derived.length; j++) {
        derived[j] *= lastGain;
      }
      DemandProfile.Request scaled = r.scaled(scale);
      served.add(
          new DemandProfile.Request(
              scaled.id(),
              scaled.category(),
              scaled.query(),
              scaled.sequentialNanos(),
              scaled.unitNanos(),
              measured,
              derived,
              scaled.features(),
              scaled.spread()));
    }
    return profile.withRequests(served);
  }

  /** Each value's percentile among {@code times}: 100 x (its rank - 0.5) / n, ties averaged. */
  private static double[] ranks(long[] times) {
    int n = times.length;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compare(times[a], times[b]));
    double[] out = new double[n];
    int i = 0;
    while (i < n) {
      int j = i;
      while (j + 1 < n && times[order[j + 1]] == times[order[i]]) {
        j++;
      }
      double p = 100.0 * ((i + j) / 2.0 + 0.5) / n;
      for (int k = i; k <= j; k++) {
        out[order[k]] = p;
      }
      i = j + 1;
    }
    return out;
  }

  /**
   * The map of a machine running {@code atMedian} times slower (at and below the median) and {@code
   * atTail} times slower (from the 99th percentile on) than when it was measured, linearly in
   * between, at every degree: how a calibration is carried to the moment of another run by its
   * {@link dev.tailor.measure.SpeedProbe} (whose short set lies at the median, whose long set is
   * the profile's top 1%).
   */
  public RunTimeMap scaled(double atMedian, double atTail) {
    if (!(atMedian > 0) || !(atTail > 0)) {
      throw new IllegalArgumentException("speed factors must be positive");
    }
    List<Degree> out = new ArrayList<>();
    for (Degree d : degrees) {
      double[] r = new double[Calibration.PERCENTILES];
      for (int p = 0; p < r.length; p++) {
        double w = Math.clamp((p - 50) / 49.0, 0, 1);
        r[p] = Math.clamp(d.ratios()[p] * (atMedian + w * (atTail - atMedian)), 0.1, 100);
      }
      out.add(new Degree(d.degree(), d.requests(), r));
    }
    return new RunTimeMap(out);
  }

  /** Its measured degrees' ratios at P50 and P99, in one line. */
  public String describe() {
    StringBuilder s = new StringBuilder("run time served over profiled by degree:");
    for (Degree d : degrees) {
      s.append(
          String.format(
              Locale.ROOT,
              " %d: x%.2f at P50, x%.2f at P99 (%d requests);",
              d.degree(),
              d.ratios()[50],
              d.ratios()[99],
              d.requests()));
    }
    s.setLength(s.length() - 1);
    return s.toString();
  }

  /** Reads the map of a calibration file; {@code at} is its path, e.g. {@code "runTimes."}. */
  static RunTimeMap read(JsonFields fields, JsonNode node, String at) throws IOException {
    JsonNode list = node.get("degrees");
    if (list == null || !list.isArray() || list.isEmpty()) {
      throw fields.problem(at + "degrees", "expected a non-empty array, degree 1 first");
    }
    List<Degree> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String dAt = at + "degrees[" + i + "].";
      JsonNode d = list.get(i);
      int degree = fields.smallInteger(d, "degree", dAt, 1);
      long requests = fields.integer(d, "requests", dAt, 1);
      double[] ratios = fields.positiveNumbers(d, "ratios", dAt);
      if (ratios.length != Calibration.PERCENTILES) {
        throw fields.problem(
            dAt + "ratios", "expected " + Calibration.PERCENTILES + " ratios (0 to 100)");
      }
      for (int p = 0; p < ratios.length; p++) {
        if (!(ratios[p] >= 0.1 && ratios[p] <= 100)) {
          throw fields.problem(dAt + "ratios[" + p + "]", "expected a ratio within 0.1..100");
        }
      }
      if (i == 0 ? degree != 1 : degree <= out.get(i - 1).degree()) {
        throw fields.problem(dAt + "degree", "expected degree 1 first, then ascending degrees");
      }
      out.add(new Degree(degree, requests, ratios));
    }
    return new RunTimeMap(out);
  }
}
