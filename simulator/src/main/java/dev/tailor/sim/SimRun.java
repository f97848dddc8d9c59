package dev.tailor.sim;

import dev.tailor.core.dispatch.DispatchHost;
import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.metrics.RunMetrics;
import dev.tailor.core.model.GuidedClaims;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import dev.tailor.sim.Simulator.ClassStats;
import dev.tailor.sim.Simulator.Labels;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;

/**
 * One point of a {@link Simulator}: the virtual clock, a dispatch core of its own, and the events
 * that move them (arrivals, threads reaching their boundaries, ticks, budget periods), until every
 * request has completed or the backlog says the point is saturated. Afterwards, its figures.
 */
final class SimRun {

  private final Simulator sim;
  private final Simulator.Config config;
  private PriorityClass[] kinds;
  private long[][] latencies; // by class ordinal: measured latencies, count in latencyCount
  private int[] latencyCount;
  private long lastWindow;
  private long now;
  private Dispatcher<SimRequest> dispatcher;
  private RunMetrics metrics;
  private SplittableRandom costs; // draws the calibration's per-request costs
  double meanBudget;

  // The machine model's state; unused (and every pace exactly 1) without one.
  private final MachineModel machine;
  private MachineStops stops;
  private double pace = 1; // the co-run factor of the threads working now
  private long nextTick;

  SimRun(Simulator sim) {
    this.sim = sim;
    this.config = sim.config;
    this.machine = sim.machine;
  }

  /** Simulates the point. */
  PointResult run(long[] arrivalsNanos, int[] order, int warmupRequests, Labels labels) {
    now = 0;
    costs = new SplittableRandom(labels.seed() ^ 0x5DEECE66DL);
    stops = new MachineStops(machine, labels.seed());
    metrics = RunMetrics.singleThreaded(sim.classes);
    metrics.observeBusyWorkers(0, 0);
    dispatcher =
        new Dispatcher<>(
            sim.policy, config.workers(), new SimRequest[0], new Host(), true, sim.floors);
    kinds =
        sim.fixedKinds != null
            ? sim.fixedKinds
            : sim.mix == null ? null : sim.mix.assign(arrivalsNanos.length, labels.seed());
    int classCount = PriorityClass.values().length;
    latencies = new long[classCount][16];
    latencyCount = new int[classCount];
    dispatcher.decisionListener(sim.decisions);
    dispatcher.promptAdmission(sim.promptAdmission);
    dispatcher.slack(sim.slack);
    if (sim.budgetPolicy != null) {
      dispatcher.elasticBudget(sim.budgetPolicy, sim.minBudget, sim.budgetPeriodNanos, 0);
    }
    long measureFrom =
        warmupRequests < arrivalsNanos.length ? arrivalsNanos[warmupRequests] : Long.MAX_VALUE;
    double budgetTimeAtMeasure = Double.NaN;
    nextTick = config.quantumNanos();
    int next = 0;
    long sent = 0;
    boolean saturated = false;
    long lastArrival = arrivalsNanos.length == 0 ? 0 : arrivalsNanos[arrivalsNanos.length - 1];
    while (next < arrivalsNanos.length
        || dispatcher.queued() > 0
        || dispatcher.running().length > 0) {
      long tArrival = next < arrivalsNanos.length ? arrivalsNanos[next] : Long.MAX_VALUE;
      long tBoundary = nextBoundary();
      // A delayed head matters when its time comes and a thread is free to take it.
      long delayedUntil = dispatcher.headDelayedUntil();
      long tDelay =
          delayedUntil > now && dispatcher.admissionSlots() > 0 && dispatcher.queued() > 0
              ? delayedUntil
              : Long.MAX_VALUE;
      boolean ticking = dispatcher.running().length > 0;
      long tTick = ticking ? nextTick : Long.MAX_VALUE;
      long tBudget = dispatcher.nextBudgetCheck();
      long t = Math.min(Math.min(tArrival, tBoundary), Math.min(tDelay, Math.min(tTick, tBudget)));
      boolean stall = stops.nextStall() < t; // at the same moment, the other events come first
      if (stall) {
        t = stops.nextStall();
      }
      if (Double.isNaN(budgetTimeAtMeasure) && t >= measureFrom) {
        budgetTimeAtMeasure = dispatcher.budgetTimeNanos(measureFrom);
      }
      advanceTo(t);
      if (stall) {
        stop(stops.stall(now));
        continue;
      }
      reachBoundaries(measureFrom);
      stop(stops.takePause());
      while (next < arrivalsNanos.length && arrivalsNanos[next] <= now) {
        dispatcher.enqueue(request(next, arrivalsNanos[next], order[next]));
        if (arrivalsNanos[next] >= measureFrom) {
          sent++;
        }
        next++;
      }
      if (dispatcher.queued() > config.maxBacklog()) {
        saturated = true;
        break;
      }
      if (ticking && now >= nextTick) {
        tick();
        nextTick = now + config.quantumNanos();
      } else if (!ticking) {
        nextTick = now + config.quantumNanos();
      }
      if (now >= tBudget) {
        dispatcher.checkBudget(now); // a growth's free slots are placed below
      }
      while (dispatcher.takeWork(now, true) != null) {
        // every free slot the dispatch core can place is placed
      }
      repace();
    }
    long window = Math.max(1, (saturated ? now : lastArrival) - Math.min(measureFrom, now));
    lastWindow = window;
    long measured = now - Math.min(measureFrom, now);
    meanBudget =
        sim.budgetPolicy == null || Double.isNaN(budgetTimeAtMeasure) || measured <= 0
            ? dispatcher.budget()
            : (dispatcher.budgetTimeNanos(now) - budgetTimeAtMeasure) / measured;
    return result(labels, sent, saturated, window);
  }

