package dev.tailor.sim;

import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;

/**
 * One point of a {@link PeerSimulator}: plain Lucene's threads on the virtual clock. Requests queue
 * for the request threads first come first served; a search runs its serial part on its request
 * thread, forks one task for each slice but the first into the slices' pool, and claims slices
 * itself until none is left, as Lucene 10's {@code TaskExecutor.invokeAll} does; a forked task that
 * finds every slice claimed ends at once. A request thread that waits for its slices to end is
 * blocked and holds its thread; the last slice's end wakes it. Every thread that runs shares the
 * cores ({@link SharedCores}). A parked thread handed work first wakes for a time drawn from the
 * calibration's dispatch delay; one that finds the next task queued as it finishes runs it at once.
 */
final class PeerRun {

  private static final long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L;

  /** One arrival's search. */
  private static final class Search {
    final long arrival;
    final int index; // in the profile
    Worker caller;
    double[] sliceWork;
    int nextSlice; // the first slice not yet claimed
    int slicesDone;
    int onIt; // threads running its slices now
    int mostOnIt;
    boolean callerWaits;
    boolean queued; // handed to its thread after its arrival: it waited for one
    long clientNanos;

    Search(long arrival, int index) {
      this.arrival = arrival;
      this.index = index;
    }
  }

  /** A forked task: claims the next slice of its search, if any is left. */
  private record Fork(Search search) {}

  /** The caller's wake-up once its last slice ended. */
  private record Resume(Search search) {}

  /** A thread of a pool. */
  private final class Worker {
    final Pool pool;
    final SharedCores.Job job = new SharedCores.Job(this);
    Object waking; // the task it wakes to run, while it wakes
    long wakeEnd;
    Search search; // the search whose work it runs now, or null
    int slice = -1; // the slice it runs, or -1 for the serial part

    Worker(Pool pool) {
      this.pool = pool;
    }
  }

  /** A pool of threads and its work queue, first come first served. */
  private final class Pool {
    final ArrayDeque<Object> queue = new ArrayDeque<>();
    final ArrayDeque<Worker> idle = new ArrayDeque<>();

    Pool(int threads) {
      for (int i = 0; i < threads; i++) {
        idle.add(new Worker(this));
      }
    }
  }

  private final PeerSimulator sim;
  private final Peer peer;
  private final SharedCores cores;
  private final Pool requests;
  private final Pool slices;
  private final PriorityQueue<Worker> waking =
      new PriorityQueue<>((a, b) -> Long.compare(a.wakeEnd, b.wakeEnd));
  private final Histogram latency = new Histogram(1, HIGHEST_TRACKABLE_NANOS, 3);
  private final Histogram queueing = new Histogram(1, HIGHEST_TRACKABLE_NANOS, 3);
  private final long[] slicesUsed = new long[65];
  private SplittableRandom costs;
  private MachineStops stops; // the same stalls and pauses as the policies' simulation meets
  private long measureFrom;
  private long now;
  private long completed;
  private int inFlight;

  PeerRun(PeerSimulator sim) {
    this.sim = sim;
    this.peer = sim.peer;
    this.cores = new SharedCores(sim.config.workers(), sim.machine);
    this.requests = new Pool(peer.requestThreads());
    this.slices = peer.sharedPool() ? requests : new Pool(peer.sliceThreads());
  }

  PointResult run(long[] arrivalsNanos, int[] order, int warmupRequests, Simulator.Labels labels) {
    costs = new SplittableRandom(labels.seed() ^ 0x5DEECE66DL);
    stops = new MachineStops(sim.machine, labels.seed());
    measureFrom =
        warmupRequests < arrivalsNanos.length ? arrivalsNanos[warmupRequests] : Long.MAX_VALUE;
    long lastArrival = arrivalsNanos.length == 0 ? 0 : arrivalsNanos[arrivalsNanos.length - 1];
    int next = 0;
    long sent = 0;
    boolean saturated = false;
    while (next < arrivalsNanos.length || inFlight > 0) {
      long tArrival = next < arrivalsNanos.length ? arrivalsNanos[next] : Long.MAX_VALUE;
      long tWake = waking.isEmpty() ? Long.MAX_VALUE : waking.peek().wakeEnd;
      long t = Math.min(tArrival, Math.min(tWake, cores.nextEnd()));
      if (t == Long.MAX_VALUE) {
        throw new IllegalStateException(inFlight + " searches left with nothing to run them");
      }
      if (stops.nextStall() < t) { // at the same moment, the other events come first
        now = Math.max(now, stops.nextStall());
        stop(stops.stall(now));
        continue;
      }
      now = Math.max(now, t);
      SharedCores.Job ended;
      while ((ended = cores.takeEnded(now)) != null) {
        workDone((Worker) ended.owner);
      }
      stop(stops.takePause());
      while (!waking.isEmpty() && waking.peek().wakeEnd <= now) {
        Worker w = waking.poll();
        Object task = w.waking;
        w.waking = null;
        begin(w, task);
      }
      while (next < arrivalsNanos.length && arrivalsNanos[next] <= now) {
        if (arrivalsNanos[next] >= measureFrom) {
          sent++;
        }
        inFlight++;
        requests.queue.add(new Search(arrivalsNanos[next], order[next]));
        dispatch(requests);
        next++;
      }
      if (requests.queue.size() > sim.config.maxBacklog()) {
        saturated = true;
        break;
      }
    }
    long window = Math.max(1, (saturated ? now : lastArrival) - Math.min(measureFrom, now));
    return new PointResultBuilder(peer.spec(), latency)
        .labels(
            labels.offeredRps(),
            labels.arrivals(),
            labels.seed(),
            "simulated, " + sim.config.workers() + " cores",
            labels.corpus())
        .outcome(window, sent, completed, 0, saturated)
        .queueing(queueing)
        .missTargets(sim.config.targetsNanos())
        .degreeDistribution(Map.of("all", slicesUsed.clone()))
        .build();
  }

