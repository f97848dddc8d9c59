package dev.tailor.auto;

import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.DegreeCap;
import dev.tailor.core.policy.Policies;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicySpec;
import dev.tailor.core.policy.ProgressPolicy;
import dev.tailor.core.policy.TpcPolicy;
import dev.tailor.core.table.TableSource;
import dev.tailor.core.table.TargetTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.tables.TpcTableBuilder;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One rebuild, from a copy of the samples to a verdict: the samples become a demand profile ({@link
 * SampleProfile}); the progress-aware policy's target table is built from it by the offline builder
 * ({@link TpcTableBuilder#forProgress()}, Jeon et al., ASPLOS'16, Algorithm 1, at half, once and
 * one and a half times the samples' arrival rate); that policy and the static baselines are
 * simulated with the live policy on the profile at the samples' rate, on the same arrivals; the
 * lowest P99 is chosen, and swapped in only if it is at least {@value #MARGIN} below the live
 * policy's: the guard the nightly rebuild has, with a margin for the guard's own noise. Pure but
 * for the clock that bounds it: the same samples, policy and seed give the same verdict.
 */
final class Rebuild {

  /** Probes per degree (and at degree 1) below which speedup counts as not measured. */
  static final int MIN_PROBES = 8;

  /** Samples below which a rebuild is skipped. */
  static final int MIN_SAMPLES = 100;

  /**
   * The baselines every rebuild tries besides the progress-aware policy, WQ-Linear's highest degree
   * being the degree cap. They hold nothing, so they need no closing.
   */
  static List<Policy> baselines(int maxDegree) {
    return List.of(
        Policies.seq(),
        Policies.fixed(2),
        Policies.fixed(4),
        Policies.stealFirst(),
        Policies.wqLinear(maxDegree));
  }

  /**
   * How much lower than the live policy's a candidate's simulated P99 must be to be swapped in: the
   * guard's estimates move by more than this between rebuilds on the same workload, so a smaller
   * difference is noise, and swapping on noise churns the policy that serves.
   */
  static final double MARGIN = 0.03;

  /**
   * The identity of the candidate the rebuild builds: the progress-aware policy on the target table
   * built from the samples, which it holds in memory ({@code progress:(in memory)}), and which the
   * live policy has once that candidate is swapped in.
   */
  static final PolicySpec PROGRESS = PolicySpec.inMemory(ProgressPolicy.NAME);

  /** A rebuild that ran past its time limit. */
  static final class TimedOut extends RuntimeException {
    TimedOut(String step) {
      super("the rebuild ran past its time limit " + step);
    }
  }

  /** A rebuild stopped because its policy was closed. */
  static final class Stopped extends RuntimeException {
    Stopped(String step) {
      super("the rebuild was stopped by close " + step);
    }
  }

  /**
   * What a rebuild decided.
   *
   * @param verdict what it compared and why
   * @param policy the policy to swap in, or null to keep the live one
   * @param identity the identity of the policy to swap in, or null to keep the live one
   */
  record Result(AutoStatus.Verdict verdict, Policy policy, PolicySpec identity) {}

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private Rebuild() {}

  /**
   * Rebuilds.
   *
   * @param samples the reservoir's copy
   * @param probes the probes' reservoir's copy
   * @param cores the scheduler's threads: the simulations' cores
   * @param maxDegree every policy's degree cap
   * @param live the policy serving now
   * @param excluded a candidate not to offer (one just rolled back), or null
   * @param settings the simulations' sizes
   * @param seed the arrivals' seed
   * @param deadlineNanos {@link System#nanoTime()} past which the rebuild gives up
   * @throws TimedOut if the deadline passes between two of its steps
   * @throws Stopped if the thread is interrupted (its policy closed) between two of its steps
   */
  static Result run(
      Samples samples,
      Samples probes,
      int cores,
      int maxDegree,
      Policy live,
      PolicySpec excluded,
      AutoSettings settings,
      long seed,
      long deadlineNanos) {
    long cpu0 = cpuNanos();
    long wall0 = System.nanoTime();
    int n = samples.size();
    double rate = samples.rateRps();
    if (n < MIN_SAMPLES || rate <= 0) {
      return skipped(samples, rate, new int[0], "too few samples: " + n, cpu0, wall0);
    }
    SpeedupEstimate speedup = SpeedupEstimate.of(probes, maxDegree, MIN_PROBES);
    if (speedup == null) {
      return skipped(
          samples,
          rate,
          new int[0],
          "too few probes to measure speedup: "
              + probes.runsProbedAt(1).length
              + " at degree 1, need "
              + MIN_PROBES
              + " there and at some degree above",
          cpu0,
          wall0);
    }
    DemandProfile profile = SampleProfile.of(samples, probes, speedup, maxDegree);
    long median = medianSequentialNanos(profile);
    Simulator.Config config =
        new Simulator.Config(
            cores,
            Scheduler.DEFAULT_QUANTUM_NANOS,
            Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
            0,
            100_000,
            List.of(),
            Simulator.WorkModel.UNITS);
    Map<PolicySpec, Policy> candidates = new LinkedHashMap<>();
    PolicySpec serving = live.identity();
    for (Policy baseline : baselines(maxDegree)) {
      PolicySpec id = baseline.identity();
      if (degreeOf(id) <= maxDegree && !id.equals(serving) && !id.equals(excluded)) {
        candidates.put(id, DegreeCap.of(baseline, maxDegree));
      }
    }
    if (!PROGRESS.equals(excluded)) {
      TargetTable table = targets(profile, cores, maxDegree, rate, settings, seed);
      check(deadlineNanos, "building the target table");
      candidates.put(
          PROGRESS, DegreeCap.of(ProgressPolicy.of(TableSource.fixed(table), null), maxDegree));
    }

    List<AutoStatus.Trial> trials = new ArrayList<>();
    double liveP99 = p99(DegreeCap.of(live, maxDegree), profile, config, rate, settings, seed);
    trials.add(new AutoStatus.Trial(live.spec(), liveP99, true));
    PolicySpec best = null;
    double bestP99 = Double.POSITIVE_INFINITY;
    for (Map.Entry<PolicySpec, Policy> c : candidates.entrySet()) {
      check(deadlineNanos, "simulating " + c.getKey());
      double p99 = p99(c.getValue(), profile, config, rate, settings, seed);
      trials.add(new AutoStatus.Trial(c.getKey().toString(), p99, false));
      if (p99 < bestP99) {
        best = c.getKey();
        bestP99 = p99;
      }
    }
    boolean swap = best != null && bestP99 < (1 - MARGIN) * liveP99;
    String reason =
        swap
            ? best + " simulated a P99 of " + ms(bestP99) + " against the live " + ms(liveP99)
            : "no candidate simulated 3% below the live policy's P99 of "
                + ms(liveP99)
                + (best == null ? "" : " (best: " + best + ", " + ms(bestP99) + ")");
    AutoStatus.Verdict verdict =
        new AutoStatus.Verdict(
            n,
            rate,
            speedup.measuredDegrees(),
            speedup.describe()
                + String.format(java.util.Locale.ROOT, "; busy x%.2f", speedup.inflation()),
            median,
            trials,
            best == null ? null : best.toString(),
            swap,
            reason,
            cpuNanos() - cpu0,
            System.nanoTime() - wall0);
    return swap ? new Result(verdict, candidates.get(best), best) : new Result(verdict, null, null);
  }

  /** The target table of the progress-aware policy for the samples' profile and load. */
  private static TargetTable targets(
      DemandProfile profile,
      int cores,
      int maxDegree,
      double rate,
      AutoSettings settings,
      long seed) {
    double capacity = cores * 1e9 / profile.meanSequentialNanos();
    List<Double> rates = new ArrayList<>();
    for (double r : new double[] {0.5 * rate, rate, 1.5 * rate}) {
      double capped = Math.min(r, 0.95 * capacity);
      if (capped > 0 && (rates.isEmpty() || capped > rates.get(rates.size() - 1))) {
        rates.add(capped);
      }
    }
    TpcTableBuilder.Options options =
        TpcTableBuilder.Options.builder()
            .cores(cores)
            .maxDegree(maxDegree)
            .ratesRps(rates)
            .quantile("p99")
            .loads(Math.min(cores, 8))
            .requests(settings.requestsPerPoint())
            .seeds(1)
            .seed(seed)
            .model(Simulator.WorkModel.UNITS)
            .quantumNanos(Scheduler.DEFAULT_QUANTUM_NANOS)
            .maxIterations(settings.iterations())
            .stepDoublings(6)
            .threads(1)
            // No predictor online: the table is searched for the policy without predictions,
            // which the known variant lets the builder do (the progress-aware policy is not
            // clairvoyant, so the simulator gives it no prediction).
            .variant(TpcPolicy.Variant.TPC_ORACLE)
            .loadMetric(TargetTable.LoadMetric.ALL_THREADS)
            .build();
    return new TpcTableBuilder(options)
        .forProgress()
        .build(
            profile,
            new TpcTableBuilder.Sources(
                "the auto reservoir", "online:" + profile.requests().size(), null, null));
  }

  /** The policy's P99 at {@code rate}, averaged over the guard's seeds; infinite if saturated. */
  private static double p99(
      Policy policy,
      DemandProfile profile,
      Simulator.Config config,
      double rate,
      AutoSettings settings,
      long seed) {
    double sum = 0;
    for (int s = 0; s < settings.seeds(); s++) {
      SweepPlan sweep = SweepPlan.counted("poisson", seed + s, settings.requestsPerPoint());
      PointResult r =
          new Simulator(profile, policy, config)
              .run(sweep.point(rate, profile.requests().size()), "auto-guard");
      if (r.saturated()) {
        return Double.POSITIVE_INFINITY;
      }
      sum += r.latencyAt("p99");
    }
    return sum / settings.seeds();
  }

  private static long medianSequentialNanos(DemandProfile profile) {
    long[] t =
        profile.requests().stream().mapToLong(DemandProfile.Request::sequentialNanos).toArray();
    java.util.Arrays.sort(t);
    return t[t.length / 2];
  }

  /**
   * The degree a baseline gives every request whatever the cap: Fixed(N)'s N; the others adapt to
   * the cap, as 1.
   */
  private static int degreeOf(PolicySpec baseline) {
    return baseline.kind().equals("fixed") ? Integer.parseInt(baseline.arguments().get(0)) : 1;
  }

  private static void check(long deadlineNanos, String step) {
    if (System.nanoTime() - deadlineNanos > 0) {
      throw new TimedOut(step);
    }
    if (Thread.currentThread().isInterrupted()) {
      throw new Stopped(step);
    }
  }

  private static Result skipped(
      Samples samples, double rate, int[] degrees, String reason, long cpu0, long wall0) {
    return new Result(
        new AutoStatus.Verdict(
            samples.size(),
            rate,
            degrees,
            "",
            0,
            List.of(),
            null,
            false,
            "skipped: " + reason,
            cpuNanos() - cpu0,
            System.nanoTime() - wall0),
        null,
        null);
  }

  /** The current thread's CPU time, or its wall clock where the JVM cannot tell. */
  static long cpuNanos() {
    long t = THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
    return t >= 0 ? t : System.nanoTime();
  }

  private static String ms(double nanos) {
    return Double.isInfinite(nanos) ? "saturated" : String.format("%.2f ms", nanos / 1e6);
  }
}
