package dev.tailor.predictor;

import java.util.Locale;

/**
 * How well predicted sequential times match measured ones: the error a scheduler sees, and how well
 * the predictions pick out the long requests, which is what TPC (Jeon et al., ASPLOS'16, §3.1)
 * needs of its predictor (it reports recall and precision of the long class).
 *
 * @param queries the requests compared
 * @param l1Millis the mean absolute error, in milliseconds
 * @param logCorrelation Pearson's correlation of ln(measured) and ln(predicted)
 * @param longThresholdNanos a request is long when its time reaches this
 * @param actualLong requests whose measured time is long
 * @param predictedLong requests whose predicted time is long
 * @param truePositives requests long by both
 */
public record Metrics(
    int queries,
    double l1Millis,
    double logCorrelation,
    long longThresholdNanos,
    int actualLong,
    int predictedLong,
    int truePositives) {

  /** Long requests predicted long, over long requests; NaN if none is long. */
  public double recall() {
    return actualLong == 0 ? Double.NaN : (double) truePositives / actualLong;
  }

  /** Long requests predicted long, over requests predicted long; NaN if none is predicted long. */
  public double precision() {
    return predictedLong == 0 ? Double.NaN : (double) truePositives / predictedLong;
  }

  /**
   * Compares predictions with measurements.
   *
   * @param actual measured sequential times, in nanoseconds, each positive
   * @param predicted {@code predicted[i]} predicts {@code actual[i]}
   * @param longThresholdNanos the long class's lower bound
   */
  public static Metrics of(long[] actual, long[] predicted, long longThresholdNanos) {
    if (actual.length != predicted.length || actual.length == 0) {
      throw new IllegalArgumentException(
          "need as many predictions as measurements, at least one; got "
              + predicted.length
              + " and "
              + actual.length);
    }
    int n = actual.length;
    double abs = 0;
    double[] x = new double[n];
    double[] y = new double[n];
    int actualLong = 0, predictedLong = 0, both = 0;
    for (int i = 0; i < n; i++) {
      abs += Math.abs(actual[i] - predicted[i]);
      x[i] = Math.log(Math.max(1, actual[i]));
      y[i] = Math.log(Math.max(1, predicted[i]));
      boolean a = actual[i] >= longThresholdNanos;
      boolean p = predicted[i] >= longThresholdNanos;
      actualLong += a ? 1 : 0;
      predictedLong += p ? 1 : 0;
      both += a && p ? 1 : 0;
    }
    return new Metrics(
        n, abs / n / 1e6, correlation(x, y), longThresholdNanos, actualLong, predictedLong, both);
  }

  static double correlation(double[] x, double[] y) {
    int n = x.length;
    double mx = 0, my = 0;
    for (int i = 0; i < n; i++) {
      mx += x[i];
      my += y[i];
    }
    mx /= n;
    my /= n;
    double sxy = 0, sxx = 0, syy = 0;
    for (int i = 0; i < n; i++) {
      sxy += (x[i] - mx) * (y[i] - my);
      sxx += (x[i] - mx) * (x[i] - mx);
      syy += (y[i] - my) * (y[i] - my);
    }
    return sxx == 0 || syy == 0 ? Double.NaN : sxy / Math.sqrt(sxx * syy);
  }

  /** One line: error, correlation, and the long class's recall and precision with their counts. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "%d queries: L1 %.3f ms, corr(log) %.3f; long (>= %.3f ms): recall %.2f (%d of %d),"
            + " precision %.2f (%d of %d)",
        queries,
        l1Millis,
        logCorrelation,
        longThresholdNanos / 1e6,
        recall(),
        truePositives,
        actualLong,
        precision(),
        truePositives,
        predictedLong);
  }
}
