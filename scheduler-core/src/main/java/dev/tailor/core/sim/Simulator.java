package dev.tailor.core.sim;

import dev.tailor.core.Durations;
import dev.tailor.core.metrics.PointResult;
import dev.tailor.core.metrics.RequestClasses;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.metrics.RunMetrics;
import dev.tailor.core.model.DemandProfile;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.policy.WorkerPreference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A discrete-event simulation of {@code workers} threads running requests from a demand profile,
 * driving the very same {@link Policy} objects as the runtime on a virtual clock: the same FIFO
 * admission with delays and waits for an exit, the same degree questions every quantum, the same
 * help-or-admit choice when a thread is free. It is what lets a 2-core machine speak about a
 * 16-core server.
 *
 * <p>The model is Few-to-Many's: a request holds its sequential time as work; while {@code t}
 * threads are on it, it completes {@code s(t)} nanoseconds of that work per nanosecond, {@code s}
 * being its speedup curve. Work is fluid, so a helper always finds some; granularity shows only
 * through the measured speedups. A lower degree takes effect at the next tick (as the runtime's
 * helpers leave at their next unit boundary); a higher one as soon as threads are free.
 *
 * <p>Single-threaded and deterministic: the same inputs give the same result.
 */
public final class Simulator {

  /**
   * How to simulate.
   *
   * @param workers the threads of the simulated server
   * @param quantumNanos how often running requests are re-evaluated (the runtime's tick)
   * @param longThresholdNanos work or prediction from which a request counts as long
   * @param clairvoyant whether each request's sequential time is given as its prediction
   * @param warmupRequests the first requests, simulated but not counted
   * @param maxBacklog queued requests beyond which the point stops as saturated
   * @param targetsNanos latency targets for the miss ratios
   */
  public record Config(
      int workers,
      long quantumNanos,
      long longThresholdNanos,
      boolean clairvoyant,
      int warmupRequests,
      int maxBacklog,
      List<Long> targetsNanos) {

    /** Checks the configuration. */
    public Config {
      if (workers < 1 || quantumNanos < 1 || warmupRequests < 0 || maxBacklog < 1) {
        throw new IllegalArgumentException(
            "need workers >= 1, quantum > 0, warmupRequests >= 0, maxBacklog >= 1");
      }
      targetsNanos = List.copyOf(targetsNanos);
    }

    /** 5 ms quantum, 80 ms long threshold, clairvoyant, 10% warm-up, backlog 100,000. */
    public static Config of(int workers, int requests) {
      return new Config(workers, 5_000_000L, 80_000_000L, true, requests / 10, 100_000, List.of());
    }
  }

  /**
   * The labels of the point, for its result.
   *
   * @param offeredRps the arrival rate
   * @param arrivals the arrival process's description
   * @param seed the seed of arrivals and request order
   * @param corpus the profile's source label
   */
  public record Labels(double offeredRps, String arrivals, long seed, String corpus) {}

  private final DemandProfile profile;
  private final SpeedupCurve[] curves;
  private final Policy policy;
  private final Config config;

  // State of one run.
  private long now;
  private final ArrayDeque<SimRequest> queue = new ArrayDeque<>();
  private final List<SimRequest> running = new ArrayList<>();
  private int freeSlots;
  private long headDelayedUntil = Long.MIN_VALUE;
  private boolean headAwaitsExit;
  private boolean mayHelp; // false once a scan found no request to help, until a degree rises
  private final View view = new View();

  /** A simulator of {@code profile}'s requests under {@code policy}. */
  public Simulator(DemandProfile profile, Policy policy, Config config) {
    if (profile.requests().isEmpty()) {
      throw new IllegalArgumentException("the profile has no request");
    }
    this.profile = profile;
    this.policy = policy;
    this.config = config;
    this.curves = new SpeedupCurve[profile.requests().size()];
    for (int i = 0; i < curves.length; i++) {
      curves[i] = profile.requests().get(i).speedupCurve();
    }
  }

