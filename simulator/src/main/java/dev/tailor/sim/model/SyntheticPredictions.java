package dev.tailor.sim.model;

import dev.tailor.measure.DemandProfile;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Predictions with a stated error, for a profile that has no queries to predict from (the
 * parametric one): each request's true sequential time times {@code exp(σ·Z)}, {@code Z} standard
 * normal, seeded. It lets a predicting policy (TPC, Jeon et al., ASPLOS'16, §3.1) be simulated on
 * the paper-shaped workload with a predictor about as good as the paper's (recall 0.86, precision
 * 0.91 for its long class), and says so: the method reads {@code synthetic lognormal σ, seed S}.
 */
public final class SyntheticPredictions {

  private SyntheticPredictions() {}

  /**
   * The profile with lognormal-error predictions attached.
   *
   * @throws IllegalArgumentException if {@code sigma} is negative or not finite
   */
  public static DemandProfile attach(DemandProfile profile, double sigma, long seed) {
    if (!(sigma >= 0) || Double.isInfinite(sigma)) {
      throw new IllegalArgumentException("the error's sigma must be >= 0, got " + sigma);
    }
    SplittableRandom random = new SplittableRandom(seed);
    long[] predicted = new long[profile.requests().size()];
    for (int i = 0; i < predicted.length; i++) {
      double z = random.nextGaussian();
      predicted[i] =
          Math.max(
              1, Math.round(profile.requests().get(i).sequentialNanos() * Math.exp(sigma * z)));
    }
    return profile.withPredictions(
        new DemandProfile.Predictions(
            null,
            null,
            String.format(Locale.ROOT, "synthetic lognormal %s, seed %d", sigma, seed),
            predicted));
  }
}
