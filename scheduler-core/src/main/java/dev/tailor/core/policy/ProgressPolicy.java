package dev.tailor.core.policy;

import dev.tailor.core.Experimental;
import dev.tailor.core.Internal;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.table.TableSource;
import dev.tailor.core.table.TargetTable;
import dev.tailor.core.table.ThresholdTable;
import java.nio.file.Path;
import java.util.List;

/**
 * Progress-aware scheduling: the three published policies' decisions, each taken on a request's
 * {@linkplain RequestView#projectedSequentialNanos() projection}, its total sequential time
 * projected from the windows it has finished, blended with its prediction, instead of the one
 * signal each paper had.
 *
 * <ul>
 *   <li><b>Arrival, as TPC</b> (Jeon et al., ASPLOS'16, §3.1): the degree from the prediction and
 *       the {@link TargetTable}'s target {@code E} for the load, the fewest threads whose speedup
 *       brings the prediction within {@code E}. A request without a prediction is admitted as one
 *       predicted at the table's long threshold: possibly long, as steal-first treats every request
 *       (TPC starts it sequentially, which under load leaves the free workers nothing to help, so
 *       they admit more requests and every request gets fewer threads).
 *   <li><b>While it runs, more threads for a request projected to miss its target</b>, as
 *       Few-to-Many adds threads as a request runs (Haque et al., ASPLOS'15, §4.2) and as TPC's
 *       correction does (§3.2), but from the projection rather than from the time run so far: with
 *       {@code L} the projection, {@code W} the work done and {@code t} the time run, the degree is
 *       the smallest {@code i <= P} with {@code t + (L - W) / S_i <= E}, {@code S} the speedup
 *       profile of the projection's group, or {@code P} if none is fast enough, never lowered.
 *       While no request waits for admission the degree is granted whole and free workers join as
 *       they come free; while one waits, only as far as the workers idle now allow ({@code threads
 *       + idle}, as TPC's correction grants), since a worker promised to a running request is then
 *       one taken from a waiting one. So a request found long after its first windows ramps up at
 *       once, instead of when its run time has passed the target; one found short keeps its degree.
 *       Without a projection (no prediction and no window finished yet) it gives {@code P} once the
 *       request has run past its target, as TPC's correction does.
 *   <li><b>Under a pileup, serialization of a projected giant</b>, as tail-control (Li et al.,
 *       PPoPP'16, §3-4), but on the projection rather than the work done: when a {@link
 *       ThresholdTable} is given, a request whose projection exceeds the threshold for the number
 *       of requests in the system is serialized (degree 0). Tail-control recognises a large request
 *       only once its work has passed the threshold; the projection recognises it after its first
 *       claim of windows, which is the delay the clairvoyant version does not pay (§5.4). The mark
 *       is not kept: the threshold is read for the load at every check and the projection is
 *       refined at every claim, so a request serialized at a peak, or on a prediction its windows
 *       then contradict, gets threads again when it is no longer hopeless.
 * </ul>
 *
 * <p>The specification is {@code progress:TARGETS.json} or {@code
 * progress:TARGETS.json+THRESHOLDS.json} (a file whose name has a {@code +} or an {@code @} in
 * quotes, {@link PolicySpec}): a TPC target table ({@code tables build tpc}) and, optionally, a
 * tail-control threshold table ({@code tables build tc}); without one it never serializes. Both
 * files are watched and swapped independently when rebuilt. The long flag counts from the target
 * table's long threshold, as TPC's does. Free workers help first.
 */
@Internal
@Experimental
public final class ProgressPolicy implements Policy {

  /** The policy's registered name. */
  public static final String NAME = "progress";

  private final PolicyTable<TargetTable> targets;
  private final PolicyTable<ThresholdTable> thresholds;
  private final PolicySpec identity;
  private final String spec;

  private ProgressPolicy(PolicyTable<TargetTable> targets, PolicyTable<ThresholdTable> thresholds) {
    this.targets = targets;
    this.thresholds = thresholds;
    Path t = targets.file();
    Path th = thresholds == null ? null : thresholds.file();
    if (t == null || thresholds != null && th == null) {
      this.identity = PolicySpec.inMemory(NAME);
    } else {
      this.identity = th == null ? PolicySpec.ofTables(NAME, t) : PolicySpec.ofTables(NAME, t, th);
    }
    this.spec = identity.toString();
  }

  /**
   * The policy reading its targets from {@code targets} and, unless {@code thresholds} is null, its
   * serialization thresholds from {@code thresholds}, fixed or watched. The caller keeps ownership
   * of the sources: closing the policy does not close them.
   */
  public static ProgressPolicy of(
      TableSource<TargetTable> targets, TableSource<ThresholdTable> thresholds) {
    return new ProgressPolicy(
        PolicyTable.of(targets), thresholds == null ? null : PolicyTable.of(thresholds));
  }

