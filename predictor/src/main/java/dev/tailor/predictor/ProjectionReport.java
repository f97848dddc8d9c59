package dev.tailor.predictor;

import dev.tailor.core.model.Projection;
import dev.tailor.measure.DemandProfile;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How well a request's {@link Projection} from its first windows finds the slowest requests of a
 * profile, beside a model that knows only what it knew at arrival: what {@code tailor predictor
 * projection} prints.
 *
 * <p>Each request of the profile is replayed from its unit (window) times: after its first {@code
 * k} windows, {@code k} = max(1, windows / d) for d = 16, 8 and 4, its work done is its serial part
 * (the sequential time the windows do not explain: rewriting the query, creating its weights, taken
 * to precede the first window) plus those windows' times, and it is projected with the arrival
 * model's figure as the prior. The arrival model is a predictor's prediction for each request when
 * one is given, else one load-independent prior for all, the profile's median sequential time (the
 * lower median: the {@code ceil(n / 2)}-th smallest).
 *
 * <p>Both models are scored by one rule. A request is <em>slow</em> when its measured sequential
 * time is at or above the long threshold, the time of the slowest 5% of the profile's requests
 * ({@link Trainer#longThreshold}: the {@code ceil(n / 20)}-th largest); it is <em>flagged</em> when
 * its projected (or predicted) time is at or above that same threshold. Recall is flagged slow
 * requests over slow ones, precision flagged slow requests over flagged ones. The error is the
 * relative L1, mean |projected - measured| over mean measured.
 *
 * <p>Given a second profile of the same requests, {@link #printNoiseBound} ends the table with the
 * {@link NoiseBound}: what measurement noise leaves within any projection's reach.
 */
public final class ProjectionReport {

  /** The divisors d of a request's windows at which it is projected: 1/16, 1/8 and 1/4. */
  static final int[] DIVISORS = {16, 8, 4};

  private ProjectionReport() {}

  /**
   * One fraction of the windows, scored.
   *
   * @param divisor the projection is made after max(1, windows / divisor) windows
   * @param projected the projection's scores
   * @param arrival the arrival model's scores, the same in every row
   */
  public record Row(int divisor, Score projected, Score arrival) {}

  /**
   * One model's scores at one fraction.
   *
   * @param metrics the slowest 5%'s recall and precision at the long threshold, and the absolute
   *     error
   * @param relativeL1 mean |projected - measured| over mean measured
   */
  public record Score(Metrics metrics, double relativeL1) {}

  /**
   * A profile's scores.
   *
   * @param requests the requests scored, every request of the profile
   * @param minWindows the fewest windows of a request
   * @param maxWindows the most windows of a request
   * @param priorNanos the load-independent prior (the profile's median sequential time), used as
   *     the arrival model when no predictions are given
   * @param arrival what the arrival model is, in words
   * @param rows one per divisor of {@link #DIVISORS}, in that order
   */
  public record Result(
      int requests,
      int minWindows,
      int maxWindows,
      long priorNanos,
      String arrival,
      List<Row> rows) {

    /** The long threshold both models are scored at. */
    public long thresholdNanos() {
      return rows.get(0).projected().metrics().longThresholdNanos();
    }
  }

  /**
   * Scores the projection and the arrival model on a profile.
   *
   * @param profile a profile whose every request has two unit times or more
   * @param predictedNanos each request's prediction at arrival, in the profile's order, or null to
   *     use the profile's median sequential time for every request
   * @param arrival what the predictions are, in words (ignored when they are null)
   * @throws IllegalArgumentException if the profile has no request, a request has no unit times or
   *     fewer than two (naming it), or the predictions do not cover exactly the requests
   */
  public static Result score(DemandProfile profile, long[] predictedNanos, String arrival) {
    List<DemandProfile.Request> requests = profile.requests();
    int n = requests.size();
    if (n == 0) {
      throw new IllegalArgumentException("requests: the profile has no request");
    }
    if (predictedNanos != null && predictedNanos.length != n) {
      throw new IllegalArgumentException(
          predictedNanos.length + " predictions for the profile's " + n + " requests");
    }
    long[] actual = new long[n];
    int minWindows = Integer.MAX_VALUE, maxWindows = 0;
    for (int i = 0; i < n; i++) {
      DemandProfile.Request r = requests.get(i);
      if (!r.hasUnitTimes() || r.unitNanos().length < 2) {
        throw new IllegalArgumentException(
            "requests["
                + i
                + "].unitNanos: request "
                + r.id()
                + " has "
                + (r.hasUnitTimes() ? "one unit" : "no unit times")
                + "; a projection needs a profile measured in two units or more");
      }
      actual[i] = r.sequentialNanos();
      minWindows = Math.min(minWindows, r.unitNanos().length);
      maxWindows = Math.max(maxWindows, r.unitNanos().length);
    }
    long prior = lowerMedian(actual);
    long[] atArrival = predictedNanos;
    if (atArrival == null) {
      atArrival = new long[n];
      Arrays.fill(atArrival, prior);
    }
    long threshold = Trainer.longThreshold(actual);
    double mean = Arrays.stream(actual).average().orElseThrow();
    Score arrivalScore = score(actual, atArrival, threshold, mean);
    List<Row> rows = new ArrayList<>();
    for (int d : DIVISORS) {
      long[] projected = new long[n];
      for (int i = 0; i < n; i++) {
        projected[i] = project(requests.get(i), d, atArrival[i]);
      }
      rows.add(new Row(d, score(actual, projected, threshold, mean), arrivalScore));
    }
    String described =
        predictedNanos != null
            ? arrival
            : String.format(
                Locale.ROOT, "the profile's median sequential time, %.3f ms", prior / 1e6);
    return new Result(n, minWindows, maxWindows, prior, described, List.copyOf(rows));
  }

  /** The request's projection after max(1, windows / divisor) of its windows. */
  static long project(DemandProfile.Request r, int divisor, long priorNanos) {
    long[] units = r.unitNanos();
    long all = 0;
    for (long u : units) {
      all += u;
    }
    long serial = Math.max(0, r.sequentialNanos() - all);
    int done = Math.max(1, units.length / divisor);
    long windows = 0;
    for (int j = 0; j < done; j++) {
      windows += units[j];
    }
    return Projection.of(units.length, priorNanos).sequentialNanos(done, windows, serial + windows);
  }

  private static Score score(long[] actual, long[] estimated, long threshold, double meanNanos) {
    Metrics m = Metrics.of(actual, estimated, threshold);
    return new Score(m, m.l1Millis() * 1e6 / meanNanos);
  }

  /** The {@code ceil(n / 2)}-th smallest time. */
  static long lowerMedian(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[(sorted.length - 1) / 2];
  }

  /** Prints the result: what was scored and how, then one line per fraction of the windows. */
  public static void print(Result r, String profileName, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "projection on %s: %d requests, %s windows each%n",
        profileName,
        r.requests(),
        r.minWindows() == r.maxWindows()
            ? Integer.toString(r.minWindows())
            : r.minWindows() + " to " + r.maxWindows());
    Metrics any = r.rows().get(0).projected().metrics();
    out.printf(
        Locale.ROOT,
        "  slow = the slowest 5%%: measured sequential time >= %.3f ms (%d requests);"
            + " flagged = projected (or predicted) time >= that same threshold%n",
        r.thresholdNanos() / 1e6,
        any.actualLong());
    out.println("  L1 = mean |projected - measured| / mean measured");
    out.println("  arrival model, and the projection's prior: " + r.arrival());
    out.printf(Locale.ROOT, "  %-9s%-40s%s%n", "windows", "projection", "arrival only");
    out.printf(Locale.ROOT, "  %-9s%s%s%n", "", HEADER, HEADER.strip());
    for (Row row : r.rows()) {
      out.printf(
          Locale.ROOT,
          "  %-9s%s%s%n",
          "1/" + row.divisor(),
          columns(row.projected()),
          columns(row.arrival()).strip());
    }
  }

  /**
   * Prints the noise bound as one more row of the table {@link #print} ends with: how well the
   * measured times of {@code secondName}, a second profile of the same requests, find the slowest
   * 5%, the best any projection could do.
   */
  public static void printNoiseBound(NoiseBound noise, String secondName, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "  %-9s%snoise bound: %s's measured times, flagged at its own slowest 5%% (>= %.3f ms)%n",
        "noise",
        columns(noise.flaggedSlow(), noise.slow(), noise.flagged(), noise.relativeL1()),
        secondName,
        noise.secondThresholdNanos() / 1e6);
  }

  private static final String HEADER =
      String.format(Locale.ROOT, "%-14s%-14s%-12s", "recall", "precision", "L1");

  private static String columns(Score s) {
    Metrics m = s.metrics();
    return columns(m.truePositives(), m.actualLong(), m.predictedLong(), s.relativeL1());
  }

  private static String columns(int flaggedSlow, int slow, int flagged, double relativeL1) {
    return String.format(
        Locale.ROOT,
        "%-14s%-14s%-12.3f",
        ratio(flaggedSlow, slow),
        ratio(flaggedSlow, flagged),
        relativeL1);
  }

  /** A share with its counts, "0.50 (1/2)"; "-" for the share of none. */
  private static String ratio(int part, int whole) {
    String v = whole == 0 ? "-" : String.format(Locale.ROOT, "%.2f", (double) part / whole);
    return v + " (" + part + "/" + whole + ")";
  }
}
