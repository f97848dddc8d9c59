package dev.tailor.sim;

import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.UnitWork;
import dev.tailor.sim.arrival.PointPlan;
import java.util.SplittableRandom;

/**
 * A discrete-event simulation of a plain-Lucene configuration ({@link Peer}) on the same profiles,
 * arrivals and virtual clock as {@link Simulator}'s policies, so that a simulated sweep at 16 or 64
 * cores holds what users run beside Tailor's policies. No dispatch core and no policy: the peer's
 * own pools and rules decide, as {@link PeerRun} describes.
 *
 * <p>The model, in what it charges:
 *
 * <ul>
 *   <li>work: each request's unit times from the profile (served through the calibration, as the
 *       policies' are), spread over the index's segments by documents ({@link
 *       IndexLayout#segmentWork}) and summed per slice of the peer's slicing; its serial part (the
 *       time outside units) runs on the request thread before the slices fork;
 *   <li>more threads running than cores: processor sharing of the cores ({@link SharedCores}), each
 *       running thread slowed by the calibration's co-run factor for the cores at work;
 *   <li>switches: a parked thread handed work (a request to a request thread, a forked task to a
 *       pool thread, the caller woken by its last slice's end) first wakes for a time drawn from
 *       the calibration's dispatch delay; the client's completion and send lag are added to the
 *       latency the simulated client records, as for the policies;
 *   <li>the machine, as the policies' simulation charges it and from random streams seeded alike:
 *       its stalls stop the whole process (a Poisson process at the measured rate), a GC pause
 *       follows an answer at the measured rate per request, and a search that waited for its
 *       request thread runs at the warm-start factor.
 * </ul>
 *
 * Not charged: any cost of a slice beyond its segments' unit times. The profile's hand-off overhead
 * per unit, measured on the drop-in's windows, is not charged to Lucene's slices: charged, the
 * model put none of the demo's real {@code lucene-executor:2} cells at 5-40% of capacity within
 * their measured intervals, against two of three without it. Without a calibration nothing wakes
 * and only the cores are shared.
 *
 * <p>Single-threaded and deterministic: the same inputs give the same result.
 */
public final class PeerSimulator {

  final Peer peer;
  final Simulator.Config config;
  final MachineModel machine;
  private final Calibration calibration;
  private final long[] serialNanos; // by profile request, its time outside units
  private final double[][] segmentWork; // by profile request, its work in each segment
  private final int[][] oneSlice; // every segment in one slice, on the request thread
  private final int[][] fixedSlices; // the slices every search gets, or null for Elasticsearch's
  private final int[][] cappedSlices; // Elasticsearch's, when the queue lets it fan out

  /**
   * A simulator of {@code profile}'s requests under {@code peer} on an index laid out as {@code
   * layout}, with {@code config}'s cores ({@code workers}), warm-up, backlog, targets and
   * calibration.
   *
   * @throws IllegalArgumentException if the profile is empty or a request has no unit times, or the
   *     calibration has no machine model (field {@code model}), whose co-run factors the peers need
   */
  public PeerSimulator(
      DemandProfile profile, Peer peer, IndexLayout layout, Simulator.Config config) {
    if (profile.requests().isEmpty()) {
      throw new IllegalArgumentException("the profile has no request");
    }
    Calibration c = config.calibration();
    if (c != null && c.model() == null) {
      throw new IllegalArgumentException(
          "calibration field model: absent (a version 1 calibration); the plain-Lucene peer '"
              + peer.spec()
              + "' needs its co-run factors to share the cores among more threads than cores."
              + " The policies still take it; recalibrate for the peers");
    }
    this.machine = c == null ? null : c.modelFor(config.workers());
    DemandProfile served = c == null ? profile : c.served(profile);
    int n = served.requests().size();
    this.serialNanos = new long[n];
    this.segmentWork = new double[n][];
    for (int i = 0; i < n; i++) {
      DemandProfile.Request r = served.requests().get(i);
      if (!r.hasUnitTimes()) {
        throw new IllegalArgumentException(
            "request "
                + r.id()
                + " of the profile has no unit times; the plain-Lucene peers need a profile"
                + " measured by ./tailor profile");
      }
      // Once per profile request, not per arrival: a point replays each request many times.
      UnitWork w = r.unitWork();
      serialNanos[i] = w.serialNanos();
      segmentWork[i] = layout.segmentWork(w);
    }
    this.peer = peer;
    this.config = config;
    this.calibration = c;
    int[][] luceneSlices = layout.luceneSlices();
    this.oneSlice = new int[][] {allSegments(layout.segments())};
    this.fixedSlices =
        switch (peer.slicing()) {
          case NONE -> oneSlice;
          case LUCENE -> luceneSlices;
          case MAX_TARGET -> layout.maxTarget(peer.sliceCount());
          case ELASTICSEARCH -> null;
        };
    this.cappedSlices =
        peer.slicing() == Peer.Windowing.ELASTICSEARCH
            ? layout.capped(luceneSlices, peer.sliceCount())
            : null;
  }

  /** Simulates one point of a sweep plan. */
  public PointResult run(PointPlan point, String corpus) {
    return run(
        point.offsetsNanos(),
        point.order(),
        point.warmupRequests(),
        new Simulator.Labels(point.offeredRps(), point.arrivals(), point.seed(), corpus));
  }

  /**
   * Simulates one point, the configuration's warm-up left out.
   *
   * @param arrivalsNanos arrival times from the start, ascending
   * @param order the profile request each arrival is
   */
  public PointResult run(long[] arrivalsNanos, int[] order, Simulator.Labels labels) {
    return run(arrivalsNanos, order, config.warmupRequests(), labels);
  }

  private PointResult run(long[] arrivals, int[] order, int warmup, Simulator.Labels labels) {
    return new PeerRun(this).run(arrivals, order, warmup, labels);
  }

  /**
   * The work of each slice of profile request {@code index}, nanoseconds at a core's full speed,
   * for a search that starts while {@code queued} tasks wait in its pool's queue.
   */
  double[] sliceWork(int index, int queued) {
    int[][] slices = fixedSlices;
    if (slices == null) {
      // Elasticsearch's rule: up to N slices while the queue holds at most N tasks, else one.
      slices = queued <= peer.sliceCount() ? cappedSlices : oneSlice;
    }
    double[] bySegment = segmentWork[index];
    double[] work = new double[slices.length];
    for (int k = 0; k < slices.length; k++) {
      for (int s : slices[k]) {
        work[k] += bySegment[s];
      }
    }
    return work;
  }

  /** The serial part of profile request {@code index}: its time outside units. */
  long serialNanos(int index) {
    return serialNanos[index];
  }

  /** A parked thread's wake-up: the calibration's dispatch delay, or 0 without one. */
  long wakeNanos(SplittableRandom costs) {
    return calibration == null ? 0 : Calibration.draw(calibration.dispatchNanos(), costs);
  }

  /** The client's own costs of an answer: completion and send lag, or 0 without a calibration. */
  long clientNanos(SplittableRandom costs) {
    return calibration == null
        ? 0
        : Calibration.draw(calibration.completionNanos(), costs)
            + Calibration.draw(calibration.sendLagNanos(), costs);
  }

  private static int[] allSegments(int n) {
    int[] all = new int[n];
    for (int i = 0; i < n; i++) {
      all[i] = i;
    }
    return all;
  }
}