  /**
   * Simulates one point.
   *
   * @param arrivalsNanos arrival times from the start, ascending
   * @param order the profile request each arrival is
   */
  public PointResult run(long[] arrivalsNanos, int[] order, Labels labels) {
    now = 0;
    queue.clear();
    running.clear();
    freeSlots = config.workers();
    headDelayedUntil = Long.MIN_VALUE;
    headAwaitsExit = false;
    mayHelp = false;
    RunMetrics metrics = RunMetrics.singleThreaded(RequestClasses.tpcDefault());
    metrics.observeBusyWorkers(0, 0);
    long measureFrom =
        config.warmupRequests() < arrivalsNanos.length
            ? arrivalsNanos[config.warmupRequests()]
            : Long.MAX_VALUE;
    long nextTick = config.quantumNanos();
    int next = 0;
    long sent = 0;
    boolean saturated = false;
    long lastArrival = arrivalsNanos.length == 0 ? 0 : arrivalsNanos[arrivalsNanos.length - 1];
    while (next < arrivalsNanos.length || !queue.isEmpty() || !running.isEmpty()) {
      long tArrival = next < arrivalsNanos.length ? arrivalsNanos[next] : Long.MAX_VALUE;
      long tCompletion = nextCompletion();
      // A delayed head matters when its time comes and a thread is free to take it.
      long tDelay =
          headDelayedUntil > now && freeSlots > 0 && !queue.isEmpty()
              ? headDelayedUntil
              : Long.MAX_VALUE;
      boolean ticking = !running.isEmpty();
      long tTick = ticking ? nextTick : Long.MAX_VALUE;
      long t = Math.min(Math.min(tArrival, tCompletion), Math.min(tDelay, tTick));
      advanceTo(t);
      completeFinished(metrics, measureFrom);
      while (next < arrivalsNanos.length && arrivalsNanos[next] <= now) {
        DemandProfile.Request r = profile.requests().get(order[next]);
        queue.addLast(new SimRequest(next, arrivalsNanos[next], r, curves[order[next]]));
        if (arrivalsNanos[next] >= measureFrom) {
          sent++;
        }
        next++;
      }
      if (queue.size() > config.maxBacklog()) {
        saturated = true;
        break;
      }
      if (ticking && now >= nextTick) {
        tick();
        nextTick = now + config.quantumNanos();
      } else if (!ticking) {
        nextTick = now + config.quantumNanos();
      }
      dispatch(metrics);
    }
    long window = Math.max(1, (saturated ? now : lastArrival) - Math.min(measureFrom, now));
    return result(metrics, labels, sent, saturated, window);
  }

  private long nextCompletion() {
    long best = Long.MAX_VALUE;
    for (int i = 0, n = running.size(); i < n; i++) {
      best = Math.min(best, running.get(i).completesAt);
    }
    return best;
  }

  /** Moves the clock; requests settle their progress lazily, when their rate changes. */
  private void advanceTo(long t) {
    now = Math.max(now, t);
  }

  private void completeFinished(RunMetrics metrics, long measureFrom) {
    for (int i = 0; i < running.size(); i++) {
      SimRequest r = running.get(i);
      if (r.completesAt <= now) {
        running.remove(i--);
        r.setThreads(0, now);
        freeSlots += r.finishedThreads;
        metrics.observeBusyWorkers(now, config.workers() - freeSlots);
        headAwaitsExit = false;
        if (r.arrival >= measureFrom) {
          metrics.record(r.record(now));
        }
      }
    }
  }

  private void tick() {
    for (SimRequest r : running) {
      int d = Math.max(0, policy.degree(r, view));
      r.setDegree(d, now);
      int allowed = Math.max(1, d);
      mayHelp |= r.threads < allowed;
      if (r.threads > allowed) {
        freeSlots += r.threads - allowed; // helpers leave at their next boundary
        r.setThreads(allowed, now);
      }
      r.checkLong(config.longThresholdNanos());
    }
  }

  private void dispatch(RunMetrics metrics) {
    int before = freeSlots;
    while (freeSlots > 0) {
      boolean helpFirst = policy.workerPreference(view) != WorkerPreference.ADMIT_FIRST;
      boolean took = helpFirst ? help() || admit() : admit() || help();
      if (!took) {
        break;
      }
    }
    if (freeSlots != before) {
      metrics.observeBusyWorkers(now, config.workers() - freeSlots);
    }
  }

  private boolean help() {
    if (!mayHelp) {
      return false;
    }
    for (SimRequest r : running) {
      if (r.threads < Math.max(1, r.degree)) {
        r.setThreads(r.threads + 1, now);
        freeSlots--;
        return true;
      }
    }
    mayHelp = false;
    return false;
  }

  private boolean admit() {
    SimRequest head = queue.peekFirst();
    if (head == null || headAwaitsExit) {
      return false;
    }
    if (headDelayedUntil != Long.MIN_VALUE && now < headDelayedUntil) {
      return false;
    }
    Admission a = policy.admit(head, view);
    if (a == null) {
      a = Admission.start(1);
    }
    switch (a.kind()) {
      case DELAY -> {
        headDelayedUntil = a.untilNanos();
        if (now < headDelayedUntil) {
          return false;
        }
      }
      case AWAIT_EXIT -> {
        if (!running.isEmpty()) {
          headAwaitsExit = true;
          return false;
        }
      }
      case START -> {}
    }
    queue.pollFirst();
    headDelayedUntil = Long.MIN_VALUE;
    head.start(a.kind() == Admission.Kind.START ? a.degree() : 1, now);
    mayHelp |= head.degree > 1;
    running.add(head);
    freeSlots--;
    return true;
  }