  /** Class {@code c}'s figures over the measured requests of the last run. */
  ClassStats classStats(PriorityClass c) {
    int n = latencyCount[c.ordinal()];
    if (n == 0) {
      return new ClassStats(0, 0, 0, 0);
    }
    long[] sorted = Arrays.copyOf(latencies[c.ordinal()], n);
    Arrays.sort(sorted);
    return new ClassStats(
        n, sorted[rank(0.50, n)], sorted[rank(0.99, n)], n * 1e9 / Math.max(1, lastWindow));
  }

  /**
   * Class {@code c}'s latencies over the measured requests, in a histogram of 4 significant digits
   * (so that a percentile read off it matches {@link #classStats}'s to 0.01%).
   */
  Histogram classLatency(PriorityClass c) {
    Histogram h = new Histogram(4);
    for (int i = 0; i < latencyCount[c.ordinal()]; i++) {
      h.recordValue(Math.max(1, latencies[c.ordinal()][i]));
    }
    return h;
  }

  private static int rank(double q, int n) {
    return Math.max(0, (int) Math.ceil(q * n) - 1);
  }

  private void countLatency(SimRequest r, long latency) {
    int c = r.kind.reported().ordinal();
    if (latencyCount[c] == latencies[c].length) {
      latencies[c] = Arrays.copyOf(latencies[c], 2 * latencies[c].length);
    }
    latencies[c][latencyCount[c]++] = latency;
  }

  private SimRequest request(long id, long arrival, int index) {
    DemandProfile.Request r = sim.profile.requests().get(index);
    SimRequest.Told told =
        new SimRequest.Told(
            sim.profile.predictedNanos(index),
            sim.clairvoyant,
            dispatcher.longThresholdNanos(config.longThresholdNanos()));
    SimRequest s =
        sim.units != null
            ? new UnitRequest(
                id,
                arrival,
                r,
                sim.units[index],
                dispatcher.view(),
                told,
                sim.probesProgress,
                dispatcher.promptAdmission() ? GuidedClaims.PROMPT_NANOS : 0)
            : new FluidRequest(id, arrival, r, sim.curves[index], dispatcher.view(), told);
    if (kinds != null) {
      PriorityClass c = kinds[(int) id];
      double scale = sim.fixedKinds != null ? 1 : sim.mix.scale(c);
      s.kind = new SimRequest.Kind(sim.prioritized ? c : PriorityClass.INTERACTIVE, scale, c);
    }
    s.helperLeaves = dispatcher.helpers()::leaves;
    Calibration c = config.calibration();
    if (c != null) {
      s.wakeNanos = Calibration.draw(c.dispatchNanos(), costs);
      s.clientNanos =
          Calibration.draw(c.completionNanos(), costs) + Calibration.draw(c.sendLagNanos(), costs);
    }
    return s;
  }

  /**
   * The whole process stops for {@code nanos} from now (a stall, a GC pause): every running
   * request's boundaries and the next tick move on by it, and the clock jumps to its end, so that
   * requests arriving meanwhile wait for it.
   */
  private void stop(long nanos) {
    if (nanos <= 0) {
      return;
    }
    for (SimRequest r : dispatcher.running()) {
      r.pause(now, nanos);
    }
    nextTick += nanos;
    advanceTo(now + nanos);
  }

