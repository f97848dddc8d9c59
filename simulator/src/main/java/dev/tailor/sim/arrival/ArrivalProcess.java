package dev.tailor.sim.arrival;

import dev.tailor.core.Durations;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * When requests arrive: a seeded sequence of inter-arrival gaps. The load client and the simulator
 * draw from the same processes, so that a simulation and a real run can share an arrival sequence:
 * same process, same rate, same seed, same gaps.
 *
 * <p>An instance is a stateful stream and not thread-safe; {@link #schedule} draws a whole run up
 * front.
 */
public abstract class ArrivalProcess {

  ArrivalProcess() {}

  /** The gap before the next arrival, in nanoseconds. */
  public abstract long nextGapNanos();

  /** The mean arrival rate, requests per second. */
  public abstract double ratePerSecond();

  /** A short description, e.g. {@code poisson(50/s)}. */
  @Override
  public abstract String toString();

  /**
   * Poisson arrivals: exponential gaps with mean {@code 1/rate}.
   *
   * @throws IllegalArgumentException unless the rate is positive
   */
  public static ArrivalProcess poisson(double ratePerSecond, long seed) {
    return new Poisson(ratePerSecond, seed);
  }

  /**
   * Log-normal gaps with the given mean and standard deviation (of the gaps themselves, not of
   * their logarithm), as tail-control's experiments use.
   *
   * @throws IllegalArgumentException unless both are positive
   */
  public static ArrivalProcess logNormal(double meanGapNanos, double sdGapNanos, long seed) {
    return new LogNormal(meanGapNanos, sdGapNanos, seed);
  }

  /**
   * Arrivals at the given offsets from the start (a trace's own timestamps), then none.
   *
   * @throws IllegalArgumentException unless the offsets are non-negative and ascending
   */
  public static ArrivalProcess atOffsets(long[] offsetsNanos) {
    return new Offsets(offsetsNanos);
  }

  /**
   * A process from a specification and a rate: {@code poisson}, or {@code lognormal:CV} where CV is
   * the gaps' standard deviation over their mean (tail-control's 13 ms over 10 ms is {@code
   * lognormal:1.3}).
   *
   * @throws IllegalArgumentException naming the specification and the expected forms
   */
  public static ArrivalProcess parse(String spec, double ratePerSecond, long seed) {
    String s = spec.trim().toLowerCase(Locale.ROOT);
    if (s.equals("poisson")) {
      return poisson(ratePerSecond, seed);
    }
    if (s.startsWith("lognormal:")) {
      double cv;
      try {
        cv = Double.parseDouble(s.substring("lognormal:".length()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "arrivals '" + spec + "': expected lognormal:CV with CV a number, e.g. lognormal:1.3",
            e);
      }
      double mean = 1e9 / ratePerSecond;
      return logNormal(mean, cv * mean, seed);
    }
    throw new IllegalArgumentException(
        "unknown arrivals '" + spec + "'; expected poisson or lognormal:CV (e.g. lognormal:1.3)");
  }

  /**
   * The arrival offsets from the start of a run that fall within {@code durationNanos}.
   *
   * @return offsets in nanoseconds, ascending
   */
  public long[] schedule(long durationNanos) {
    long[] out = new long[16];
    int n = 0;
    long t = 0;
    while (true) {
      long gap = nextGapNanos();
      if (gap == Long.MAX_VALUE) {
        break;
      }
      t += gap;
      if (t >= durationNanos) {
        break;
      }
      if (n == out.length) {
        out = java.util.Arrays.copyOf(out, n * 2);
      }
      out[n++] = t;
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /**
   * The offsets from the start of a run of the next {@code n} arrivals (fewer if the process runs
   * out).
   *
   * @return offsets in nanoseconds, ascending
   */
  public long[] first(int n) {
    long[] out = new long[n];
    long t = 0;
    for (int i = 0; i < n; i++) {
      long gap = nextGapNanos();
      if (gap == Long.MAX_VALUE) {
        return java.util.Arrays.copyOf(out, i);
      }
      t += gap;
      out[i] = t;
    }
    return out;
  }

  private static void requirePositive(double v, String what) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(what + " must be a positive number, got " + v);
    }
  }

  private static final class Poisson extends ArrivalProcess {
    private final double rate;
    private final double meanGapNanos;
    private final SplittableRandom random;

    Poisson(double rate, long seed) {
      requirePositive(rate, "rate");
      this.rate = rate;
      this.meanGapNanos = 1e9 / rate;
      this.random = new SplittableRandom(seed);
    }

    @Override
    public long nextGapNanos() {
      return Math.round(-Math.log(1.0 - random.nextDouble()) * meanGapNanos);
    }

    @Override
    public double ratePerSecond() {
      return rate;
    }

    @Override
    public String toString() {
      return "poisson(" + rate + "/s)";
    }
  }

  private static final class LogNormal extends ArrivalProcess {
    private final double mean;
    private final double sd;
    private final double mu;
    private final double sigma;
    private final SplittableRandom random;

    LogNormal(double mean, double sd, long seed) {
      requirePositive(mean, "mean gap");
      requirePositive(sd, "gap standard deviation");
      this.mean = mean;
      this.sd = sd;
      // The log-normal whose mean and standard deviation are mean and sd.
      double variance = Math.log(1 + (sd * sd) / (mean * mean));
      this.sigma = Math.sqrt(variance);
      this.mu = Math.log(mean) - variance / 2;
      this.random = new SplittableRandom(seed);
    }

    @Override
    public long nextGapNanos() {
      return Math.round(Math.exp(mu + sigma * gaussian()));
    }

    private double gaussian() {
      // Box-Muller on the seeded stream: SplittableRandom has no nextGaussian of its own here.
      double u1 = 1.0 - random.nextDouble();
      double u2 = random.nextDouble();
      return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    @Override
    public double ratePerSecond() {
      return 1e9 / mean;
    }

    @Override
    public String toString() {
      return "lognormal(mean "
          + Durations.format(Math.round(mean))
          + ", sd "
          + Durations.format(Math.round(sd))
          + ")";
    }
  }

  private static final class Offsets extends ArrivalProcess {
    private final long[] offsets;
    private int next;
    private long last;

    Offsets(long[] offsets) {
      for (int i = 0; i < offsets.length; i++) {
        if (offsets[i] < 0 || (i > 0 && offsets[i] < offsets[i - 1])) {
          throw new IllegalArgumentException(
              "arrival offsets must be >= 0 and ascending; offset " + i + " is " + offsets[i]);
        }
      }
      this.offsets = offsets.clone();
    }

    @Override
    public long nextGapNanos() {
      if (next >= offsets.length) {
        return Long.MAX_VALUE;
      }
      long gap = offsets[next] - last;
      last = offsets[next++];
      return gap;
    }

    @Override
    public double ratePerSecond() {
      return offsets.length < 2
          ? 0
          : (offsets.length - 1) * 1e9 / (offsets[offsets.length - 1] - offsets[0]);
    }

    @Override
    public String toString() {
      return "trace(" + offsets.length + " arrivals)";
    }
  }
}
