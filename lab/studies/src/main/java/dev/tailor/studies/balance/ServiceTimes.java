package dev.tailor.studies.balance;

import dev.tailor.core.Durations;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.model.LogNormalProfile;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A distribution of requests' times on a core, drawn deterministically for a seed: exponential (the
 * paper's canonical microsecond tasks, McClure et al., NSDI'22, §4.1), tail-control's log-normal
 * (Li et al., PPoPP'16, §5) or a demand profile's sequential times resampled. Immutable.
 */
public final class ServiceTimes {

  private interface Sampler {
    long[] draw(int n, long seed);
  }

  private final String description;
  private final double meanNanos;
  private final Sampler sampler;

  private ServiceTimes(String description, double meanNanos, Sampler sampler) {
    this.description = description;
    this.meanNanos = meanNanos;
    this.sampler = sampler;
  }

  /**
   * Exponential times of the given mean, floored at 1 ns.
   *
   * @throws IllegalArgumentException unless the mean is positive
   */
  public static ServiceTimes exponential(long meanNanos) {
    if (meanNanos <= 0) {
      throw new IllegalArgumentException("exponential mean must be > 0 ns, got " + meanNanos);
    }
    return new ServiceTimes(
        "exponential mean " + Durations.format(meanNanos),
        meanNanos,
        (n, seed) -> {
          SplittableRandom random = new SplittableRandom(seed);
          long[] out = new long[n];
          for (int i = 0; i < n; i++) {
            out[i] = Math.max(1, Math.round(-Math.log(1.0 - random.nextDouble()) * meanNanos));
          }
          return out;
        });
  }

  /** Tail-control's log-normal work, the sequential times of {@link LogNormalProfile}. */
  public static ServiceTimes logNormal(LogNormalProfile.Shape shape) {
    // Not Shape.describe(): it prints a deviation of 1.3 ms as the binary double's full expansion.
    return new ServiceTimes(
        "log-normal mean " + millis(shape.meanNanos()) + " sd " + millis(shape.sdNanos()),
        shape.meanNanos(),
        (n, seed) -> sequentialNanos(LogNormalProfile.generate(shape, n, 1, seed).requests()));
  }

  /**
   * A profile's sequential times, drawn uniformly with replacement.
   *
   * @throws IllegalArgumentException if the profile has no request
   */
  public static ServiceTimes resampled(DemandProfile profile, String name) {
    long[] times = sequentialNanos(profile.requests());
    if (times.length == 0) {
      throw new IllegalArgumentException("profile " + name + " has no request");
    }
    double sum = 0;
    for (long t : times) {
      sum += t;
    }
    return new ServiceTimes(
        "profile " + name + " (" + times.length + " requests, resampled)",
        sum / times.length,
        (n, seed) -> {
          SplittableRandom random = new SplittableRandom(seed);
          long[] out = new long[n];
          for (int i = 0; i < n; i++) {
            out[i] = times[random.nextInt(times.length)];
          }
          return out;
        });
  }

  /**
   * Parses {@code exponential:MEAN} (e.g. {@code exponential:1us}) or {@code lognormal:MEAN,SD}
   * (e.g. {@code lognormal:10ms,13ms}).
   *
   * @throws IllegalArgumentException naming the specification and the expected forms
   */
  public static ServiceTimes parse(String spec) {
    String s = spec.trim().toLowerCase(Locale.ROOT);
    try {
      if (s.startsWith("exponential:")) {
        return exponential(Durations.parseNanos(s.substring("exponential:".length())));
      }
      if (s.startsWith("lognormal:")) {
        return logNormal(LogNormalProfile.Shape.parse(s.substring("lognormal:".length())));
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("workload '" + spec + "': " + e.getMessage(), e);
    }
    throw new IllegalArgumentException(
        "unknown workload '"
            + spec
            + "'; expected exponential:MEAN (e.g. exponential:1us) or lognormal:MEAN,SD (e.g."
            + " lognormal:10ms,13ms)");
  }

  /** {@code n} times for a seed. */
  public long[] draw(int n, long seed) {
    return sampler.draw(n, seed);
  }

  /** The distribution's mean, which sets the arrival rate of a given utilization. */
  public double meanNanos() {
    return meanNanos;
  }

  @Override
  public String toString() {
    return description;
  }

  private static String millis(long nanos) {
    return java.math.BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString() + "ms";
  }

  private static long[] sequentialNanos(List<DemandProfile.Request> requests) {
    long[] out = new long[requests.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = requests.get(i).sequentialNanos();
    }
    return out;
  }
}
