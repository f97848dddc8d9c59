package dev.tailor.tables;

import dev.tailor.core.policy.TpcPolicy;
import dev.tailor.measure.DemandProfile;
import java.util.List;

/**
 * The checks of {@link TpcTableBuilder.Options}: each option alone and against the others when they
 * are made ({@link TpcTableBuilder.Options.Builder#build()}), and the variant against the profile
 * when a table is built or measured.
 *
 * <p>Apart from the options because they are a list of values with their defaults, and these are
 * the rules on them; each message names the option, what it was and what it needs, since it reaches
 * a user of {@code tables build tpc} as it is.
 */
final class TpcOptionsCheck {

  private TpcOptionsCheck() {}

  /**
   * Checks every option, always in the same order, so that the same bad options give the same
   * message.
   *
   * @throws IllegalArgumentException naming the first bad option, what it was and what it needs
   */
  static void check(TpcTableBuilder.Options o) {
    if (o.cores() < 1) {
      throw new IllegalArgumentException("cores: need at least 1, got " + o.cores());
    }
    if (o.maxDegree() < 1 || o.maxDegree() > o.cores()) {
      throw new IllegalArgumentException(
          "maxDegree: need 1 to cores (" + o.cores() + "), got " + o.maxDegree());
    }
    List<Double> rates = o.ratesRps();
    if (rates.isEmpty() || rates.stream().anyMatch(r -> !(r > 0))) {
      throw new IllegalArgumentException(
          "ratesRps: need at least one arrival rate, each > 0, got " + rates);
    }
    List<Double> weights = o.weights();
    if (weights != null
        && (weights.size() != rates.size() || weights.stream().anyMatch(w -> !(w >= 0)))) {
      throw new IllegalArgumentException(
          "weights: need one weight >= 0 per rate (" + rates.size() + "), got " + weights);
    }
    if (!"p99".equals(o.quantile()) && !"p99.9".equals(o.quantile())) {
      throw new IllegalArgumentException("quantile: need p99 or p99.9, got " + o.quantile());
    }
    atLeast("stepNanos", o.stepNanos(), 0);
    atLeast("loads", o.loads(), 1);
    atLeast("requests", o.requests(), 10);
    atLeast("seeds", o.seeds(), 1);
    atLeast("maxIterations", o.maxIterations(), 0);
    atLeast("quantumNanos", o.quantumNanos(), 1);
    atLeast("threads", o.threads(), 1);
    if (o.stepDoublings() < 0 || o.stepDoublings() > 20) {
      throw new IllegalArgumentException("stepDoublings: need 0 to 20, got " + o.stepDoublings());
    }
    atLeast("mediumFromNanos", o.mediumFromNanos(), 0);
    atLeast("longFromNanos", o.longFromNanos(), 0);
    if (o.model() == null || o.variant() == null || o.loadMetric() == null) {
      throw new IllegalArgumentException(
          (o.model() == null ? "model" : o.variant() == null ? "variant" : "loadMetric")
              + ": need a value, got null");
    }
    if (o.variant() == TpcPolicy.Variant.TP) {
      // TP is TPC without the dynamic correction and reads TPC's table: it has none of its own.
      throw new IllegalArgumentException("variant: tp reads tpc's table, so build it for tpc");
    }
  }

  /**
   * Checks that {@code profile} tells the policy what the variant needs: {@code TPC} is told the
   * profile's predictions, so the profile must carry some; {@code TPC_ORACLE} the true times.
   *
   * @throws IllegalArgumentException saying how to attach predictions, if the profile has none
   */
  static void checkPredictions(TpcTableBuilder.Options o, DemandProfile profile) {
    if (o.variant() == TpcPolicy.Variant.TPC && profile.predictions() == null) {
      throw new IllegalArgumentException(
          "the profile carries no predictions: attach a model's with tailor predictor predict (or"
              + " give --model), or build for the perfect predictor (tpc-oracle)");
    }
  }

  private static void atLeast(String option, long value, long least) {
    if (value < least) {
      throw new IllegalArgumentException(option + ": need at least " + least + ", got " + value);
    }
  }
}