  /** Hands the pool's queued tasks to its parked threads, each of which wakes first. */
  private void dispatch(Pool pool) {
    while (!pool.idle.isEmpty() && !pool.queue.isEmpty()) {
      Worker w = pool.idle.poll();
      Object task = handOut(pool);
      long wake = sim.wakeNanos(costs);
      if (wake > 0) {
        w.waking = task;
        w.wakeEnd = now + wake;
        waking.add(w);
      } else {
        begin(w, task);
      }
    }
  }

  /** The pool's next task, off its queue, or null; a search handed out after its arrival queued. */
  private Object handOut(Pool pool) {
    Object task = pool.queue.poll();
    if (task instanceof Search s) {
      s.queued = now > s.arrival;
    }
    return task;
  }

  /** Thread {@code w} starts {@code task} now. */
  private void begin(Worker w, Object task) {
    switch (task) {
      case Search s -> startSearch(w, s);
      case Fork f -> claim(w, f.search(), false);
      case Resume r -> finish(w, r.search());
      default -> throw new IllegalStateException("no task: " + task);
    }
  }

  private void startSearch(Worker w, Search s) {
    s.caller = w;
    s.clientNanos = sim.clientNanos(costs);
    if (s.arrival >= measureFrom) {
      queueing.recordValue(clamp(now - s.arrival));
    }
    // Elasticsearch's rule reads the pool's queue as the search starts, itself taken off it.
    int queued = peer.sharedPool() ? requests.queue.size() : 0;
    s.sliceWork = sim.sliceWork(s.index, queued);
    // A search that waited starts on a thread going straight from its last one: warm, as the
    // policies' simulation charges it.
    double warm = sim.machine == null ? 1 : sim.machine.startFactor(s.queued);
    if (warm != 1) {
      for (int k = 0; k < s.sliceWork.length; k++) {
        s.sliceWork[k] *= warm;
      }
    }
    w.search = s;
    w.slice = -1;
    cores.start(w.job, sim.serialNanos(s.index) * warm, now);
  }

  /** {@code w} ended what it ran: a search's serial part or one of its slices. */
  private void workDone(Worker w) {
    Search s = w.search;
    if (w.slice < 0) {
      // The serial part is over: one task for each slice but the first, the caller claiming too.
      for (int i = 1; i < s.sliceWork.length; i++) {
        slices.queue.add(new Fork(s));
      }
      dispatch(slices);
      claim(w, s, true);
      return;
    }
    s.slicesDone++;
    s.onIt--;
    w.search = null;
    if (w == s.caller) {
      claim(w, s, true);
    } else {
      if (s.slicesDone == s.sliceWork.length && s.callerWaits) {
        s.callerWaits = false;
        wakeCaller(s);
      }
      next(w);
    }
  }

  /**
   * {@code w} claims {@code s}'s next slice, as its caller or for a forked task; with none left,
   * the task ends, and the caller answers or waits for the slices still running.
   */
  private void claim(Worker w, Search s, boolean asCaller) {
    if (s.nextSlice < s.sliceWork.length) {
      int k = s.nextSlice++;
      w.search = s;
      w.slice = k;
      s.onIt++;
      s.mostOnIt = Math.max(s.mostOnIt, s.onIt);
      cores.start(w.job, s.sliceWork[k], now);
    } else if (!asCaller) {
      next(w); // a forked task that found every slice claimed (perhaps on the caller's own thread)
    } else if (s.slicesDone == s.sliceWork.length) {
      finish(w, s);
    } else {
      s.callerWaits = true; // blocked in the futures' get, its thread held
      w.search = null;
    }
  }

  private void wakeCaller(Search s) {
    Worker caller = s.caller;
    long wake = sim.wakeNanos(costs);
    if (wake > 0) {
      caller.waking = new Resume(s);
      caller.wakeEnd = now + wake;
      waking.add(caller);
    } else {
      finish(caller, s);
    }
  }

  /** {@code s} is answered now, on its request thread {@code w}, which goes on to the next. */
  private void finish(Worker w, Search s) {
    inFlight--;
    stops.answered();
    if (s.arrival >= measureFrom) {
      completed++;
      latency.recordValue(clamp(now + s.clientNanos - s.arrival));
      slicesUsed[Math.min(s.mostOnIt, slicesUsed.length - 1)]++;
    }
    next(w);
  }

  /** {@code w} takes the next task of its pool at once, or parks. */
  private void next(Worker w) {
    w.search = null;
    Object task = handOut(w.pool);
    if (task == null) {
      w.pool.idle.add(w);
    } else {
      begin(w, task);
    }
  }

  /**
   * The whole process stops for {@code nanos} from now (a stall, a GC pause): the running threads'
   * work and the wake-ups under way move on by it, and the clock jumps to its end, so that searches
   * arriving meanwhile wait for it.
   */
  private void stop(long nanos) {
    if (nanos <= 0) {
      return;
    }
    cores.pause(now, nanos);
    for (Worker w : waking) {
      w.wakeEnd += nanos; // the same shift for all keeps the queue's order
    }
    now += nanos;
  }

  private static long clamp(long nanos) {
    return Math.max(1, Math.min(HIGHEST_TRACKABLE_NANOS, nanos));
  }
}
