package dev.tailor.core.policy;

import dev.tailor.core.Durations;
import dev.tailor.core.model.SpeedupCurve;
import java.time.Duration;
import java.util.List;

/**
 * The factories of the baseline policies the papers compare against: Sequential, Fixed(N), Adaptive
 * and RC as in Few-to-Many (Haque et al., ASPLOS'15, §5), WQ-Linear and Pred as in TPC (Jeon et
 * al., ASPLOS'16, §4.1; its AP is {@code adaptive}), steal-first and admit-first as in tail-control
 * (Li et al., PPoPP'16, §3); each policy's javadoc states its rule. The specifications parse into
 * the objects {@link Policies} makes.
 */
final class BaselinePolicies {

  /**
   * The average speedup curve of the Few-to-Many paper's Lucene workload: almost linear at 2, about
   * 3 at 4, flat from 5. Adaptive uses it when no curve is given.
   */
  static final SpeedupCurve LUCENE_AVERAGE = SpeedupCurve.of(1, 1.9, 2.5, 3.0, 3.1, 3.1);

  private BaselinePolicies() {}

  static List<PolicyFactory> factories() {
    return List.of(
        new BuiltInFactory(
            "seq",
            "seq",
            "sequential: every request runs on one thread",
            spec -> {
              SpecArgs.of(spec, 0, 0);
              return Policies.seq();
            }),
        new BuiltInFactory(
            "fixed",
            "fixed:N",
            "every request runs with N threads from the start",
            spec -> {
              return Policies.fixed(SpecArgs.of(spec, 1, 1).positiveInt(0, "N"));
            }),
        new BuiltInFactory(
            "steal-first",
            "steal-first",
            "tail-control's baseline: every request may take every worker, and a free worker helps"
                + " running requests before it admits a new one",
            spec -> {
              SpecArgs.of(spec, 0, 0);
              return Policies.stealFirst();
            }),
        new BuiltInFactory(
            "admit-first",
            "admit-first",
            "tail-control's other baseline: every request may take every worker, and a free worker"
                + " admits a new request before it helps a running one",
            spec -> {
              SpecArgs.of(spec, 0, 0);
              return Policies.admitFirst();
            }),
        new BuiltInFactory(
            "adaptive",
            "adaptive[:s1,s2,...]",
            "degree chosen once at admission from the queue length and an average speedup curve,"
                + " to minimise the total response time of the queued requests",
            spec ->
                spec.arguments().isEmpty()
                    ? Policies.adaptive()
                    : Policies.adaptive(SpeedupCurve.parse(String.join(",", spec.arguments())))),
        new BuiltInFactory(
            "wq-linear",
            "wq-linear[:MAX]",
            "degree chosen once at admission, inversely proportional to the queue length",
            spec -> {
              SpecArgs a = SpecArgs.of(spec, 0, 1);
              return a.size() == 0
                  ? Policies.wqLinear()
                  : Policies.wqLinear(a.positiveInt(0, "MAX"));
            }),
        new BuiltInFactory(
            "rampup",
            "rampup:INTERVAL,MAX",
            "start with one thread, add one every INTERVAL up to MAX",
            spec -> {
              SpecArgs a = SpecArgs.of(spec, 2, 2);
              return Policies.rampUp(
                  Duration.ofNanos(a.positiveNanos(0, "INTERVAL")), a.positiveInt(1, "MAX"));
            }),
        new BuiltInFactory(
            "pred",
            "pred[:THRESHOLD[,N]]",
            "TPC's Pred: requests predicted to take THRESHOLD (80ms) or more run with N (3)"
                + " threads, the rest with one",
            spec -> {
              SpecArgs a = SpecArgs.of(spec, 0, 2);
              if (a.size() == 0) {
                return Policies.pred();
              }
              return Policies.pred(
                  Duration.ofNanos(a.positiveNanos(0, "THRESHOLD")),
                  a.size() > 1 ? a.positiveInt(1, "N") : Policies.PRED_DEGREE);
            }),
        new BuiltInFactory(
            "rc",
            "rc:THRESHOLD,N",
            "clairvoyant: requests whose known sequential time reaches THRESHOLD run with N"
                + " threads, the rest with one",
            spec -> {
              SpecArgs a = SpecArgs.of(spec, 2, 2);
              return Policies.clairvoyant(
                  Duration.ofNanos(a.positiveNanos(0, "THRESHOLD")), a.positiveInt(1, "N"));
            }),
        new BuiltInFactory(
            "oracle",
            "oracle:BUDGET[,N]",
            "clairvoyant ceiling: each request gets the fewest threads (up to N) that finish it"
                + " within BUDGET by its known sequential time and speedup, else its fastest degree;"
                + " a sweep's bare 'oracle' tunes BUDGET per load with hindsight",
            spec -> {
              SpecArgs a = SpecArgs.of(spec, 1, 2);
              Duration budget = Duration.ofNanos(a.nonNegativeNanos(0, "BUDGET"));
              return a.size() == 2
                  ? Policies.oracle(budget, a.positiveInt(1, "N"))
                  : Policies.oracle(budget);
            }));
  }