  private PointResult result(
      RunMetrics metrics, Labels labels, long sent, boolean saturated, long window) {
    Histogram latency = metrics.latency();
    Map<String, Double> misses = new LinkedHashMap<>();
    for (long t : config.targetsNanos()) {
      long total = latency.getTotalCount();
      long within = total == 0 ? 0 : latency.getCountBetweenValues(0, t);
      misses.put(Durations.format(t), total == 0 ? 0.0 : 1.0 - (double) within / total);
    }
    long completed = metrics.count(RequestRecord.Outcome.COMPLETED);
    return new PointResult(
        PointResult.FORMAT,
        PointResult.VERSION,
        policy.spec(),
        labels.offeredRps(),
        labels.arrivals(),
        labels.seed(),
        "simulated, " + config.workers() + " cores",
        labels.corpus(),
        window,
        sent,
        completed,
        0,
        saturated,
        completed * 1e9 / window,
        -1,
        PointResult.percentiles(latency),
        PointResult.percentiles(metrics.queueing()),
        null,
        misses,
        metrics.degreeDistribution(),
        PointResult.encode(latency));
  }

  /** A request in the simulation: its remaining work and its view for the policy. */
  private final class SimRequest implements RequestView {
    final long id;
    final long arrival;
    final DemandProfile.Request demand;
    final SpeedupCurve curve;
    long start = UNKNOWN;
    int degree;
    int threads;
    int finishedThreads;
    long completesAt = Long.MAX_VALUE;
    // Progress, settled at 'since': sequential work left and busy time so far.
    private double remaining;
    private long work;
    private long since;
    boolean isLong;
    int maxDegree;
    int maxThreads;
    double degreeIntegral;
    long degreeSince;

    SimRequest(long id, long arrival, DemandProfile.Request demand, SpeedupCurve curve) {
      this.id = id;
      this.arrival = arrival;
      this.demand = demand;
      this.curve = curve;
      this.remaining = demand.sequentialNanos();
    }

    void start(int d, long at) {
      start = at;
      degree = d;
      maxDegree = d;
      degreeSince = at;
      since = at;
      setThreads(1, at);
      checkLong(config.longThresholdNanos());
    }

    /** Settles progress up to {@code at}, then runs on with {@code t} threads. */
    void setThreads(int t, long at) {
      long dt = at - since;
      if (dt > 0 && threads > 0) {
        remaining -= curve.at(threads) * dt;
        work += (long) threads * dt;
      }
      since = at;
      if (t == 0) {
        finishedThreads = threads;
      }
      threads = t;
      maxThreads = Math.max(maxThreads, t);
      completesAt =
          t == 0
              ? Long.MAX_VALUE
              : at + Math.max(0, (long) Math.ceil(remaining / curve.at(t) - 0.5));
    }

    long work(long at) {
      return work + (threads > 0 ? (long) threads * (at - since) : 0);
    }

    void setDegree(int d, long at) {
      if (d != degree) {
        degreeIntegral += (double) degree * (at - degreeSince);
        degreeSince = at;
        degree = d;
        maxDegree = Math.max(maxDegree, d);
      }
    }

    void checkLong(long threshold) {
      if (!isLong
          && (work(now) >= threshold
              || (config.clairvoyant() && demand.sequentialNanos() >= threshold))) {
        isLong = true;
      }
    }

    RequestRecord record(long end) {
      double integral = degreeIntegral + (double) degree * (end - degreeSince);
      return new RequestRecord(
          id,
          demand.category(),
          arrival,
          start,
          end,
          work,
          maxThreads,
          maxDegree,
          end > start ? integral / (end - start) : degree,
          RequestRecord.Outcome.COMPLETED);
    }

    @Override
    public long id() {
      return id;
    }

    @Override
    public long arrivalNanos() {
      return arrival;
    }

    @Override
    public long startNanos() {
      return start;
    }

    @Override
    public long elapsedNanos() {
      return start == UNKNOWN ? 0 : now - start;
    }

    @Override
    public long workNanos() {
      return work(now);
    }

    @Override
    public int degree() {
      return degree;
    }

    @Override
    public int threads() {
      return threads;
    }

    @Override
    public long predictedSequentialNanos() {
      return config.clairvoyant() ? demand.sequentialNanos() : UNKNOWN;
    }

    @Override
    public String label() {
      return demand.category();
    }

    @Override
    public boolean isLong() {
      return isLong;
    }
  }

  /** The simulated system, on the virtual clock. */
  private final class View implements SystemView {
    @Override
    public long nanoTime() {
      return now;
    }

    @Override
    public int poolSize() {
      return config.workers();
    }

    @Override
    public int activeRequests() {
      return running.size();
    }

    @Override
    public int queuedRequests() {
      return queue.size();
    }

    @Override
    public int busyWorkers() {
      return config.workers() - freeSlots;
    }

    @Override
    public int busyThreadsOnLongRequests() {
      int n = 0;
      for (SimRequest r : running) {
        if (r.isLong) {
          n += r.threads;
        }
      }
      return n;
    }
  }
}
