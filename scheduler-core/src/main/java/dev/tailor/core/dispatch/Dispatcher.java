package dev.tailor.core.dispatch;

import dev.tailor.core.FailureLog;
import dev.tailor.core.Internal;
import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.core.budget.BudgetSample;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.policy.WorkerPreference;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * The dispatch core: who a free slot of the thread budget goes to. It holds the FIFO admission
 * queue, the running requests and the free slots, and makes every decision about them once, for the
 * runtime and for the simulator alike: admit the head (or delay it, or hold it until a request
 * exits), help the oldest running request that may take another thread, in the order the policy
 * prefers, and re-read a running request's degree. Every question to the {@link Policy} goes
 * through here and is guarded: a policy that throws or answers null is reported through the {@link
 * #failures() failure log} (logged once per kind of question, then counted) and a safe default is
 * used (start with one thread, help first, keep the degree). The guard holds whatever the policy
 * throws, from any of its methods, {@link Policy#spec()} included, and so does the one around a
 * {@link DecisionListener}: nothing a policy or a listener does can escape into the host's dispatch
 * and leave a request half admitted.
 *
 * <p>What a decision does to a request (start its body, send a helper to it) is the {@link Host}'s:
 * the runtime's host moves threads, the simulator's moves a virtual clock. So a policy decided in
 * the simulator is the policy that runs in production, decision for decision.
 *
 * <p>Not thread-safe: every method that changes state must be called under the host's mutual
 * exclusion (the runtime's dispatch lock; the simulator is single-threaded). The counts a policy
 * reads through {@link #view()}, the running requests and the head's delay are volatile, so the
 * runtime's lock-free paths (the tick, a unit fork) may read them without the lock.
 *
 * <p>Priority classes ({@link PriorityClass}): each class has its own FIFO admission queue. A free
 * slot goes to the highest class with work, a queued head the policy lets in or a running request
 * that wants a helper, asked afresh at every decision; within the class the policy decides as it
 * would without classes (help first or admit first, the head's degree, delays). A class whose head
 * the policy holds (delayed, or waiting for an exit) has no work to give a slot to, so the slot
 * goes on to the next class: the budget is not left idle. Promptness (Singer et al., "Prompt
 * I-Cilk", SPAA'23, Section 3): while a higher class has a queued head the policy would let in, or
 * a running request that wants a helper, a helper on a lower-class request {@linkplain #yields
 * yields} at its next unit boundary, and its slot then goes to the higher class. The floor: a lower
 * class that has work and holds fewer than its {@linkplain #Dispatcher(Policy, int, Object[], Host,
 * boolean, int[]) floor of threads} gets a free slot before any higher class, and promptness never
 * takes its threads below that floor, so it is never starved. With every request in one class,
 * every decision is the one made without classes.
 *
 * <p>The elastic budget ({@link #elasticBudget}): the slots are a budget of at most {@code
 * poolSize} threads that a {@link BudgetPolicy} resizes at the end of every period, from the
 * period's utilization and queueing delay (McClure et al., "Efficient Scheduling Policies for
 * Microsecond-Scale Tasks", NSDI'22, Section 4.1). A budget that grows frees slots at once; one
 * that shrinks below the busy threads takes no thread away mid-unit: no slot is handed out until
 * the busy threads are back within it, and helpers {@linkplain #yields yield} at their next
 * boundary meanwhile. A request's own thread always finishes its body, and the budget never falls
 * below one thread, so no request is stranded.
 *
 * @param <R> the host's request type
 */
@Internal
public final class Dispatcher<R extends RequestView> {

  private static final System.Logger LOG = System.getLogger(Dispatcher.class.getName());

  /** {@link #headDelayedUntil()} when the head is not delayed. */
  public static final long NOT_DELAYED = Long.MIN_VALUE;

  /** What the dispatch core asks of the system that drives it. */
  public interface Host<R> {

    /** The current time on the host's clock, in nanoseconds. */
    long nanoTime();

    /** Whether a free thread may join the running request now: it has work and room for one. */
    boolean wantsHelper(R request);

    /**
     * The request leaves the queue and starts on one thread with the given degree at {@code now}.
     */
    void start(R request, int degree, long now);

    /** A free thread joins the running request at {@code now}. */
    void addHelper(R request, long now);

    /**
     * Whether the request's body runs on a thread of its own (a caller's) rather than a pool
     * thread. A free slot without a pool thread can only admit such a request.
     */
    boolean runsOnCaller(R request);

    /** Threads busy on requests flagged long (TPC's LongT). */
    int busyThreadsOnLongRequests();

    /** The number of busy slots changed to {@code busy} at {@code now}. */
    void busyWorkersChanged(long now, int busy);
  }

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

  private final Policy policy;
  private final String policyName; // for failure reports: spec() read once, guarded
  private final Host<R> host;
  private final int poolSize;
  private final boolean skipFruitlessHelpScans;
  private final R[] none;
  private final SystemView view = new View();
  private final FailureLog failures = new FailureLog(LOG);
  private final ClassQueue<R>[] classQueues;
  private volatile R[] running;
  private volatile int freeSlots;
  private volatile int budget;
  private int minBudget;
  private BudgetPolicy budgetPolicy; // null: the budget is the pool, always
  private long budgetPeriodNanos;
  private volatile long nextBudgetCheck = Long.MAX_VALUE;
  private BudgetMeter meter; // null unless the budget is elastic
  private IntConsumer budgetListener;
  private volatile int queued;
  private volatile boolean lowerClassRuns; // some running request is below the highest class
  private DecisionListener decisions;

  /**
   * A dispatch core with {@code poolSize} free slots and nothing queued or running.
   *
   * @param noRequests an empty array of the host's request type, for the running requests
   * @param skipFruitlessHelpScans whether a help scan that found nobody may be skipped until the
   *     host calls {@link #helpMayBeWanted()}. Only a host that calls it on every change that can
   *     make a request want a helper may set it: the single-threaded simulator does; the runtime,
   *     whose units are forked without the lock, does not.
   */
  public Dispatcher(
      Policy policy, int poolSize, R[] noRequests, Host<R> host, boolean skipFruitlessHelpScans) {
    this(policy, poolSize, noRequests, host, skipFruitlessHelpScans, defaultFloors());
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
      int poolSize,
      R[] noRequests,
      Host<R> host,
      boolean skipFruitlessHelpScans,
      int[] floorThreads) {
    if (poolSize < 1) {
      throw new IllegalArgumentException("poolSize must be >= 1, got " + poolSize);
    }
    if (noRequests.length != 0) {
      throw new IllegalArgumentException("noRequests must be empty");
    }
    this.policy = Objects.requireNonNull(policy, "policy");
    this.policyName = nameOf(policy);
    this.host = Objects.requireNonNull(host, "host");
    this.poolSize = poolSize;
    this.skipFruitlessHelpScans = skipFruitlessHelpScans;
    this.none = noRequests;
    this.running = noRequests;
    this.freeSlots = poolSize;
    this.budget = poolSize;
    PriorityClass[] classes = PriorityClass.values();
    if (floorThreads.length != classes.length) {
      throw new IllegalArgumentException(
          "floorThreads needs one floor per priority class ("
              + classes.length
              + "), got "
              + floorThreads.length);
    }
    @SuppressWarnings("unchecked")
    ClassQueue<R>[] ls = new ClassQueue[classes.length];
    for (PriorityClass c : classes) {
      int floor = floorThreads[c.ordinal()];
      if (floor < 0 || floor > poolSize) {
        throw new IllegalArgumentException(
            "floor of class " + c.label() + " must be in [0, " + poolSize + "], got " + floor);
      }
      ls[c.ordinal()] = new ClassQueue<>(c, c.ordinal() == 0 ? 0 : floor);
    }
    this.classQueues = ls;
  }

  /** The default floors: one thread for every class below the highest. */
  public static int[] defaultFloors() {
    int[] floors = new int[PriorityClass.values().length];
    Arrays.fill(floors, 1);
    floors[0] = 0;
    return floors;
  }

  /**
   * The rule from a class's share of the budget to its floor of threads: {@code share * poolSize}
   * rounded down, but at least one thread if the share is above zero; zero for a share of zero
   * (strict priority: the class may starve while higher classes have work).
   *
   * @throws IllegalArgumentException if the share is not in [0, 1]
   */
  public static int floorThreads(double share, int poolSize) {
    if (!(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException("a class share must be in [0, 1], got " + share);
    }
    return share == 0 ? 0 : Math.max(1, (int) Math.floor(share * poolSize));
  }

  private static String nameOf(Policy policy) {
    try {
      return "policy " + policy.spec();
    } catch (Throwable e) {
      return "policy " + policy.getClass().getName() + " (whose spec() threw " + e + ")";
    }
  }

  /** Reports every later decision to {@code listener} (null: to nobody). */
  public void decisionListener(DecisionListener listener) {
    this.decisions = listener;
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
    ClassQueue<R> cq = classQueueOf(request);
    cq.queue.addLast(request);
    cq.queued = cq.queue.size();
    queued++;
  }

  private ClassQueue<R> classQueueOf(R request) {
    PriorityClass c = request.priorityClass();
    return classQueues[c == null ? 0 : c.ordinal()];
  }

  /** Requests waiting for admission. */
  public int queued() {
    return queued;
  }

  /**
   * Takes a request out of its class's queue (cancelled, or its caller interrupted). If it was the
   * head, the head's delay or wait is forgotten: the new head is asked afresh.
   *
   * @return whether it was the head
   */
  public boolean removeQueued(R request) {
    ClassQueue<R> cq = classQueueOf(request);
    boolean wasHead = cq.queue.peekFirst() == request;
    if (cq.queue.remove(request)) {
      queued--;
    }
    cq.queued = cq.queue.size();
    if (wasHead) {
      clearHead(cq);
    }
    return wasHead;
  }

  /**
   * Empties the queues, handing each request to {@code each}: class by class from the highest, in
   * arrival order within a class.
   */
  public void drainQueue(Consumer<? super R> each) {
    for (ClassQueue<R> cq : classQueues) {
      for (R r; (r = cq.queue.pollFirst()) != null; ) {
        each.accept(r);
      }
      cq.queued = 0;
      clearHead(cq);
    }
    queued = 0;
  }

  /**
   * The earliest time a delayed head may be asked again, over every class's head, or {@link
   * #NOT_DELAYED} if no head is delayed.
   */
  public long headDelayedUntil() {
    long best = NOT_DELAYED;
    for (ClassQueue<R> cq : classQueues) {
      long until = cq.headDelayedUntil;
      if (until != NOT_DELAYED && (best == NOT_DELAYED || until - best < 0)) {
        best = until;
      }
    }
    return best;
  }

  /** Whether some class's head is delayed and its time has come at {@code now}. */
  public boolean headDelayExpired(long now) {
    for (ClassQueue<R> cq : classQueues) {
      long until = cq.headDelayedUntil;
      if (until != NOT_DELAYED && now - until >= 0) {
        return true;
      }
    }
    return false;
  }

  private static void clearHead(ClassQueue<?> cq) {
    cq.headDelayedUntil = NOT_DELAYED;
    cq.headAwaitsExit = false;
  }

  // ---- slots ----------------------------------------------------------------------------------

  /** Slots of the budget not held by a running request's thread. */
  public int freeSlots() {
    return freeSlots;
  }

  /** The running requests, oldest admission first. The array must not be modified. */
  public R[] running() {
    return running;
  }

  /**
   * Takes one free slot for the next piece of work. It goes to the highest priority class with work
   * (after any lower class below its floor), and within the class in the order the policy prefers:
   * help the oldest running request of the class that wants a helper, or admit the head of the
   * class's queue. Returns what the slot went to, or null if there is no work for it.
   *
   * @param poolThread whether a pool thread is there to take the work; without one, only a request
   *     that {@linkplain Host#runsOnCaller runs on its caller} can be admitted, and none helped
   */
  public Assignment<R> takeWork(long now, boolean poolThread) {
    if (freeSlots <= 0) {
      return null;
    }
    // The policy's preference is asked once per decision, and only when there is a pool thread.
    int preference = poolThread ? 0 : -1; // 0: not asked yet; 1: help first; -1: admit first
    if (lowerClassRuns || queued > classQueues[0].queued) {
      for (int c = 1; c < classQueues.length; c++) {
        ClassQueue<R> cq = classQueues[c];
        if (cq.floor > 0 && threadsOf(cq.priority) < cq.floor) {
          if (preference == 0) {
            preference = preference() == WorkerPreference.HELP_FIRST ? 1 : -1;
          }
          Assignment<R> a = takeWorkIn(cq, now, poolThread, preference > 0);
          if (a != null) {
            return a;
          }
        }
      }
    }
    for (ClassQueue<R> cq : classQueues) {
      if (cq.queued == 0 && cq != classQueues[0] && !lowerClassRuns) {
        continue; // nothing of this class, queued or running
      }
      if (preference == 0) {
        preference = preference() == WorkerPreference.HELP_FIRST ? 1 : -1;
      }
      Assignment<R> a = takeWorkIn(cq, now, poolThread, preference > 0);
      if (a != null) {
        return a;
      }
    }
    return null;
  }

  private Assignment<R> takeWorkIn(
      ClassQueue<R> cq, long now, boolean poolThread, boolean helpFirst) {
    R r = helpFirst ? help(cq, now) : null;
    if (r != null) {
      return new Assignment<>(r, true);
    }
    r = admitHead(cq, now, poolThread);
    if (r != null) {
      return new Assignment<>(r, false);
    }
    if (helpFirst || !poolThread) {
      return null;
    }
    r = help(cq, now);
    return r != null ? new Assignment<>(r, true) : null;
  }

  /**
   * A free slot's work, as {@link #takeWork} decided it: a thread for {@code request}, which it
   * either starts (its body, on the caller or a pool thread) or, when {@code help}, joins as a
   * helper on its units.
   *
   * @param <R> the host's request type
   */
  public record Assignment<R>(R request, boolean help) {}

  /**
   * Whether a helper on {@code request} should leave at its boundary: the busy threads exceed a
   * budget that shrank, or, for promptness, a higher class has work (a queued head the policy would
   * be asked about now, or a running request that wants a helper) and the request's class holds
   * more threads than its floor (never for the highest class). Never asked for a request's own
   * thread (the caller asks only for helpers). May be called without the host's exclusion.
   */
  public boolean yields(R request) {
    if (freeSlots < 0) {
      return true; // the budget shrank below the busy threads
    }
    return promptnessYields(request);
  }

  private boolean promptnessYields(R request) {
    PriorityClass c = request.priorityClass();
    if (c == null || c.ordinal() == 0) {
      return false;
    }
    boolean higherWaits = false;
    if (queued > 0) {
      long now = host.nanoTime();
      for (int i = 0; i < c.ordinal() && !higherWaits; i++) {
        higherWaits = classQueues[i].headAdmissible(now);
      }
    }
    return (higherWaits || higherRunningWantsHelper(c))
        && threadsOf(c) > classQueues[c.ordinal()].floor;
  }

  /**
   * Whether a running request of a class above {@code c} wants a helper: higher-class work that
   * waits as much as a queued head does (Prompt I-Cilk's promptness covers every ready task of a
   * higher level, not only new requests). Read without the host's exclusion, so a hint: a helper
   * that leaves on a stale answer only hands its slot back to the dispatch.
   */
  private boolean higherRunningWantsHelper(PriorityClass c) {
    for (R r : running) {
      PriorityClass rc = r.priorityClass();
      if ((rc == null || rc.ordinal() < c.ordinal()) && host.wantsHelper(r)) {
        return true;
      }
    }
    return false;
  }

  /**
   * How many of {@code request}'s helpers leave now: as many as the busy threads exceed a budget
   * that shrank, and, if promptness has it {@linkplain #yields yield}, as many as it has down to
   * its class's floor. For a host whose helpers all reach their boundary at once (the simulator's
   * fluid work model, at a tick).
   */
  public int helpersToYield(R request) {
    int helpers = Math.max(0, request.threads() - 1);
    int overBudget = Math.min(helpers, Math.max(0, -freeSlots));
    if (overBudget == helpers || !promptnessYields(request)) {
      return overBudget;
    }
    int aboveFloor =
        threadsOf(request.priorityClass()) - classQueues[request.priorityClass().ordinal()].floor;
    return Math.max(overBudget, Math.min(helpers, aboveFloor));
  }

  /** Threads held by running requests of class {@code c}. */
  private int threadsOf(PriorityClass c) {
    int n = 0;
    for (R r : running) {
      if (r.priorityClass() == c) {
        n += r.threads();
      }
    }
    return n;
  }

  /** Gives back {@code n} slots whose threads left their requests at {@code now}. */
  public void releaseSlots(int n, long now) {
    if (n != 0) {
      freeSlots += n;
      busyChanged(now);
    }
  }

  /**
   * A running request has completed: it leaves the running set and a head waiting for it is freed.
   */
  public void exited(R request) {
    R[] rs = running;
    int i = 0;
    while (rs[i] != request) {
      i++;
    }
    if (meter != null) {
      meter.completed(host.nanoTime() - request.startNanos());
    }
    R[] out = Arrays.copyOf(none, rs.length - 1);
    System.arraycopy(rs, 0, out, 0, i);
    System.arraycopy(rs, i + 1, out, i, rs.length - i - 1);
    running = out;
    for (ClassQueue<R> cq : classQueues) {
      cq.headAwaitsExit = false;
    }
    lowerClassRuns = anyBelowHighest(out);
  }

  private static boolean anyBelowHighest(RequestView[] rs) {
    for (RequestView r : rs) {
      PriorityClass c = r.priorityClass();
      if (c != null && c.ordinal() > 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * Says that a running request may now want a helper (its degree rose, a unit appeared, a thread
   * left it). Needed only by a host that skips fruitless help scans.
   */
  public void helpMayBeWanted() {
    for (ClassQueue<R> cq : classQueues) {
      cq.mayHelp = true;
    }
  }

  private R help(ClassQueue<R> cq, long now) {
    if (skipFruitlessHelpScans && !cq.mayHelp) {
      return null;
    }
    boolean oneClass = !lowerClassRuns; // then every running request is of the highest class
    if (oneClass && cq != classQueues[0]) {
      return null;
    }
    for (R r : running) {
      if ((oneClass || classQueueOf(r) == cq) && host.wantsHelper(r)) {
        decided(Decision.HELP, r, r.threads());
        host.addHelper(r, now);
        takeSlot(now);
        return r;
      }
    }
    cq.mayHelp = false;
    return null;
  }

  private R admitHead(ClassQueue<R> cq, long now, boolean poolThread) {
    R head = cq.queue.peekFirst();
    if (head == null || cq.headAwaitsExit || (!poolThread && !host.runsOnCaller(head))) {
      return null;
    }
    long until = cq.headDelayedUntil;
    if (until != NOT_DELAYED && now - until < 0) {
      return null;
    }
    Admission a = admission(head);
    switch (a.kind()) {
      case DELAY -> {
        cq.headDelayedUntil = a.untilNanos();
        if (now - a.untilNanos() < 0) {
          decided(Decision.DELAY, head, a.untilNanos());
          return null;
        }
      }
      case AWAIT_EXIT -> {
        if (running.length > 0) {
          cq.headAwaitsExit = true;
          decided(Decision.AWAIT_EXIT, head, 0);
          return null;
        }
      }
      case START -> {}
    }
    int degree = a.kind() == Admission.Kind.START ? a.degree() : 1;
    decided(Decision.START, head, degree);
    if (meter != null) {
      meter.admitted(now - head.arrivalNanos());
    }
    cq.queue.pollFirst();
    cq.queued = cq.queue.size();
    queued--;
    cq.headDelayedUntil = NOT_DELAYED;
    host.start(head, degree, now);
    R[] rs = Arrays.copyOf(running, running.length + 1);
    rs[rs.length - 1] = head;
    if (cq != classQueues[0]) {
      lowerClassRuns = true;
    }
    running = rs;
    cq.mayHelp = true;
    takeSlot(now);
    return head;
  }

  /** Tells the decision listener, if any; what it throws is reported and goes no further. */
  private void decided(Decision decision, R request, long value) {
    DecisionListener l = decisions;
    if (l != null) {
      try {
        l.decided(decision, request.id(), value);
      } catch (Throwable e) {
        failures.report("decisionListener", "the decision stands", e);
      }
    }
  }

  private void takeSlot(long now) {
    freeSlots--;
    busyChanged(now);
  }

  private void busyChanged(long now) {
    int busy = budget - freeSlots;
    if (meter != null) {
      meter.changed(now, busy, budget);
    }
    host.busyWorkersChanged(now, busy);
  }

  // ---- the elastic budget -------------------------------------------------------------------

  /**
   * Makes the budget elastic from {@code now}: at the end of every {@code periodNanos} the policy
   * resizes it, within [{@code minBudget}, {@code poolSize}]. The budget starts at {@code
   * poolSize}. Call before any request is queued.
   *
   * @throws IllegalArgumentException if {@code minBudget} is not in [1, poolSize] or the period is
   *     not positive
   */
  public void elasticBudget(BudgetPolicy policy, int minBudget, long periodNanos, long now) {
    Objects.requireNonNull(policy, "policy");
    if (minBudget < 1 || minBudget > poolSize) {
      throw new IllegalArgumentException(
          "the least budget must be in [1, " + poolSize + "] threads, got " + minBudget);
    }
    if (periodNanos < 1) {
      throw new IllegalArgumentException(
          "the budget's period must be positive, got " + periodNanos + " ns");
    }
    this.budgetPolicy = policy;
    this.minBudget = minBudget;
    this.budgetPeriodNanos = periodNanos;
    this.meter = new BudgetMeter(now, budget);
    this.nextBudgetCheck = now + periodNanos;
  }

  /** Hears every change of the budget, with the new budget (null: nobody). */
  public void budgetListener(IntConsumer listener) {
    this.budgetListener = listener;
  }

  /** The threads search may use now: the pool size unless the budget is elastic. */
  public int budget() {
    return budget;
  }

  /**
   * When the elastic budget is next resized, on the host's clock; {@link Long#MAX_VALUE} if the
   * budget is not elastic. May be read without the host's exclusion.
   */
  public long nextBudgetCheck() {
    return nextBudgetCheck;
  }

  /**
   * Ends the budget's period if its time has come: asks the policy for the next budget (guarded: a
   * policy that fails keeps the budget), clamps it and applies it. A budget that grows leaves free
   * slots for the host to dispatch; one that shrinks makes helpers {@linkplain #yields yield}.
   *
   * @return whether the budget changed
   */
  public boolean checkBudget(long now) {
    if (budgetPolicy == null || now - nextBudgetCheck < 0) {
      return false;
    }
    double queuedWait = 0;
    for (ClassQueue<R> cq : classQueues) {
      for (R r : cq.queue) {
        queuedWait += Math.max(0, now - r.arrivalNanos());
      }
    }
    BudgetSample sample =
        new BudgetSample(
            Math.max(1, now - meter.periodStart()),
            budget,
            minBudget,
            poolSize,
            meter.utilization(now),
            meter.meanQueueingDelay(queuedWait, queued),
            meter.meanServiceNanos(),
            queued);
    meter.nextPeriod(now);
    nextBudgetCheck = now + budgetPeriodNanos;
    int next;
    try {
      next = budgetPolicy.resize(sample);
    } catch (Throwable e) {
      failures.report("budgetPolicy.resize", "the budget is kept", e);
      return false;
    }
    next = Math.max(minBudget, Math.min(poolSize, next));
    if (next == budget) {
      return false;
    }
    freeSlots += next - budget;
    budget = next;
    busyChanged(now);
    IntConsumer l = budgetListener;
    if (l != null) {
      try {
        l.accept(next);
      } catch (Throwable e) {
        failures.report("budgetListener", "the budget stands", e);
      }
    }
    return true;
  }

  /** The time-weighted mean budget since the budget became elastic (the pool if it never did). */
  public double meanBudget(long now) {
    return meter == null ? poolSize : meter.meanBudget(now);
  }

  /**
   * The budget integrated over time since it became elastic, in thread-nanoseconds, up to {@code
   * now}: the difference of two readings is the thread time the budget gave search between them.
   * Zero if the budget is not elastic.
   */
  public double budgetTimeNanos(long now) {
    return meter == null ? 0 : meter.budgetTimeNanos(now);
  }

  // ---- the policy's questions, guarded ----------------------------------------------------------

  /**
   * Asks the policy for a running request's degree now: its answer, at least zero, or the request's
   * current degree if the policy failed. May be called without the host's exclusion.
   */
  public int askDegree(R request) {
    int d;
    try {
      d = Math.max(0, policy.degree(request, view));
    } catch (Throwable e) {
      failures.report("policy.degree", policyName + ": the degree is kept", e);
      return request.degree();
    }
    if (decisions != null && d != request.degree()) {
      decided(Decision.DEGREE, request, d);
    }
    return d;
  }

  /**
   * The sequential time from which a request counts as long: the policy's own threshold ({@link
   * Policy#longThresholdNanos()}) if it states one, else {@code configured}. May be called without
   * the host's exclusion.
   */
  public long longThresholdNanos(long configured) {
    try {
      long t = policy.longThresholdNanos();
      return t > 0 ? t : configured;
    } catch (Throwable e) {
      failures.report(
          "policy.longThresholdNanos", policyName + ": the configured threshold is used", e);
      return configured;
    }
  }

  private Admission admission(R head) {
    try {
      Admission a = policy.admit(head, view);
      return a != null ? a : Admission.start(1);
    } catch (Throwable e) {
      failures.report("policy.admit", policyName + ": the request starts with one thread", e);
      return Admission.start(1);
    }
  }

  private WorkerPreference preference() {
    try {
      WorkerPreference p = policy.workerPreference(view);
      return p != null ? p : WorkerPreference.HELP_FIRST;
    } catch (Throwable e) {
      failures.report("policy.workerPreference", policyName + ": a free worker helps first", e);
      return WorkerPreference.HELP_FIRST;
    }
  }

  /** The load measures, read live. */
  private final class View implements SystemView {
    @Override
    public long nanoTime() {
      return host.nanoTime();
    }

    @Override
    public int poolSize() {
      return budget;
    }

    @Override
    public int activeRequests() {
      return running.length;
    }

    @Override
    public int queuedRequests() {
      return queued;
    }

    @Override
    public int busyWorkers() {
      return budget - freeSlots;
    }

    @Override
    public int busyThreadsOnLongRequests() {
      return host.busyThreadsOnLongRequests();
    }
  }
}