  /** Sequential ({@code N = 1}) and Fixed(N): degree N from admission to completion. */
  record FixedPolicy(int n, String spec) implements Policy {
    @Override
    public Admission admit(RequestView request, SystemView system) {
      return Admission.start(n);
    }

    @Override
    public int degree(RequestView request, SystemView system) {
      return n;
    }
  }

  /**
   * Steal-first and admit-first, the work-stealing baselines of tail-control (Li et al., PPoPP'16,
   * §3): no limit on a request's degree but the threads there are ({@link
   * SystemView#threadLimit()}: the workers, and the slack lent beyond them), a global FIFO queue of
   * requests not yet admitted, and a free worker that either helps a running request first
   * (steal-first: favours the requests already running) or admits the head of the queue first
   * (admit-first: favours the new ones).
   */
  record WorkStealingPolicy(WorkerPreference preference, String spec) implements Policy {
    @Override
    public Admission admit(RequestView request, SystemView system) {
      return Admission.start(system.threadLimit());
    }

    @Override
    public int degree(RequestView request, SystemView system) {
      return system.threadLimit();
    }

    @Override
    public WorkerPreference workerPreference(SystemView system) {
      return preference;
    }
  }

  /**
   * Adaptive parallelism (Jeon et al., EuroSys'13; the baseline "AP" of TPC, Jeon et al.,
   * ASPLOS'16, §4.1, and "Adaptive" of Few-to-Many, Haque et al., ASPLOS'15, §5). Its load is the
   * waiting queue's length {@code q}, the request being admitted included: the requests already
   * running have their threads and are not re-planned. Each of the {@code q} is taken to need the
   * average sequential time {@code T} and to run at degree {@code d} on a budget of {@code P}
   * threads, so {@code P/d} of them run at once and the {@code i}-th finishes at {@code ceil(i*d/P)
   * * T/s(d)}. The policy picks the {@code d} (at most {@code P} and the curve's last degree)
   * minimising the sum of those finishing times, the total response time of the queued requests;
   * ties go to the lower degree. The degree then stays fixed.
   */
  record AdaptivePolicy(SpeedupCurve curve) implements Policy {
    @Override
    public Admission admit(RequestView request, SystemView system) {
      return Admission.start(bestDegree(Math.max(1, system.queuedRequests()), system.budget()));
    }

    int bestDegree(int q, int p) {
      int best = 1;
      double bestCost = Double.MAX_VALUE;
      int maxDegree = Math.min(curve.maxDegree(), p);
      for (int d = 1; d <= maxDegree; d++) {
        double rounds = 0;
        for (int i = 1; i <= q; i++) {
          rounds += ceilDiv((long) i * d, p);
        }
        double cost = rounds / curve.at(d);
        if (cost < bestCost - 1e-12) {
          bestCost = cost;
          best = d;
        }
      }
      return best;
    }

    private static long ceilDiv(long a, long b) {
      return (a + b - 1) / b;
    }

    @Override
    public int degree(RequestView request, SystemView system) {
      return request.degree();
    }

    @Override
    public String spec() {
      return "adaptive:" + curve;
    }
  }

  /**
   * WQ-Linear: degree {@code max(1, MAX / (1 + w))} at admission, {@code w} being the number of
   * requests waiting behind the one admitted; fixed thereafter.
   */
  record WqLinearPolicy(int max) implements Policy {
    @Override
    public Admission admit(RequestView request, SystemView system) {
      int waitingBehind = Math.max(0, system.queuedRequests() - 1);
      return Admission.start(Math.max(1, max / (1 + waitingBehind)));
    }

