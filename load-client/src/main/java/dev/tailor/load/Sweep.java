package dev.tailor.load;

import dev.tailor.load.report.Metric;
import dev.tailor.measure.NoiseMeter;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.SpeedProbe;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A sweep: every policy at every offered load, each point an open-loop replay. Every (policy, load)
 * pair gets the same arrival sequence for its load and the same query order, so that policies
 * differ only in their decisions; both come from a {@link SweepPlan}, as a simulation's do.
 *
 * <p>On a shared machine one run of a point says little: the same point moves by tens of percent
 * between runs. So a sweep can repeat every point, and it interleaves the repetitions: at each
 * load, repetition after repetition runs every policy once, in an order that changes from one round
 * to the next ({@link #order}), so that a slow spell of the machine, or the state one policy leaves
 * behind, does not always fall on the same policy. Before the first measured point every policy
 * runs the first load's warm-up once, unrecorded, so that the first measured point is not the one
 * that pays for a cold JVM.
 *
 * <p>One {@link NoiseMeter} runs through the sweep, and every measured point carries the machine's
 * noise over its measured window ({@link PointResult#noise}), so that a point the machine slowed
 * (stalls, GC pauses, steal, other processes) can be told from one its policy did.
 */
public final class Sweep {

  /** How the report describes the order of a sweep's points. */
  public static final String ORDER =
      "every round runs every load in turn, lightest first, so that the machine's drift over the"
          + " sweep falls on every load alike, and at each load every policy (at every worker count"
          + " swept) once, interleaved, in"
          + " an order rotated from one load and round to the next (a Williams design: each policy"
          + " runs first, and right after each other policy, equally often), after one unrecorded"
          + " warm-up run of every policy";

  /**
   * The policy a sweep runs for a listed one at a load, such as the setting a tuned policy chose
   * for that load. Its points are reported under the listed name.
   */
  @FunctionalInterface
  public interface Resolver {
    /** No resolution: every listed policy runs as listed. */
    Resolver IDENTITY = (listed, rps) -> listed;

    /** The specification to run for {@code listed} at {@code rps}. */
    String resolve(String listed, double rps) throws IOException;
  }

  /**
   * In a listed policy, what stands for the point's load, so that one column runs a table built for
   * each rate, as tail-control's thresholds are: {@code tc:t-{rps}.json}.
   */
  public static final String LOAD = "{rps}";

  /**
   * A specification with {@value #LOAD} replaced by the load as a report writes it ({@code
   * tc:t-{rps}.json} at 1200 rps is {@code tc:t-1200.json}, at 12.5 rps {@code tc:t-12.50.json}).
   */
  public static String atLoad(String spec, double rps) {
    if (!spec.contains(LOAD)) {
      return spec;
    }
    return spec.replace(LOAD, Metric.load(rps));
  }

  /**
   * What to sweep.
   *
   * @param policies policy specifications, as listed (and reported)
   * @param rps offered loads, requests per second
   * @param points each point's arrivals, query order and warm-up
   * @param maxBacklog the most requests in flight before a point counts as saturated
   * @param drainNanos how long to wait for the last answers after the last send
   * @param targetsNanos latency targets for the miss ratios
   * @param repetitions how many times every point runs, at least 1
   * @param resolver the policy run for a listed one at a load
   * @param workers the worker counts every policy runs at, each a column of its own interleaved
   *     with the others ({@link Targets#open(String, int)}), or empty for the target's own
   */
  public record Plan(
      List<String> policies,
      List<Double> rps,
      SweepPlan points,
      int maxBacklog,
      long drainNanos,
      List<Long> targetsNanos,
      int repetitions,
      Resolver resolver,
      List<Integer> workers) {

    /**
     * Checks the plan.
     *
     * @throws IllegalArgumentException if there is nothing to run, a load is not positive, the
     *     repetitions are fewer than 1 or a worker count is below 1 or listed twice
     */
    public Plan {
      policies = List.copyOf(policies);
      rps = List.copyOf(rps);
      targetsNanos = List.copyOf(targetsNanos);
      workers = workers == null ? List.of() : List.copyOf(workers);
      if (workers.stream().anyMatch(w -> w < 1)
          || workers.stream().distinct().count() < workers.size()) {
        throw new IllegalArgumentException(
            "worker counts must be >= 1 and each listed once, got " + workers);
      }
      if (policies.isEmpty() || rps.isEmpty()) {
        throw new IllegalArgumentException("a sweep needs at least one policy and one load");
      }
      for (double r : rps) {
        if (!(r > 0)) {
          throw new IllegalArgumentException("loads must be positive, got " + r);
        }
      }
      if (repetitions < 1) {
        throw new IllegalArgumentException("repetitions must be >= 1, got " + repetitions);
      }
      if (resolver == null) {
        resolver = Resolver.IDENTITY;
      }
    }

    /** A plan that runs every point once, each policy as listed. */
    public Plan(
        List<String> policies,
        List<Double> rps,
        SweepPlan points,
        int maxBacklog,
        long drainNanos,
        List<Long> targetsNanos) {
      this(
          policies,
          rps,
          points,
          maxBacklog,
          drainNanos,
          targetsNanos,
          1,
          Resolver.IDENTITY,
          List.of());
    }

    /** The same plan for other policies (e.g. the one a remote server runs). */
    public Plan withPolicies(List<String> others) {
      return new Plan(
          others,
          rps,
          points,
          maxBacklog,
          drainNanos,
          targetsNanos,
          repetitions,
          resolver,
          workers);
    }

    /** The same plan, every point run {@code n} times. */
    public Plan withRepetitions(int n) {
      return new Plan(
          policies, rps, points, maxBacklog, drainNanos, targetsNanos, n, resolver, workers);
    }

    /** The same plan, each listed policy run as {@code r} resolves it at each load. */
    public Plan withResolver(Resolver r) {
      return new Plan(
          policies, rps, points, maxBacklog, drainNanos, targetsNanos, repetitions, r, workers);
    }

    /**
     * The same plan, every policy run at each of {@code counts} workers, a column per pair, so that
     * a comparison of worker counts (as of the simulator's core-count extrapolation) is not a
     * comparison of two moments of the machine.
     */
    public Plan withWorkers(List<Integer> counts) {
      return new Plan(
          policies,
          rps,
          points,
          maxBacklog,
          drainNanos,
          targetsNanos,
          repetitions,
          resolver,
          counts);
    }

    /** How many measured points the sweep runs. */
    public int size() {
      return columns().size() * rps.size() * repetitions;
    }

    /** The sweep's columns: every policy at every worker count, policy by policy. */
    List<Column> columns() {
      List<Column> out = new ArrayList<>();
      for (String p : policies) {
        if (workers.isEmpty()) {
          out.add(new Column(p, 0));
        }
        for (int w : workers) {
          out.add(new Column(p, w));
        }
      }
      return out;
    }
  }

  /** A listed policy at a worker count, 0 for the target's own. */
  record Column(String policy, int workers) {

    /** The environment its points are labelled with: {@code base}, and the workers where set. */
    String environment(String base) {
      return PointResult.withWorkers(base, workers);
    }
  }

  /** Opens a fresh target running a policy. */
  @FunctionalInterface
  public interface Targets {
    /** A target running {@code policy}, closed once its point is done. */
    Target open(String policy) throws IOException;

    /**
     * A target running {@code policy} on {@code workers} workers, or on its own where {@code
     * workers} is 0; by default only the latter, a target whose workers are not set by the sweep.
     *
     * @throws IllegalArgumentException if this target's workers cannot be set
     */
    default Target open(String policy, int workers) throws IOException {
      if (workers != 0) {
        throw new IllegalArgumentException(
            "this target runs on its own workers; it cannot be swept over worker counts");
      }
      return open(policy);
    }
  }

  /**
   * Measures the machine's speed just before a run ({@link SpeedProbe}), with nothing in flight.
   */
  @FunctionalInterface
  public interface Probe {
    /** The machine's speed now. */
    SpeedProbe measure() throws IOException;
  }

  private Sweep() {}

  /**
   * The order in which round {@code round} (from 0) runs {@code n} policies: a row of a Williams
   * design, a Latin square in which each policy comes first, and right after each other policy,
   * equally often (for even {@code n} every {@code n} rounds, for odd {@code n} every {@code 2n}).
   * Round {@code k} of a sweep is load {@code k % loads} of repetition {@code k / loads + 1}.
   *
   * @return the policies' indices, each once
   */
  public static int[] order(int n, int round) {
    if (n < 1 || round < 0) {
      throw new IllegalArgumentException("need n >= 1 and round >= 0, got " + n + ", " + round);
    }
    int rows = n % 2 == 0 ? n : 2 * n;
    int row = round % rows;
    int shift = row % n;
    int[] out = new int[n];
    for (int j = 0; j < n; j++) {
      // The first row: 0, 1, n-1, 2, n-2, ...
      int first = j == 0 ? 0 : j % 2 == 1 ? (j + 1) / 2 : n - j / 2;
      out[j] = (first + shift) % n;
    }
    if (row >= n) {
      for (int i = 0, k = n - 1; i < k; i++, k--) {
        int t = out[i];
        out[i] = out[k];
        out[k] = t;
      }
    }
    return out;
  }

  /**
   * Runs the warm-up, then every point, reporting each as it finishes. Points are numbered by their
   * repetition and reported under their listed policy's name where the resolver ran another.
   *
   * @param queries how many queries the trace has; request {@code i} sends a seeded permutation's
   *     {@code i}-th, cycling
   * @return the points in the order they ran
   */
  public static List<PointResult> run(
      Plan plan,
      Targets targets,
      int queries,
      String environment,
      String corpus,
      Consumer<PointResult> onPoint)
      throws IOException, InterruptedException {
    return run(plan, targets, queries, environment, corpus, onPoint, null);
  }

  /**
   * Runs the warm-up, then every point, as {@link #run(Plan, Targets, int, String, String,
   * Consumer)} does, each run's point carrying the machine's speed {@code probe} measured just
   * before it (none where {@code probe} is null).
   */
  public static List<PointResult> run(
      Plan plan,
      Targets targets,
      int queries,
      String environment,
      String corpus,
      Consumer<PointResult> onPoint,
      Probe probe)
      throws IOException, InterruptedException {
    try (NoiseMeter noise = NoiseMeter.start()) {
      return run(plan, targets, queries, environment, corpus, onPoint, probe, noise);
    }
  }

  private static List<PointResult> run(
      Plan plan,
      Targets targets,
      int queries,
      String environment,
      String corpus,
      Consumer<PointResult> onPoint,
      Probe probe,
      NoiseMeter noise)
      throws IOException, InterruptedException {
    List<PointResult> results = new ArrayList<>();
    List<String> policies = plan.policies();
    List<Column> columns = plan.columns();
    int loads = plan.rps().size();
    // Every policy resolved at every load before anything runs, each once.
    List<Map<String, String>> resolved = new ArrayList<>();
    List<PointPlan> points = new ArrayList<>();
    List<OpenLoopReplayer.Labels> labels = new ArrayList<>();
    for (double rps : plan.rps()) {
      PointPlan point = plan.points().point(rps, queries);
      points.add(point);
      labels.add(
          new OpenLoopReplayer.Labels(rps, point.arrivals(), point.seed(), environment, corpus));
      Map<String, String> atLoad = new HashMap<>();
      for (String policy : policies) {
        atLoad.put(policy, atLoad(plan.resolver().resolve(policy, rps), rps));
      }
      resolved.add(atLoad);
    }
    warmUp(plan, targets, points.get(0), labels.get(0), resolved.get(0));
    // Round after round, every load in turn: the machine's drift over the sweep falls on every
    // load alike, not on the heaviest, which would otherwise run last.
    for (int r = 1; r <= plan.repetitions(); r++) {
      for (int l = 0; l < loads; l++) {
        PointPlan point = points.get(l);
        OpenLoopReplayer.Settings settings =
            new OpenLoopReplayer.Settings(
                warmupNanos(point), plan.maxBacklog(), plan.drainNanos(), plan.targetsNanos());
        for (int i : order(columns.size(), (r - 1) * loads + l)) {
          Column column = columns.get(i);
          String listed = column.policy();
          String run = resolved.get(l).get(listed);
          OpenLoopReplayer.Labels label = labels.get(l);
          label =
              new OpenLoopReplayer.Labels(
                  label.offeredRps(),
                  label.arrivals(),
                  label.seed(),
                  column.environment(label.environment()),
                  label.corpus());
          PointResult p;
          SpeedProbe speed = probe == null ? null : probe.measure();
          try (Target target = targets.open(run, column.workers())) {
            p =
                OpenLoopReplayer.run(
                    target, point.offsetsNanos(), point.order(), settings, label, noise);
          }
          if (!run.equals(listed)) {
            p = p.withPolicy(listed);
          }
          p = p.withRepetition(r);
          if (speed != null) {
            p = p.withProbe(speed);
          }
          results.add(p);
          onPoint.accept(p);
        }
      }
    }
    return results;
  }

  /**
   * Runs every column (policy and worker count) once on the first load's warm-up requests (or its
   * first tenth when the plan has no warm-up), nothing recorded.
   */
  private static void warmUp(
      Plan plan,
      Targets targets,
      PointPlan first,
      OpenLoopReplayer.Labels labels,
      Map<String, String> resolved)
      throws IOException, InterruptedException {
    PointPlan warm = warmUpPoint(first);
    if (warm.requests() == 0) {
      return;
    }
    OpenLoopReplayer.Settings settings =
        new OpenLoopReplayer.Settings(
            warmupNanos(warm), plan.maxBacklog(), plan.drainNanos(), List.of());
    for (Column column : plan.columns()) {
      try (Target target = targets.open(resolved.get(column.policy()), column.workers())) {
        OpenLoopReplayer.run(target, warm.offsetsNanos(), warm.order(), settings, labels);
      }
    }
  }

  /** The warm-up run: a point's warm-up requests (at least a tenth of it), all of them warm-up. */
  static PointPlan warmUpPoint(PointPlan point) {
    int n = Math.min(point.requests(), Math.max(point.warmupRequests(), point.requests() / 10));
    return new PointPlan(
        point.offeredRps(),
        point.arrivals(),
        point.seed(),
        Arrays.copyOf(point.offsetsNanos(), n),
        Arrays.copyOf(point.order(), n),
        n);
  }

  /**
   * The replayer's warm-up: up to the first counted request's intended send, so that it counts the
   * requests the simulator counts. With every request warm-up, past the last one.
   */
  static long warmupNanos(PointPlan point) {
    if (point.measuredRequests() > 0) {
      return point.measureFromNanos();
    }
    long[] offsets = point.offsetsNanos();
    return offsets.length == 0 ? 1 : offsets[offsets.length - 1] + 1;
  }
}
