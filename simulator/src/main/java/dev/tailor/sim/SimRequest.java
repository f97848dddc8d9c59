package dev.tailor.sim;

import dev.tailor.core.metrics.RequestLedger;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.measure.DemandProfile;
import java.util.function.Predicate;

/**
 * A request in the simulation: what the policy sees of it, and how its threads progress through its
 * work. Subclasses are the work models: {@link FluidRequest} (Few-to-Many's) and {@link
 * UnitRequest} (the runtime's).
 */
abstract class SimRequest implements RequestView {

  final long id;
  final long arrival;
  final DemandProfile.Request demand;
  private final SystemView clock;
  private final Told told;

  long start = UNKNOWN;
  int degree;

  /** Threads on the request, waiting ones included: the slots it holds. */
  int threads;

  private final RequestLedger ledger = new RequestLedger();
  private boolean isLong;
  private SpeedupCurve speedup;

  SimRequest(long id, long arrival, DemandProfile.Request demand, SystemView clock, Told told) {
    this.id = id;
    this.arrival = arrival;
    this.demand = demand;
    this.clock = clock;
    this.told = told;
  }

  /**
   * What the policy is told about a request before it runs.
   *
   * @param predictedNanos the predictor's estimate from the profile's predictions, or {@link
   *     #UNKNOWN}
   * @param clairvoyant whether the policy is told the true time and curve instead ({@link
   *     dev.tailor.core.policy.Policy#clairvoyant()})
   * @param longThresholdNanos the time from which the request counts as long
   */
  record Told(long predictedNanos, boolean clairvoyant, long longThresholdNanos) {}

  /**
   * The request's priority class as the dispatch core sees it, how many times its profiled work it
   * does ({@link ClassMix}), and the class it is reported in (its class in the mix, even when
   * classes are off and it is dispatched as interactive).
   */
  record Kind(PriorityClass priority, double scale, PriorityClass reported) {
    static final Kind DEFAULT = new Kind(PriorityClass.INTERACTIVE, 1, PriorityClass.INTERACTIVE);

    /** A profiled time, scaled. */
    long scaled(long nanos) {
      return scale == 1 ? nanos : Math.round(nanos * scale);
    }
  }

  /** Set by the simulator after construction: the class, and promptness's answers. */
  Kind kind = Kind.DEFAULT;

  /**
   * Set by the simulator after construction: how long the thread that runs the request takes to
   * wake once admitted ({@link Calibration#dispatchNanos}); it holds the request's slot meanwhile.
   * None for a request that queued: the thread its predecessor freed takes it without parking.
   */
  long wakeNanos;

  /**
   * Set by the simulator after construction: how much later than the request's end the client sees
   * its answer ({@link Calibration#completionNanos} and {@link Calibration#sendLagNanos}).
   */
  long clientNanos;

  /**
   * How many times longer than alone the request's work takes now: the machine model's co-run
   * factor for the threads working ({@link MachineModel#coRunAt}) times its {@link #startFactor};
   * exactly 1 without a model, so that every time is computed as without one. Set by the simulator
   * before the request starts, and changed through {@link #repace}.
   */
  double slowdown = 1;

  /**
   * The machine model's factor for how the request started ({@link MachineModel#startFactor}):
   * every slowdown it runs at is the co-run factor times this. Exactly 1 without a model.
   */
  double startFactor = 1;

  /**
   * Set by the simulator after construction: whether a helper of this request leaves at its
   * boundary, as the dispatch core decides it ({@link
   * dev.tailor.core.dispatch.HelperRules#leaves}).
   */
  Predicate<SimRequest> helperLeaves;

  /** Admits the request with degree {@code d} on one thread at {@code at}. */
  final void start(int d, long at) {
    start = at;
    degree = d;
    ledger.start(d, at);
    threads = 1;
    ledger.threadsSeen(1);
    begin(at);
    checkLong();
  }

  /** Sets the degree the policy answered; threads follow as the work model says. */
  final void setDegree(int d, long at) {
    ledger.changeDegree(d, at);
    degree = d;
  }

  final void checkLong() {
    long predicted = predictedSequentialNanos();
    if (!isLong
        && (workNanos() >= told.longThresholdNanos()
            || (predicted != UNKNOWN && predicted >= told.longThresholdNanos()))) {
      isLong = true;
    }
  }

  /** Records a change in the threads working (not waiting) on the request. */
  final void setBusy(int n, long at) {
    ledger.working(n, at);
  }

  final void setThreads(int t) {
    threads = t;
    ledger.threadsSeen(t);
  }

  // ---- the work model -----------------------------------------------------------------------

  /** Starts the work on the request's first thread. */
  abstract void begin(long at);

  /**
   * Whether the request has work a free thread could take now; whether its degree has room is the
   * dispatch core's to say.
   */
  abstract boolean hasWorkForHelper();

  /** A free thread joins the request at {@code at}. */
  abstract void addHelper(long at);

  /**
   * The dispatch core says {@code n} threads exceed the degree: returns how many leave at once (the
   * rest leave at their next boundary).
   */
  abstract int shed(int n, long at);

  /**
   * Promptness at a tick: {@code n} helpers are wanted by a higher class. Returns how many leave at
   * once; under a work model with unit boundaries, none (they ask at their boundaries).
   */
  abstract int yieldHelpers(int n, long at);

  /** When the next thread reaches a boundary (or the request completes); MAX_VALUE if never. */
  abstract long nextEventAt();

  /** Handles the boundaries due at {@code at}; returns how many threads left the request. */
  abstract int advance(long at);

  /** Whether the request has completed. */
  abstract boolean done();

  /** The request's threads working now (not waiting for its helpers): the cores it keeps busy. */
  abstract int working();

  /**
   * The whole process stops from {@code at} for {@code nanos} (a stall, a GC pause): no thread of
   * the request works meanwhile, so each of its next boundaries comes {@code nanos} later.
   */
  abstract void pause(long at, long nanos);

  /**
   * From {@code at} on, the request's work goes {@code slowdown} times slower than alone (the
   * co-run factor for the threads now working): what is left of it is stretched by the change.
   */
  abstract void repace(long at, double slowdown);

  RequestRecord record(long end) {
    long firstRun = Math.min(end, start + wakeNanos); // the calibration's wake-up, if any
    return ledger.record(
        id, demand.category(), arrival, start, firstRun, end, RequestRecord.Outcome.COMPLETED);
  }

  // ---- RequestView --------------------------------------------------------------------------

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
    return start == UNKNOWN ? 0 : clock.nanoTime() - start;
  }

  @Override
  public long workNanos() {
    return start == UNKNOWN ? 0 : ledger.workNanos(clock.nanoTime());
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
    long p = told.clairvoyant() ? demand.sequentialNanos() : told.predictedNanos();
    return p == UNKNOWN ? p : kind.scaled(p);
  }

  @Override
  public SpeedupCurve predictedSpeedup() {
    if (!told.clairvoyant()) {
      return null;
    }
    if (speedup == null) {
      speedup = demand.speedupCurve(); // asked once per request by a clairvoyant policy
    }
    return speedup;
  }

  @Override
  public PriorityClass priorityClass() {
    return kind.priority();
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