    @Override
    public int degree(RequestView request, SystemView system) {
      return request.degree();
    }

    @Override
    public String spec() {
      return "wq-linear:" + max;
    }
  }

  /** RampUp: one thread at admission, one more every interval of run time, up to MAX. */
  record RampUpPolicy(long intervalNanos, int max) implements Policy {
    @Override
    public Admission admit(RequestView request, SystemView system) {
      return Admission.start(1);
    }

    @Override
    public int degree(RequestView request, SystemView system) {
      long steps = request.elapsedNanos() / intervalNanos;
      return (int) Math.min(max, 1 + steps);
    }

    @Override
    public String spec() {
      return "rampup:" + Durations.format(intervalNanos) + "," + max;
    }
  }

  /**
   * Pred, TPC's prediction-only baseline (Jeon et al., ASPLOS'16, §4.1), and RC, the clairvoyant
   * oracle: a request predicted (Pred) or known (RC: told its sequential time, as {@link
   * RequestView#predictedSequentialNanos()}) to take THRESHOLD or more runs with N threads from the
   * start (the paper's 80 ms and 3), the rest sequentially. A request without a prediction runs
   * sequentially.
   *
   * @param name {@code pred} or {@code rc}, the spec's name
   * @param clairvoyant whether the policy is told each request's true time (RC)
   */
  record ThresholdPolicy(String name, boolean clairvoyant, long thresholdNanos, int n)
      implements Policy {
    @Override
    public Admission admit(RequestView request, SystemView system) {
      long p = request.predictedSequentialNanos();
      return Admission.start(p != RequestView.UNKNOWN && p >= thresholdNanos ? n : 1);
    }

    @Override
    public int degree(RequestView request, SystemView system) {
      return request.degree();
    }

    @Override
    public String spec() {
      return name + ":" + Durations.format(thresholdNanos) + "," + n;
    }
  }

  /**
   * The clairvoyant ceiling: every request's true sequential time {@code T} and speedup curve
   * {@code s} are known ({@link RequestView#predictedSequentialNanos()}, {@link
   * RequestView#predictedSpeedup()}), and its degree is fixed at admission to the fewest threads
   * {@code d <= N} with {@code T/s(d) <= BUDGET}; a request no degree brings within the budget gets
   * its fastest degree (the lowest of equals). BUDGET 0 gives every request its fastest degree; a
   * budget above the longest request runs everything sequentially. Between the two, the budget
   * trades the long requests' threads against the queueing they cause, so a comparison tunes it per
   * load with hindsight, which no online policy can: Few-to-Many's RC (Haque et al., ASPLOS'15, §5)
   * and TPC's perfect predictor (Jeon et al., ASPLOS'16, §5) are of this kind. A request without a
   * known time runs sequentially; without a known curve, its speedup is taken as linear.
   *
   * @param budgetNanos BUDGET
   * @param n the highest degree, 0 for the budget of threads
   */
  record OraclePolicy(long budgetNanos, int n) implements Policy {
    @Override
    public boolean clairvoyant() {
      return true;
    }

    @Override
    public Admission admit(RequestView request, SystemView system) {
      return Admission.start(degreeFor(request, system.budget()));
    }

    int degreeFor(RequestView request, int workers) {
      long t = request.predictedSequentialNanos();
      if (t == RequestView.UNKNOWN || t <= budgetNanos) {
        return 1;
      }
      SpeedupCurve curve = request.predictedSpeedup();
      int max = n == 0 ? workers : Math.min(n, workers);
      int fastest = 1;
      double fastestSpeedup = 1;
      for (int d = 2; d <= max; d++) {
        double speedup = curve == null ? d : curve.at(d);
        if (t / speedup <= budgetNanos) {
          return d;
        }
        if (speedup > fastestSpeedup) {
          fastestSpeedup = speedup;
          fastest = d;
        }
      }
      return fastest;
    }

    @Override
    public int degree(RequestView request, SystemView system) {
      return request.degree();
    }

    @Override
    public String spec() {
      return "oracle:" + Durations.format(budgetNanos) + (n == 0 ? "" : "," + n);
    }
  }
}
