package dev.tailor.core.dispatch;

import dev.tailor.core.FailureLog;
import dev.tailor.core.Internal;
import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * The dispatch core: who a free slot of the thread budget goes to. It holds the FIFO admission
 * queue, the running requests and the free slots, and makes every decision about them once, for the
 * runtime and for the simulator alike: admit the head (or delay it, or hold it until a request
 * exits), help the oldest running request that may take another thread, in the order the policy
 * prefers, and re-read a running request's degree. It also decides, for the host to carry out,
 * whether a running request may take one more thread ({@link HelperRules#wants}) and whether a
 * helper leaves it ({@link HelperRules#leaves}). Every question to the {@link Policy} is guarded
 * ({@link GuardedPolicy}): a policy that throws or answers null is reported through the {@link
 * #failures() failure log} and a safe default is used; so is a {@link DecisionListener} that
 * throws.
 *
 * <p>What a decision does to a request (start its body, send a helper to it) is the {@link
 * DispatchHost}'s: the runtime's host moves threads, the simulator's moves a virtual clock. So a
 * policy decided in the simulator is the policy that runs in production, decision for decision.
 *
 * <p>Not thread-safe: every method that changes state must be called under the host's mutual
 * exclusion (the runtime's dispatch lock; the simulator is single-threaded). The counts a policy
 * reads through {@link #view()}, the running requests and the head's delay are volatile, so the
 * runtime's lock-free paths (the tick, a unit fork) may read them without the lock.
 *
 * <p>Priority classes ({@link PriorityClass}): each class has its own FIFO admission queue, and a
 * free slot goes to the highest class with work ({@link Assigner}, which also keeps the order of
 * the decisions). Promptness (Singer et al., "Prompt I-Cilk", SPAA'23, Section 3): while a higher
 * class has work, a helper on a lower-class request {@linkplain HelperRules#yields yields} at its
 * next unit boundary. A lower class below its {@linkplain #Dispatcher(Policy, int, Object[],
 * DispatchHost, boolean, int[]) floor of threads} gets a free slot before any higher class and is
 * never taken below it.
 *
 * <p>The elastic budget ({@link #elasticBudget}, {@link ElasticBudget}): a policy resizes the
 * budget of slots every period; a shrink takes no thread away mid-unit, helpers {@linkplain
 * HelperRules#yields yield} at their next boundary meanwhile.
 *
 * @param <R> the host's request type
 */
@Internal
public final class Dispatcher<R extends RequestView> {

  private static final System.Logger LOG = System.getLogger(Dispatcher.class.getName());

  /** {@link #headDelayedUntil()} when the head is not delayed. */
  public static final long NOT_DELAYED = Long.MIN_VALUE;

  /** The decisions the core makes, as a {@link DecisionListener} hears them. */
  public enum Decision {
    /** The head was admitted; the value is its degree. */
    START,
    /** The head is held until a time; the value is that time. */
    DELAY,
    /** The head is held until a running request exits; the value is 0. */
    AWAIT_EXIT,
    /** A free thread joins a running request; the value is its threads before. */
    HELP,
    /** The policy changed a running request's degree; the value is the new degree. */
    DEGREE
  }

  /**
   * Hears every decision, in order, on the thread that made it: under the host's exclusion, except
   * {@link Decision#DEGREE}, which the runtime asks without its lock (so a listener for the runtime
   * must be thread-safe).
   */
  @FunctionalInterface
  public interface DecisionListener {
    /** A decision about request {@code requestId}; {@code value} as {@link Decision} says. */
    void decided(Decision decision, long requestId, long value);
  }

  private final GuardedPolicy policy;
  final DispatchHost<R> host;
  private final SystemView view = new CoreView(this);
  private final FailureLog failures = new FailureLog(LOG);
  final AdmissionQueues<R> queues;
  private final HelperRules<R> helpers = new HelperRules<>(this);
  private final RunningRequests<R> running;
  private final Slots slots;
  private final Assigner<R> assigner;
  private final DecisionReports decisions = new DecisionReports(failures);

  /**
   * A dispatch core with {@code workers} free slots and nothing queued or running.
   *
   * @param noRequests an empty array of the host's request type, for the running requests
   * @param skipFruitlessHelpScans whether a help scan that found nobody may be skipped until the
   *     host calls {@link #helpMayBeWanted()}. Only a host that calls it on every change that can
   *     make a request want a helper may set it: the single-threaded simulator does; the runtime,
   *     whose units are forked without the lock, does not.
   */
  public Dispatcher(
      Policy policy,
      int workers,
      R[] noRequests,
      DispatchHost<R> host,
      boolean skipFruitlessHelpScans) {
    this(policy, workers, noRequests, host, skipFruitlessHelpScans, defaultFloors());
  }

  /**
   * A dispatch core whose priority classes keep the given floors of threads.
   *
   * @param floorThreads for each {@link PriorityClass}, by ordinal, the threads that class is
   *     entitled to whenever it has work: a free slot goes to it first while it holds fewer, and
   *     promptness never takes it below them. The highest class's floor is ignored (it is never
   *     preempted). See {@link #floorThreads(double, int)} for the rule from a share.
   */
  public Dispatcher(
      Policy policy,
      int workers,
      R[] noRequests,
      DispatchHost<R> host,
      boolean skipFruitlessHelpScans,
      int[] floorThreads) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be >= 1, got " + workers);
    }
    if (noRequests.length != 0) {
      throw new IllegalArgumentException("noRequests must be empty");
    }
    this.host = Objects.requireNonNull(host, "host");
    this.policy = new GuardedPolicy(policy, failures, host::holdsExclusion);
    this.running = new RunningRequests<>(noRequests);
    this.slots = new Slots(workers, host, failures);
    this.queues = new AdmissionQueues<>(floorThreads, workers);
    this.assigner =
        new Assigner<>(this, this.policy, view, running, slots, decisions, skipFruitlessHelpScans);
  }

  /** The default floors: one thread for every class below the highest. */
  public static int[] defaultFloors() {
    int[] floors = new int[PriorityClass.values().length];
    Arrays.fill(floors, 1);
    floors[0] = 0;
    return floors;
  }

  /**
   * The rule from a class's share of the budget to its floor of threads: {@code share * workers}
   * rounded down, but at least one thread if the share is above zero; zero for a share of zero
   * (strict priority: the class may starve while higher classes have work).
   *
   * @throws IllegalArgumentException if the share is not in [0, 1]
   */
  public static int floorThreads(double share, int workers) {
    if (!(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException("a class share must be in [0, 1], got " + share);
    }
    return share == 0 ? 0 : Math.max(1, (int) Math.floor(share * workers));
  }

  /** Reports every later decision to {@code listener} (null: to nobody). */
  public void decisionListener(DecisionListener listener) {
    decisions.listener(listener);
  }

  /** The live load measures policies see. */
  public SystemView view() {
    return view;
  }

  /** Where the failures of the policy and the decision listener are reported. */
  public FailureLog failures() {
    return failures;
  }

  // ---- the queue ------------------------------------------------------------------------------

  /** Appends an arrival to its class's admission queue; the caller checks the queue's capacity. */
  public void enqueue(R request) {
    queues.add(request);
  }

  /** Requests waiting for admission. */
  public int queued() {
    return queues.queued();
  }

  /**
   * Takes a request out of its class's queue (cancelled, or its caller interrupted). If it was the
   * head, the head's delay or wait is forgotten: the new head is asked afresh.
   *
   * @return whether it was the head
   */
  public boolean removeQueued(R request) {
    return queues.remove(request);
  }

  /**
   * Empties the queues, handing each request to {@code each}: class by class from the highest, in
   * arrival order within a class.
   */
  public void drainQueue(Consumer<? super R> each) {
    queues.drain(each);
  }

  /**
   * The earliest time a delayed head may be asked again, over every class's head, or {@link
   * #NOT_DELAYED} if no head is delayed.
   */
  public long headDelayedUntil() {
    return queues.headDelayedUntil();
  }

  /** Whether some class's head is delayed and its time has come at {@code now}. */
  public boolean headDelayExpired(long now) {
    return queues.headDelayExpired(now);
  }

  // ---- slots ----------------------------------------------------------------------------------

  /**
   * The threads that may be given work now: the larger of {@link #admissionSlots()} and {@link
   * #helperSlots()}; zero or less when neither an admission nor a helper may start.
   */
  public int freeSlots() {
    return Math.max(slots.forAdmission(), slots.forHelpers());
  }

  /**
   * How many more requests may be admitted now: under prompt admission the budget less the own
   * threads of running requests (whatever helpers hold), else the budget less every busy thread.
   */
  public int admissionSlots() {
    return slots.forAdmission();
  }

  /**
   * How many more helpers may join running requests now: the budget plus the slack, less the busy.
   */
  public int helperSlots() {
    return slots.forHelpers();
  }

  /**
   * How many helpers should leave at their next boundary: as many as the busy threads exceed the
   * budget plus the slack, or every helper while own threads fill the budget under prompt admission
   * (or exceed a budget that shrank).
   */
  public int excessThreads() {
    return slots.excess();
  }

  /** The slots held by threads, own threads and helpers, read whole. */
  int busySlots() {
    return slots.busy();
  }

  /**
   * The most threads that may work on requests at once outside a helper's way out: the budget plus
   * the {@linkplain #slack(int) slack} (which is lent only under prompt admission).
   */
  public int threadLimit() {
    return slots.budget() + slots.slack();
  }

  /** The running requests, oldest admission first. The array must not be modified. */
  public R[] running() {
    return running.all();
  }

  /**
   * Takes one free slot for the next piece of work. It goes to the highest priority class with work
   * (after any lower class below its floor), and within the class in the order the policy prefers:
   * help the oldest running request of the class that wants a helper, or admit the head of the
   * class's queue. Returns what the slot went to, or null if there is no work for it.
   *
   * @param poolThread whether a pool thread is there to take the work; without one, only a request
   *     that {@linkplain DispatchHost#runsOnCaller runs on its caller} can be admitted, and none
   *     helped
   */
  public Assignment<R> takeWork(long now, boolean poolThread) {
    return assigner.takeWork(now, poolThread);
  }

  /**
   * A free slot's work, as {@link #takeWork} decided it: a thread for {@code request}, which it
   * either starts (its body, on the caller or a pool thread) or, when {@code help}, joins as a
   * helper on its units.
   *
   * @param <R> the host's request type
   */
  public record Assignment<R>(R request, boolean help) {}

  // ---- helpers ------------------------------------------------------------------------------

  /**
   * Whether an arrival is admitted promptly (the default): a request that waits for admission, when
   * the policy would admit it now, gets the next slot before any running request gets a helper, and
   * a helper of its class gives its slot back at its next boundary ({@link HelperRules#yields}).
   * Off, a policy that helps first keeps every free thread on running requests while they want
   * helpers, as tail-control's steal-first is described (Li et al., PPoPP'16, Section 4), and
   * arrivals wait for a thread to run out of work to steal.
   */
  public void promptAdmission(boolean on) {
    slots.configure(slots.slack(), on);
  }

  /** Whether arrivals are admitted promptly ({@link #promptAdmission(boolean)}). */
  public boolean promptAdmission() {
    return slots.prompt();
  }

  /**
   * How many threads helpers may hold beyond the budget under prompt admission (default 0): own
   * threads never exceed the budget, own threads and helpers together the budget plus the slack,
   * the operating system time-slicing the cores among them. Call before any request is queued.
   *
   * @throws IllegalArgumentException if the slack is below 0 or above the workers
   */
  public void slack(int threads) {
    slots.configure(threads, slots.prompt());
  }

  /** The slack set by {@link #slack(int)}, whether or not admission is prompt. */
  public int slack() {
    return slots.configuredSlack();
  }

  /** Whether threads may join, or must leave, running requests: the core's decisions on helpers. */
  public HelperRules<R> helpers() {
    return helpers;
  }

  // ---- slots ----------------------------------------------------------------------------------

  /** Gives back {@code helpers} slots whose helpers left their requests at {@code now}. */
  public void releaseSlots(int helpers, long now) {
    slots.release(helpers, 0, now);
  }

  /**
   * Gives back, at {@code now}, the slots of {@code helpers} helpers and of {@code own} requests'
   * own threads (0 or 1 for one request; 0 when it ran on a slot lent to it ({@link #adopt})).
   */
  public void releaseSlots(int helpers, int own, long now) {
    slots.release(helpers, own, now);
  }

  /**
   * A running request has completed: it leaves the running set and a head waiting for it is freed.
   */
  public void exited(R request) {
    slots.completed(host.nanoTime() - request.startNanos());
    running.remove(request);
    queues.exitSeen();
  }

  /**
   * Tells the policy that a request that ran has completed, with its record ({@link
   * Policy#completed}): after {@link #exited}, and in the runtime outside its lock.
   */
  public void completed(RequestRecord record) {
    policy.completed(record, view);
  }

  /** Whether the policy hears completions: a host may skip making their records otherwise. */
  public boolean hearsCompletions() {
    return policy.hearsCompletions();
  }

  /**
   * Starts a queued request at once, at degree 1, on a thread that already holds a slot: a thread
   * of a running request about to wait for this one, which runs it instead of waiting while it
   * holds its slot (nested waits would otherwise deadlock). The policy is not asked, and no slot is
   * taken. If it was its class's head, the next head is asked afresh.
   *
   * @return whether it was the head
   */
  public boolean adopt(R request, long now) {
    boolean wasHead = queues.remove(request);
    decisions.decided(Decision.START, request, 1);
    slots.admitted(now - request.arrivalNanos());
    host.start(request, 1, now);
    running.add(request, queues.of(request) != queues.highest());
    queues.helpMayBeWanted();
    return wasHead;
  }

  /** The policy asked now. */
  public Policy policy() {
    return policy.policy();
  }

  /**
   * Asks {@code policy} every later question; returns the policy it replaces. Reads what the core
   * keeps of it (its name, whether it hears completions) from the policy's own code, so call it
   * without the host's exclusion: a decision under way may still ask the old policy.
   */
  public Policy setPolicy(Policy next) {
    return policy.swap(GuardedPolicy.current(next));
  }

  /**
   * Says that a running request may now want a helper (its degree rose, a unit appeared, a thread
   * left it). Needed only by a host that skips fruitless help scans.
   */
  public void helpMayBeWanted() {
    queues.helpMayBeWanted();
  }

  // ---- the elastic budget -------------------------------------------------------------------

  /**
   * Makes the budget elastic from {@code now}: at the end of every {@code periodNanos} the policy
   * resizes it, within [{@code minBudget}, {@code workers}]. The budget starts at {@code workers}.
   * Call before any request is queued.
   *
   * @throws IllegalArgumentException if {@code minBudget} is not in [1, workers] or the period is
   *     not positive
   */
  public void elasticBudget(BudgetPolicy policy, int minBudget, long periodNanos, long now) {
    slots.elastic(policy, minBudget, periodNanos, now);
  }

  /** Hears every change of the budget, with the new budget (null: nobody). */
  public void budgetListener(IntConsumer listener) {
    slots.listener(listener);
  }

  /** The threads search may use now: the pool size unless the budget is elastic. */
  public int budget() {
    return slots.budget();
  }

  /**
   * When the elastic budget is next resized, on the host's clock; {@link Long#MAX_VALUE} if the
   * budget is not elastic. May be read without the host's exclusion.
   */
  public long nextBudgetCheck() {
    return slots.nextCheck();
  }

  /**
   * Ends the budget's period if its time has come: asks the policy for the next budget (guarded: a
   * policy that fails keeps the budget), clamps it and applies it. A budget that grows leaves free
   * slots for the host to dispatch; one that shrinks makes helpers {@linkplain HelperRules#yields
   * yield}.
   *
   * @return whether the budget changed
   */
  public boolean checkBudget(long now) {
    return slots.checkDue(now) && slots.resize(now, queues.waitedNanos(now), queues.queued());
  }

  /** The time-weighted mean budget since the budget became elastic (the pool if it never did). */
  public double meanBudget(long now) {
    return slots.meanBudget(now);
  }

  /**
   * The budget integrated over time since it became elastic, in thread-nanoseconds, up to {@code
   * now}: the difference of two readings is the thread time the budget gave search between them.
   * Zero if the budget is not elastic.
   */
  public double budgetTimeNanos(long now) {
    return slots.budgetTimeNanos(now);
  }

  // ---- the policy's questions ---------------------------------------------------------------

  /**
   * Asks the policy for a running request's degree now: its answer, at least zero, or the request's
   * current degree if the policy failed. May be called without the host's exclusion.
   */
  public int askDegree(R request) {
    int d = policy.degree(request, view);
    if (d == GuardedPolicy.FAILED) {
      return request.degree();
    }
    if (decisions.heard() && d != request.degree()) {
      decisions.decided(Decision.DEGREE, request, d);
    }
    return d;
  }

  /**
   * The sequential time from which a request counts as long: the policy's own threshold ({@link
   * Policy#longThresholdNanos()}) if it states one, else {@code configured}. May be called without
   * the host's exclusion.
   */
  public long longThresholdNanos(long configured) {
    return policy.longThresholdNanos(configured);
  }
}