  /**
   * Sets every running request's pace to that of the threads working now, if it changed: the co-run
   * factor of as many as there are cores, times the share of a core each gets when there are more
   * (the operating system's time-slicing, as processor sharing). Exactly 1 without a machine model
   * while the threads fit the cores.
   */
  private void repace() {
    int busy = 0;
    for (SimRequest r : dispatcher.running()) {
      busy += r.working();
    }
    int cores = config.workers();
    double f = machine == null ? 1 : machine.coRunAt(Math.min(busy, cores));
    if (busy > cores) {
      f *= (double) busy / cores;
    }
    if (f != pace) {
      pace = f;
      for (SimRequest r : dispatcher.running()) {
        r.repace(now, f * r.startFactor);
      }
    }
  }

  private long nextBoundary() {
    long best = Long.MAX_VALUE;
    for (SimRequest r : dispatcher.running()) {
      best = Math.min(best, r.nextEventAt());
    }
    return best;
  }

  /** Moves the clock; requests settle their progress lazily, when their rate changes. */
  private void advanceTo(long t) {
    now = Math.max(now, t);
  }

  /**
   * Lets every request whose threads reached a boundary move on, and retires the completed ones.
   * Under the unit model the degree is asked for first, as the runtime asks after each unit (and
   * each window of the drop-in's searches) on every thread.
   */
  private void reachBoundaries(long measureFrom) {
    for (SimRequest r : dispatcher.running()) {
      if (r.nextEventAt() > now) {
        continue;
      }
      if (sim.units != null) {
        r.setDegree(dispatcher.askDegree(r), now);
      }
      int left = r.advance(now);
      boolean done = r.done(); // then the own thread is among those that left
      dispatcher.releaseSlots(done ? left - 1 : left, done ? 1 : 0, now);
      if (done) {
        dispatcher.exited(r);
        if (dispatcher.hearsCompletions()) {
          dispatcher.completed(r.record(now)); // as the runtime's, at its last thread's end
        }
        stops.answered();
        if (sim.completions != null) {
          sim.completions.completed(r.id, r.arrival, now);
        }
        if (r.arrival >= measureFrom) {
          // The simulated client sees the answer its client-side costs later (completion and
          // send lag, from the calibration), as a real client measures latency.
          long seen = now + r.clientNanos;
          metrics.record(r.record(seen));
          countLatency(r, seen - r.arrival);
        }
      } else if (dispatcher.helpers().wants(r)) {
        dispatcher.helpMayBeWanted();
      }
    }
  }

  private void tick() {
    for (SimRequest r : dispatcher.running()) {
      r.setDegree(dispatcher.askDegree(r), now);
      dispatcher.releaseSlots(r.shed(dispatcher.helpers().overDegree(r), now), now);
      dispatcher.releaseSlots(r.yieldHelpers(dispatcher.helpers().toYield(r), now), now);
      if (dispatcher.helpers().wants(r)) {
        dispatcher.helpMayBeWanted();
      }
      r.checkLong();
    }
  }

  private PointResult result(Labels labels, long sent, boolean saturated, long window) {
    return new PointResultBuilder(sim.policy.spec(), metrics.latency())
        .labels(
            labels.offeredRps(),
            labels.arrivals(),
            labels.seed(),
            "simulated, " + config.workers() + " cores",
            labels.corpus())
        .outcome(window, sent, metrics.count(RequestRecord.Outcome.COMPLETED), 0, saturated)
        .queueing(metrics.queueing())
        .missTargets(config.targetsNanos())
        .degreeDistribution(metrics.degreeDistribution())
        .build();
  }

  /** The dispatch core's view of the simulated system, on the virtual clock. */
  private final class Host implements DispatchHost<SimRequest> {
    @Override
    public long nanoTime() {
      return now;
    }

    @Override
    public boolean hasWorkForHelper(SimRequest r) {
      return r.hasWorkForHelper();
    }

    @Override
    public void start(SimRequest r, int degree, long at) {
      boolean queued = at > r.arrival;
      if (machine != null) {
        // A request that waited starts on a thread going straight from its last request: warm.
        r.startFactor = machine.startFactor(queued);
      }
      if (queued) {
        // The thread whose request just ended takes it without parking (WorkerPool.release hands
        // the queued work over): no wake-up, as for the peers' request threads.
        r.wakeNanos = 0;
      }
      r.slowdown = pace * r.startFactor; // and at the pace of the threads working now
      r.start(degree, at);
    }

    @Override
    public void addHelper(SimRequest r, long at) {
      r.addHelper(at);
    }

    @Override
    public boolean runsOnCaller(SimRequest r) {
      return false;
    }

    @Override
    public int busyThreadsOnLongRequests() {
      int n = 0;
      for (SimRequest r : dispatcher.running()) {
        if (r.isLong()) {
          n += r.threads;
        }
      }
      return n;
    }

    @Override
    public void busyWorkersChanged(long at, int busy) {
      metrics.observeBusyWorkers(at, busy);
    }
  }
}