  /**
   * The policy reading a target table file and, unless {@code thresholds} is null, a threshold
   * table file, watching both for a new table until the policy is closed.
   *
   * @throws IllegalArgumentException if a file is missing or invalid, naming file, field and
   *     problem
   */
  public static ProgressPolicy watching(Path targets, Path thresholds) {
    PolicyTable<TargetTable> t = PolicyTable.watching(targets, TargetTable::read);
    try {
      return new ProgressPolicy(
          t, thresholds == null ? null : PolicyTable.watching(thresholds, ThresholdTable::read));
    } catch (RuntimeException e) {
      t.close();
      throw e;
    }
  }

  /** The factory for {@code progress:TARGETS.json[+THRESHOLDS.json]}. */
  static List<PolicyFactory> factories() {
    return List.of(
        new BuiltInFactory(
            NAME,
            NAME + ":TARGETS.json[+THRESHOLDS.json]",
            "progress-aware: degree at arrival from the prediction as TPC, more threads for a"
                + " request projected from its windows to miss its target, and a projected"
                + " giant serialized past the threshold for the load",
            ProgressPolicy::create));
  }

  private static Policy create(PolicySpec spec) {
    List<Path> files = spec.tables();
    if (files.isEmpty()) {
      throw new IllegalArgumentException("expected the target table's file");
    }
    return watching(files.get(0), files.size() > 1 ? files.get(1) : null);
  }

  /** The target table source, whose current table every decision reads. */
  public TableSource<TargetTable> targets() {
    return targets.source();
  }

  /** The threshold table source, or null when the policy never serializes. */
  public TableSource<ThresholdTable> thresholds() {
    return thresholds == null ? null : thresholds.source();
  }

  @Override
  public Admission admit(RequestView request, SystemView system) {
    TargetTable t = targets.current();
    long target = t.targetNanos(t.inputs().loadMetric().read(system));
    long predicted = request.predictedSequentialNanos();
    // Unknown counts as possibly long, as steal-first treats every request: starting it alone
    // would leave free workers nothing to help, so they would admit more requests instead.
    long expected = predicted == RequestView.UNKNOWN ? t.longThresholdNanos() : predicted;
    return Admission.start(t.degreeFor(expected, target));
  }

  @Override
  public int degree(RequestView request, SystemView system) {
    long projected = request.projectedSequentialNanos();
    if (thresholds != null
        && projected != RequestView.UNKNOWN
        && projected > thresholds.current().thresholdNanos(system.requestsInSystem())) {
      return 0; // hopeless at this load: its threads serve the others better
    }
    int d = Math.max(1, request.degree());
    TargetTable t = targets.current();
    int p = t.inputs().maxDegree();
    if (d >= p) {
      return d;
    }
    long target = t.targetNanos(t.inputs().loadMetric().read(system));
    int needed = needed(t, projected, request, target, p);
    if (needed > d && system.queuedRequests() > 0) {
      needed = Math.min(needed, request.threads() + system.idleWorkers());
    }
    return Math.max(d, needed);
  }

  /**
   * The fewest threads that finish the request by its target at the pace its projection gives; with
   * no projection, TPC's correction: {@code p} once it has run past its target, else one.
   */
  private static int needed(
      TargetTable t, long projected, RequestView request, long target, int p) {
    long elapsed = request.elapsedNanos();
    if (projected == RequestView.UNKNOWN) {
      return elapsed < target ? 1 : p;
    }
    double left = Math.max(0, projected - request.workNanos());
    double slack = target - elapsed;
    if (left <= slack) {
      return 1;
    }
    if (slack <= 0) {
      return p;
    }
    SpeedupCurve s = t.groups().curveFor(projected);
    for (int i = 2; i < p; i++) {
      if (left / s.at(i) <= slack) {
        return i;
      }
    }
    return p;
  }

  /** It decides from the projection: claims start at one window. */
  @Override
  public boolean watchesProgress() {
    return true;
  }

  @Override
  public long longThresholdNanos() {
    return targets.current().longThresholdNanos();
  }

  /** The tables its target and threshold sources swapped in since they were created. */
  @Override
  public long tableSwaps() {
    return targets.source().swaps() + (thresholds == null ? 0 : thresholds.source().swaps());
  }

  @Override
  public String spec() {
    return spec;
  }

  /**
   * {@code progress} and its files, or {@code progress:(in memory)} when a table was handed over
   * rather than read from a file.
   */
  @Override
  public PolicySpec identity() {
    return identity;
  }

  /** Stops watching the table files this policy opened; the current tables keep serving. */
  @Override
  public void close() {
    targets.close();
    if (thresholds != null) {
      thresholds.close();
    }
  }
}
