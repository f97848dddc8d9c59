package dev.tailor.sweep;

import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.model.LogNormalProfile;
import dev.tailor.sim.model.ParametricProfile;
import dev.tailor.sim.model.SyntheticPredictions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The requests a simulated sweep runs, and how its points and its report name them.
 *
 * @param corpus what every simulated point says it ran on
 * @param reported how the report's workload section names it
 */
public record SweepWorkload(DemandProfile profile, String corpus, String reported) {

  /** A measured demand profile, read from {@code file}. */
  public static SweepWorkload measured(Path file) throws IOException {
    DemandProfile p = DemandProfile.read(file);
    String name = "profile " + file.getFileName();
    return new SweepWorkload(p, name + " of " + p.environment().indexLabel(), name);
  }

  /**
   * Tail-control's log-normal work, {@code MEAN,SD[,SERIAL]}, as {@link Workloads#lognormal}.
   *
   * @throws IllegalArgumentException if the shape is bad
   */
  public static SweepWorkload lognormal(String shape, int requests, int maxCores, long seed) {
    String described = LogNormalProfile.Shape.parse(shape).describe();
    return new SweepWorkload(
        Workloads.lognormal(shape, requests, maxCores, seed),
        described + " (synthetic)",
        "the " + described + " workload (synthetic)");
  }

  /** {@code requests} requests of the Few-to-Many paper's parametric Lucene shape. */
  public static SweepWorkload parametric(int requests, int maxCores, long seed) {
    return new SweepWorkload(
        ParametricProfile.generate(requests, Math.max(maxCores, 16), seed),
        "parametric profile shaped like the FM paper's Lucene workload (synthetic)",
        "the parametric profile (synthetic)");
  }

  /**
   * Every time multiplied by {@code factor}, as if every request did that many times its work.
   *
   * @throws IllegalArgumentException if the factor is not positive
   */
  public SweepWorkload scaled(double factor) {
    return factor == 1
        ? this
        : new SweepWorkload(
            profile.scaled(factor),
            corpus + String.format(Locale.ROOT, ", every time x%s", factor),
            reported);
  }

  /**
   * With synthetic predictions: each true time times {@code exp(sigma * Z)}, Z standard normal,
   * seed 1.
   *
   * @throws IllegalArgumentException if sigma is negative
   */
  public SweepWorkload predicted(double sigma) {
    return new SweepWorkload(SyntheticPredictions.attach(profile, sigma, 1), corpus, reported);
  }
}
