package dev.tailor.auto;

import dev.tailor.core.Experimental;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicySpec;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.policy.WorkerPreference;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A policy that tunes itself: it learns the workload from the requests it serves and rebuilds its
 * own table in the background, so that a user who never profiles, builds or tunes a table still
 * gets a policy fitted to the workload, and keeps it fitted as the workload drifts.
 *
 * <ul>
 *   <li><b>Cold start</b>: until a rebuild swaps something in it serves as WQ-Linear over every
 *       worker a request may have ({@code wq-linear:N}, N the workers or the {@code max-degree}
 *       cap: the workers over one plus the requests waiting behind, fixed at admission, so many
 *       threads at light load and one each under load), a static baseline that adapts to the load
 *       by itself. From the first swap on, what serves is what simulated best: a static baseline or
 *       the progress-aware policy on a table built from the samples.
 *   <li><b>Samples</b>: every completed request is appended to a bounded reservoir ({@link
 *       AutoSettings#samples()}, printed by {@link #status()}): its arrival, completion, run time,
 *       work and probing degree; a probed request also to a reservoir of probes a quarter that
 *       size, so that the few probes a busy period allows accumulate. Nothing else is done on the
 *       request path.
 *   <li><b>Probes</b>: of the requests admitted, a share ({@link AutoSettings#probeShare()}, 1% by
 *       default), chosen by a hash of the request's id before it runs, runs at degree 1 (a quarter
 *       of them, {@link #ALONE}, at any load) or at a second degree (the other three quarters, over
 *       2, half the workers and all of them, taken only while that many workers are idle and no
 *       other request waits, else the request is served as usual), so that speedup and what
 *       parallel running adds to busy time are measured at each degree, by quantile matching of
 *       random samples, not assumed.
 *   <li><b>Rebuilds</b>: when the period and the request count have both passed (and no sooner than
 *       the CPU share allows), a rebuild builds a profile from the samples, the progress-aware
 *       policy's target table from that with the offline builder, and simulates it and the static
 *       baselines against the live policy at the samples' load; only a candidate with a lower P99
 *       is swapped in. A rebuild that throws or runs past its limit leaves the live policy serving
 *       and is counted; so is a record that cannot be a request.
 *   <li><b>Shifts</b>: a change of the query mix (the recent requests' work against the work the
 *       live policy was built from) keeps only the recent samples and shortens the wait for the
 *       next rebuild.
 * </ul>
 *
 * <p>The specification is {@code auto} or {@code auto:key=value,...} ({@link AutoSettings#parse});
 * its rebuilds then run on a background thread. A simulation makes it with {@link #forSimulation}
 * instead, which rebuilds on the simulator's thread. What it learned, the last rebuild's comparison
 * and why it swapped or not: {@link #status()}, the server's {@code /stats}, and the JFR events
 * {@code dev.tailor.AutoRebuild} and {@code dev.tailor.AutoRebuildFailed}. Its threads' claims
 * probe progress ({@link #watchesProgress()}) whatever serves, so that the progress-aware policy
 * sees a request's progress once swapped in.
 */
@Experimental
public final class AutoPolicy implements Policy {

  /** The policy's registered name. */
  public static final String NAME = "auto";

  /**
   * The share of the probes run at degree 1. They are the slowest requests of all when parallelism
   * pays, so few enough that they cannot set the P99: a quarter of the probes, 0.25% of requests at
   * the default share of 1%.
   */
  static final double ALONE = 0.25;

  private final AutoSettings settings;
  private final AtomicReference<Policy> live;
  private final Reservoir reservoir;
  // Probes only, kept longer: they are few, and what speedup rests on.
  private final Reservoir probed;
  private final ProbeDegrees probes = new ProbeDegrees(10);
  private final Rebuilder rebuilder;
  private final AtomicLong probesTaken = new AtomicLong();
  private final PolicySpec identity;
  private final String spec;
  private volatile int cores = 1;
  private volatile int workers = 1; // the most threads a request may get
  // Raised by admit (under the runtime's dispatch lock), lowered by completed (outside it), read
  // by degree(): a count of zero lets most questions skip the table's monitor.
  private final AtomicInteger probesInFlight = new AtomicInteger();

  private AutoPolicy(AutoSettings settings, double faultShare, boolean inline) {
    this.settings = settings;
    this.live = new AtomicReference<>(new ColdStart());
    this.reservoir = new Reservoir(settings.samples());
    this.probed = new Reservoir(Math.max(100, settings.samples() / 4));
    this.rebuilder = new Rebuilder(settings, reservoir, probed, live, faultShare, inline);
    this.identity = PolicySpec.of(NAME, settings.arguments());
    this.spec = identity.toString();
  }

  /**
   * The policy with these settings, serving as {@code wq-linear} over every worker until a rebuild
   * swaps something in; its rebuilds run on a background thread.
   */
  public static AutoPolicy create(AutoSettings settings) {
    return new AutoPolicy(settings, 0, false);
  }

  /**
   * The policy with these settings for the simulator: each rebuild runs on the thread that saw the
   * request that made it due, at that moment, while the virtual clock stands still, so that a
   * simulated run is deterministic and a rebuild takes no simulated time (nor does the CPU share
   * stretch the wait for the next). Otherwise as {@link #create}; its spec is the same. Not for
   * serving: the rebuild would hold up the deciding thread, which in the runtime holds the dispatch
   * lock.
   */
  public static AutoPolicy forSimulation(AutoSettings settings) {
    return new AutoPolicy(settings, 0, true);
  }

  /**
   * The policy whose rebuilds throw at random, a share {@code failShare} of them, for fault drills
   * ({@code ./tailor soak}): every request must still complete, served by the live policy.
   */
  public static AutoPolicy drill(AutoSettings settings, double failShare) {
    if (!(failShare >= 0 && failShare <= 1)) {
      throw new IllegalArgumentException("need a fault share from 0 to 1, got " + failShare);
    }
    return new AutoPolicy(settings, failShare, false);
  }

  /** Its settings. */
  public AutoSettings settings() {
    return settings;
  }

  /** What it has learned and done so far. */
  public AutoStatus status() {
    return rebuilder.status(probesTaken.get());
  }

  /**
   * Rebuilds now, on the calling thread, whatever the period: after a deployment, or to measure a
   * rebuild. The rebuild is the background one's, guard included; what it threw is counted in the
   * status, as in the background.
   *
   * @return its verdict, or null if a rebuild was already under way or this one failed (see {@link
   *     AutoStatus#lastFailure()})
   */
  public AutoStatus.Verdict rebuildNow() {
    long failures = rebuilder.status(0).failures();
    if (!rebuilder.rebuildNow() || rebuilder.status(0).failures() > failures) {
      return null;
    }
    return rebuilder.last();
  }

  /** The specification of the policy serving now. */
  public String liveSpec() {
    return live.get().spec();
  }

  @Override
  public Admission admit(RequestView request, SystemView system) {
    int budget = system.budget();
    if (budget > cores) {
      cores = budget;
      workers = settings.maxDegree() > 0 ? Math.min(settings.maxDegree(), budget) : budget;
    }
    // A probe at degree 1 costs at most what seq would, so it is taken at any load; one at a
    // second degree only while that many workers are idle, so that it gets its threads at once and
    // its run time measures its speedup (and it takes nothing from a request waiting).
    if (settings.probeShare() > 0) {
      int d = probeDegree(request.id(), workers);
      if (d > 0
          && (d == 1 || system.idleWorkers() >= d - 1 && system.queuedRequests() <= 1)
          && probes.put(request.id(), d)) {
        probesInFlight.incrementAndGet();
        probesTaken.incrementAndGet();
        return Admission.start(d);
      }
    }
    return live.get().admit(request, system);
  }

  @Override
  public int degree(RequestView request, SystemView system) {
    if (probesInFlight.get() > 0) {
      int d = probes.get(request.id());
      if (d > 0) {
        return d;
      }
    }
    return live.get().degree(request, system);
  }

  /**
   * Learns from a completed request: its run time, work and, for a probe, the degree it was probed
   * at. Called outside the runtime's dispatch lock, so a rebuild it makes due (inline in the
   * simulator) holds up no decision; its state is the reservoirs' and the probe table's, each
   * guarded by its own monitor.
   */
  @Override
  public void completed(RequestRecord record, SystemView system) {
    int d = 0;
    if (probesInFlight.get() > 0) {
      d = probes.remove(record.id());
      if (d > 0) {
        probesInFlight.decrementAndGet();
      }
    }
    long now = record.endNanos();
    long run = now - record.startNanos();
    reservoir.add(record.arrivalNanos(), now, run, record.workNanos(), d);
    if (d > 0) {
      probed.add(record.arrivalNanos(), now, run, record.workNanos(), d);
    }
    rebuilder.requestCompleted(now, system, cores, workers);
  }

  @Override
  public WorkerPreference workerPreference(SystemView system) {
    return live.get().workerPreference(system);
  }

  @Override
  public boolean watchesProgress() {
    return true;
  }

  @Override
  public long longThresholdNanos() {
    return live.get().longThresholdNanos();
  }

  /** The policies swapped in by rebuilds, and swapped back out by rollbacks, so far. */
  @Override
  public long tableSwaps() {
    return rebuilder.replacements();
  }

  @Override
  public String spec() {
    return spec;
  }

  /** {@code auto} and the settings that differ from the defaults. */
  @Override
  public PolicySpec identity() {
    return identity;
  }

  /** Stops rebuilding and closes the live policy. Idempotent. */
  @Override
  public void close() {
    rebuilder.close();
    live.get().close();
  }

  /**
   * WQ-Linear over every worker a request may have (Haque et al., ASPLOS'15, §5): the degree at
   * admission is the workers over one plus the requests waiting behind, fixed thereafter. What
   * serves until a rebuild swaps something better in; its workers are the policy's, learned from
   * the budget.
   */
  private final class ColdStart implements Policy {
    @Override
    public Admission admit(RequestView request, SystemView system) {
      int waitingBehind = Math.max(0, system.queuedRequests() - 1);
      return Admission.start(Math.max(1, workers / (1 + waitingBehind)));
    }

    @Override
    public int degree(RequestView request, SystemView system) {
      return request.degree();
    }

    @Override
    public String spec() {
      return identity().toString();
    }

    @Override
    public PolicySpec identity() {
      return PolicySpec.of("wq-linear", Integer.toString(workers));
    }
  }

  /**
   * The degree a request is probed at, from a hash of its id: 0 (not probed) for all but {@code
   * probeShare} of them; of those, a quarter ({@link #ALONE}) at degree 1 and the rest spread over
   * 2, half the workers and all of them. With one worker nothing is probed.
   */
  int probeDegree(long id, int workers) {
    if (workers < 2) {
      return 0;
    }
    long h = mix(id);
    double u = (h >>> 11) * 0x1.0p-53;
    if (u >= settings.probeShare()) {
      return 0;
    }
    double v = u / settings.probeShare();
    if (v < ALONE) {
      return 1;
    }
    int half = Math.max(2, workers / 2);
    int choices = workers == 2 ? 1 : half == 2 || half == workers ? 2 : 3;
    int k = Math.min(choices - 1, (int) ((v - ALONE) / (1 - ALONE) * choices));
    return switch (k) {
      case 0 -> 2;
      case 1 -> choices == 2 ? workers : half;
      default -> workers;
    };
  }

  /** SplitMix64's finalizer: consecutive ids spread over the whole range. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
