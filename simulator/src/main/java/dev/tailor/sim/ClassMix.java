package dev.tailor.sim;

import dev.tailor.core.policy.PriorityClass;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A workload mix of priority classes for the simulator: what fraction of the requests belongs to
 * each class, and how many times longer a request of that class is than the profile says. Written
 * {@code interactive:0.9,background:0.1:x10}: 90% interactive requests as profiled, 10% background
 * requests each doing ten times the work (serial part and units alike). Each arrival's class is
 * drawn from the point's seed, so a point is reproducible and a mix with classes on and off sees
 * the same requests.
 */
public final class ClassMix {

  private final double[] fractions; // by class ordinal, summing to 1
  private final double[] scales; // by class ordinal

  private ClassMix(double[] fractions, double[] scales) {
    this.fractions = fractions;
    this.scales = scales;
  }

  /**
   * Parses a mix.
   *
   * @throws IllegalArgumentException naming the entry, the value and what was expected, if a class
   *     is unknown or repeated, a fraction is not in (0, 1], a scale is not above zero, or the
   *     fractions do not sum to 1
   */
  public static ClassMix parse(String spec) {
    int n = PriorityClass.values().length;
    double[] fractions = new double[n];
    double[] scales = new double[n];
    Arrays.fill(scales, 1);
    boolean[] seen = new boolean[n];
    double sum = 0;
    for (String entry : spec.split(",", -1)) {
      String[] parts = entry.strip().split(":", -1);
      if (parts.length < 2 || parts.length > 3) {
        throw new IllegalArgumentException(
            "mix entry '" + entry + "': expected CLASS:FRACTION or CLASS:FRACTION:xSCALE");
      }
      PriorityClass c = PriorityClass.parse(parts[0], "mix entry '" + entry + "'");
      if (seen[c.ordinal()]) {
        throw new IllegalArgumentException("mix entry '" + entry + "': class given twice");
      }
      seen[c.ordinal()] = true;
      double f = number(parts[1], entry, "fraction");
      if (!(f > 0 && f <= 1)) {
        throw new IllegalArgumentException(
            "mix entry '" + entry + "': fraction must be in (0, 1], got " + parts[1]);
      }
      fractions[c.ordinal()] = f;
      sum += f;
      if (parts.length == 3) {
        String s = parts[2].strip();
        if (!s.startsWith("x")) {
          throw new IllegalArgumentException(
              "mix entry '" + entry + "': scale must be written xF (e.g. x10), got " + s);
        }
        double scale = number(s.substring(1), entry, "scale");
        if (!(scale > 0) || Double.isInfinite(scale)) {
          throw new IllegalArgumentException(
              "mix entry '" + entry + "': scale must be above 0, got " + s);
        }
        scales[c.ordinal()] = scale;
      }
    }
    if (Math.abs(sum - 1) > 1e-9) {
      throw new IllegalArgumentException(
          "mix '" + spec + "': the fractions must sum to 1, they sum to " + sum);
    }
    return new ClassMix(fractions, scales);
  }

  private static double number(String s, String entry, String what) {
    try {
      return Double.parseDouble(s.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "mix entry '" + entry + "': " + what + " must be a number, got '" + s + "'", e);
    }
  }

  /** The fraction of requests in class {@code c}. */
  public double fraction(PriorityClass c) {
    return fractions[c.ordinal()];
  }

  /** How many times the profiled work a request of class {@code c} does. */
  public double scale(PriorityClass c) {
    return scales[c.ordinal()];
  }

  /** The mean work scale over the mix: the factor the mix multiplies the mean demand by. */
  public double meanScale() {
    double m = 0;
    for (int i = 0; i < fractions.length; i++) {
      m += fractions[i] * scales[i];
    }
    return m;
  }

  /** The class of each of {@code n} arrivals, drawn from {@code seed}. */
  PriorityClass[] assign(int n, long seed) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
    PriorityClass[] values = PriorityClass.values();
    PriorityClass[] out = new PriorityClass[n];
    for (int i = 0; i < n; i++) {
      double u = random.nextDouble();
      int c = 0;
      while (c < values.length - 1 && (u -= fractions[c]) >= 0) {
        c++;
      }
      while (fractions[c] == 0 && c > 0) {
        c--; // rounding at the top end: the last class that has requests
      }
      out[i] = values[c];
    }
    return out;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (PriorityClass c : PriorityClass.values()) {
      if (fractions[c.ordinal()] > 0) {
        if (b.length() > 0) {
          b.append(',');
        }
        b.append(c.label()).append(':').append(fmt(fractions[c.ordinal()]));
        if (scales[c.ordinal()] != 1) {
          b.append(":x").append(fmt(scales[c.ordinal()]));
        }
      }
    }
    return b.toString();
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%s", d);
  }
}
