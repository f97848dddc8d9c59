package dev.tailor.studies.cluster;

import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.arrival.RequestOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How one query's work divides among the shards of a document-sharded index: each of N shards gets
 * the query's sequential work over N times a per-shard noise factor, log-normal with mean 1 and a
 * given standard deviation, drawn independently for every query and shard. The query's unit times
 * are scaled alike (so is the hand-off overhead the unit model derives from them), its speedup
 * curve is kept, and a prediction is divided by N (a shard's predictor sees the shard's statistics,
 * not the noise).
 *
 * <p>Two modes. {@linkplain #correlated Correlated} is the model: the same query hits every shard,
 * so a long query is long everywhere and only the noise tells the shards apart. {@linkplain
 * #independent Independent} is the reference case in which each shard draws its own query from the
 * workload, so that shards' service times are independent and identically distributed and the
 * slowest of N has the distribution {@code F^N} exactly when nothing queues.
 *
 * <p>A single shard holds the whole index: it gets the query's own work, without noise, so a
 * one-shard cluster is the single-server simulator.
 *
 * <p>Why the default noise is {@value #DEFAULT_NOISE_SD}: it is the spread at which the model puts
 * the aggregator where TPC measured it. On Bing's 40 index servers the aggregator's P99 appeared at
 * a server's P99.8 (Jeon et al., ASPLOS'16, §4.5, Figure 8(b)), as the slowest of 5 independent
 * servers would, not of 40. On tail-control's log-normal workload (mean 10 ms, sd 13 ms) over 40
 * shards of 16 cores, a spread of 0.3 puts the slowest shard's P99 at a shard's P99.74 to P99.83 (4
 * to 6 independent shards' worth, by policy: {@code tailor aggregate}'s default run); 0.1 puts it
 * near P99.4, 0.5 near P99.9. One index's own unevenness is far less: over the demo's TREC 2005
 * Terabyte profile (1,000 queries on 1,000,000 Lucene documents, each query's work measured in
 * eight equal doc-id windows, which stand for eight document shards) the coefficient of variation
 * of a query's window times, the first window aside (it carries the query's set-up, which every
 * shard pays), has median 0.04 and mean 0.06, on the generated luceneutil-style trace too. The rest
 * is what separate machines add (interference, caches, garbage collection), which the model has no
 * other place for; {@code tailor aggregate --shard-noise 0.05} runs the floor.
 */
public final class ShardWork {

  /** The default standard deviation of the per-shard factor (see the class comment). */
  public static final double DEFAULT_NOISE_SD = 0.3;

  private static final long NOISE_STREAM = 1;
  private static final long ORDER_STREAM = 2;

  private final boolean independent;
  private final double noiseSd;
  private final double mu;
  private final double sigma;

  private ShardWork(boolean independent, double noiseSd) {
    if (!(noiseSd >= 0) || Double.isInfinite(noiseSd)) {
      throw new IllegalArgumentException(
          "the shard noise must be a standard deviation >= 0 such as 0.05, got " + noiseSd);
    }
    this.independent = independent;
    this.noiseSd = noiseSd;
    // The log-normal of mean 1 and standard deviation noiseSd.
    double s2 = Math.log(1 + noiseSd * noiseSd);
    this.sigma = Math.sqrt(s2);
    this.mu = -s2 / 2;
  }

  /**
   * Every shard runs the query's work over N times its own noise factor.
   *
   * @throws IllegalArgumentException if the noise is negative or not finite
   */
  public static ShardWork correlated(double noiseSd) {
    return new ShardWork(false, noiseSd);
  }

  /**
   * Each shard runs its own seeded draw of the workload's queries, over N times its own noise
   * factor: shards independent of each other.
   *
   * @throws IllegalArgumentException if the noise is negative or not finite
   */
  public static ShardWork independent(double noiseSd) {
    return new ShardWork(true, noiseSd);
  }

  /**
   * The mode named {@code correlated} or {@code independent}, with the given noise.
   *
   * @throws IllegalArgumentException naming the mode and the expected ones, or the bad noise
   */
  public static ShardWork of(String mode, double noiseSd) {
    return switch (mode.trim().toLowerCase(Locale.ROOT)) {
      case "correlated" -> correlated(noiseSd);
      case "independent" -> independent(noiseSd);
      default ->
          throw new IllegalArgumentException(
              "unknown shard work '" + mode + "'; expected correlated or independent");
    };
  }

  /** Whether each shard draws its own queries. */
  public boolean independent() {
    return independent;
  }

  /** The standard deviation of the per-shard factor. */
  public double noiseSd() {
    return noiseSd;
  }

  /** How reports name it, e.g. {@code correlated}. */
  public String mode() {
    return independent ? "independent" : "correlated";
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s, shard noise sd %s", mode(), trim(noiseSd));
  }

  /**
   * The profile shard {@code shard} of {@code shards} runs: its request {@code j} is arrival {@code
   * j}'s work there, so the shard's simulator takes the arrivals in order.
   *
   * @param order the query of the base profile each arrival asks
   * @param seed the seed of the noise (and, independent, of the shards' own orders); the same for
   *     every rate, so that a search over rates sees the same work
   * @param units whether to keep the requests' unit times (the unit model needs them; the fluid
   *     model does not, and copying them is most of the cost of a shard's profile)
   */
  DemandProfile shardProfile(
      DemandProfile base, int[] order, int shard, int shards, long seed, boolean units) {
    int n = order.length;
    int[] queries =
        independent && shard > 0
            ? RequestOrder.shuffled(
                n, base.requests().size(), streamSeed(seed, ORDER_STREAM, shard))
            : order;
    SplittableRandom noise = new SplittableRandom(streamSeed(seed, NOISE_STREAM, shard));
    long[] predicted = base.predictions() == null ? null : new long[n];
    List<DemandProfile.Request> requests = new ArrayList<>(n);
    for (int j = 0; j < n; j++) {
      DemandProfile.Request r = base.requests().get(queries[j]);
      if (shards == 1) {
        requests.add(r);
      } else {
        double factor = Math.exp(mu + sigma * gaussian(noise)) / shards;
        requests.add(units ? r.scaled(factor) : withoutUnits(r, factor));
      }
      if (predicted != null) {
        long p = base.predictedNanos(queries[j]);
        predicted[j] = shards == 1 || p < 0 ? p : Math.round((double) p / shards);
      }
    }
    DemandProfile out =
        DemandProfile.of(
            base.environment(), base.settings(), base.complete(), base.conditions(), requests);
    if (predicted != null) {
      DemandProfile.Predictions p = base.predictions();
      out =
          out.withPredictions(
              new DemandProfile.Predictions(p.model(), p.modelDigest(), p.method(), predicted));
    }
    return out;
  }

  /** The request with its sequential time scaled and no unit times, for the fluid model. */
  private static DemandProfile.Request withoutUnits(DemandProfile.Request r, double factor) {
    return new DemandProfile.Request(
        r.id(),
        r.category(),
        r.query(),
        Math.round(r.sequentialNanos() * factor),
        null,
        r.measuredSpeedup(),
        r.derivedSpeedup(),
        r.features(),
        r.spread());
  }

  /** A seed for one stream of one shard, mixed so that nearby seeds give unrelated streams. */
  static long streamSeed(long seed, long stream, int shard) {
    long z = seed + 0x9E3779B97F4A7C15L * (stream * 65_537 + shard + 1);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** A standard normal variate (Box-Muller), from the seeded generator only. */
  private static double gaussian(SplittableRandom random) {
    double u = 1 - random.nextDouble(); // (0, 1]
    double v = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  private static String trim(double v) {
    return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }
}
