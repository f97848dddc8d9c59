package dev.tailor.measure;

import dev.tailor.core.Durations;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Builds a {@link PointResult} from what a point recorded: its latency histogram and counts, and
 * where known its queueing delays, the client's send lag, its CPU time, its degree distribution and
 * the machine's noise. The load client and the simulator both build their results here, so that the
 * figures derived from the histograms (percentiles, miss ratios, achieved rate, the encoded
 * histogram) are derived one way.
 *
 * <p>Not thread-safe; build once the point has finished recording.
 */
public final class PointResultBuilder {

  private final String policy;
  private final Histogram latency;
  private double offeredRps;
  private String arrivals;
  private long seed;
  private int repetition = 1;
  private String environment;
  private String corpus;
  private long windowNanos = 1;
  private long sent;
  private long completed;
  private long failed;
  private Failures failures = Failures.NONE;
  private boolean saturated;
  private long cpuNanos = -1;
  private Histogram queueing;
  private Histogram sendLag;
  private List<Long> targetsNanos = List.of();
  private Map<String, long[]> degreeDistribution;
  private LatencyBreakdown breakdown;
  private MachineNoise noise;
  private CoRun coRun;
  private Provenance provenance = Provenance.current();

  /**
   * A builder of {@code policy}'s point, whose latencies (warm-up left out) are {@code latency}:
   * those of the requests completed with a result only, a failed request's being no latency of the
   * system's answers. The histogram is read when {@link #build} is called, not copied.
   */
  public PointResultBuilder(String policy, Histogram latency) {
    this.policy = policy;
    this.latency = latency;
  }

  /**
   * What the point is.
   *
   * @param offeredRps the arrival rate asked for
   * @param arrivals the arrival process's description
   * @param seed the seed of arrivals and request order
   * @param environment where the point ran, e.g. "simulated, 16 cores"
   * @param corpus the index's or profile's source label
   */
  public PointResultBuilder labels(
      double offeredRps, String arrivals, long seed, String environment, String corpus) {
    this.offeredRps = offeredRps;
    this.arrivals = arrivals;
    this.seed = seed;
    this.environment = environment;
    this.corpus = corpus;
    return this;
  }

  /** Which run of the same policy at the same load this is, from 1 (the default). */
  public PointResultBuilder repetition(int repetition) {
    this.repetition = repetition;
    return this;
  }

  /**
   * What happened in the measured window, where the failures' kinds are not known: the result gives
   * none ({@link PointResult#failures()} is null) unless there was no failure.
   *
   * @param windowNanos the measured window's length, at least 1
   * @param sent requests sent (arrived) in the window
   * @param completed of those, completed with a result; the achieved rate is these per second
   * @param failed of those, failed, rejected or never answered
   * @param saturated whether the backlog grew without bound and the point stopped early
   * @throws IllegalArgumentException if the window is not positive or a count negative
   */
  public PointResultBuilder outcome(
      long windowNanos, long sent, long completed, long failed, boolean saturated) {
    if (failed < 0) {
      throw new IllegalArgumentException("the failed count must not be negative, got " + failed);
    }
    outcome(windowNanos, sent, completed, failed == 0 ? Failures.NONE : null, saturated);
    this.failed = failed;
    return this;
  }

  /**
   * What happened in the measured window, the failures by kind.
   *
   * @param windowNanos the measured window's length, at least 1
   * @param sent requests sent (arrived) in the window
   * @param completed of those, completed with a result; the achieved rate is these per second
   * @param failures of those, the ones that got no result, by kind
   * @param saturated whether the backlog grew without bound and the point stopped early
   * @throws IllegalArgumentException if the window is not positive or a count negative
   */
  public PointResultBuilder outcome(
      long windowNanos, long sent, long completed, Failures failures, boolean saturated) {
    if (windowNanos < 1) {
      throw new IllegalArgumentException(
          "the measured window must be positive, got " + windowNanos);
    }
    if (sent < 0 || completed < 0) {
      throw new IllegalArgumentException(
          "counts must not be negative, got sent " + sent + ", completed " + completed);
    }
    this.windowNanos = windowNanos;
    this.sent = sent;
    this.completed = completed;
    this.failures = failures;
    this.failed = failures == null ? 0 : failures.total();
    this.saturated = saturated;
    return this;
  }

  /** The CPU time the process used during the point; -1 (the default) where unknown. */
  public PointResultBuilder cpuNanos(long cpuNanos) {
    this.cpuNanos = cpuNanos;
    return this;
  }

  /** The queueing delays (arrival to start); left out of the result where null or never set. */
  public PointResultBuilder queueing(Histogram queueing) {
    this.queueing = queueing;
    return this;
  }

  /** The client's lag behind its intended send times; left out where null or never set. */
  public PointResultBuilder sendLag(Histogram sendLag) {
    this.sendLag = sendLag;
    return this;
  }

  /** Latency targets whose miss ratios the result gives, in this order. */
  public PointResultBuilder missTargets(List<Long> targetsNanos) {
    this.targetsNanos = List.copyOf(targetsNanos);
    return this;
  }

  /** The degree distribution per request group; left out where null or never set. */
  public PointResultBuilder degreeDistribution(Map<String, long[]> degreeDistribution) {
    this.degreeDistribution = degreeDistribution;
    return this;
  }

  /** Where the served time went, part by part; null (the default) where it is not known. */
  public PointResultBuilder breakdown(LatencyBreakdown breakdown) {
    this.breakdown = breakdown;
    return this;
  }

  /**
   * What a {@link NoiseMeter} saw of the machine over the measured window; null (the default) where
   * nothing measured it, as in a simulation.
   */
  public PointResultBuilder noise(MachineNoise noise) {
    this.noise = noise;
    return this;
  }

  /**
   * How long the requests ran beside how many others ({@link CoRun}); null (the default) where it
   * was not measured.
   */
  public PointResultBuilder coRun(CoRun coRun) {
    this.coRun = coRun;
    return this;
  }

  /**
   * The build and machine the point records; this process's ({@link Provenance#current}) unless
   * set, as for a point rebuilt from another machine's figures.
   */
  public PointResultBuilder provenance(Provenance provenance) {
    this.provenance = provenance;
    return this;
  }

  /** The point's result. */
  public PointResult build() {
    return new PointResult(
        PointResult.FORMAT,
        PointResult.VERSION,
        policy,
        offeredRps,
        arrivals,
        seed,
        repetition,
        environment,
        corpus,
        windowNanos,
        sent,
        completed,
        failed,
        failures,
        saturated,
        completed * 1e9 / windowNanos,
        cpuNanos,
        PointResult.percentiles(latency),
        queueing == null ? null : PointResult.percentiles(queueing),
        sendLag == null ? null : PointResult.percentiles(sendLag),
        missRatios(),
        degreeDistribution,
        PointResult.encode(latency),
        breakdown,
        noise,
        provenance,
        coRun,
        null);
  }

  /**
   * Per target (formatted as a duration), the fraction of requests that did not get a result within
   * it: those answered slower, and every failed one, out of those answered and those failed. A
   * failed request met no target, so counting it out would let a policy that fails fast look better
   * than one that answers late.
   */
  private Map<String, Double> missRatios() {
    Map<String, Double> misses = new LinkedHashMap<>();
    long answered = latency.getTotalCount();
    long total = answered + failed;
    for (long t : targetsNanos) {
      long within = answered == 0 ? 0 : latency.getCountBetweenValues(0, t);
      misses.put(Durations.format(t), total == 0 ? 0.0 : 1.0 - (double) within / total);
    }
    return misses;
  }
}
