package dev.tailor.core.dispatch;

import dev.tailor.core.FailureLog;
import dev.tailor.core.Internal;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.policy.WorkerPreference;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;

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
  private final ArrayDeque<R> queue = new ArrayDeque<>();
  private volatile R[] running;
  private volatile int freeSlots;
  private volatile int queued;
  private volatile long headDelayedUntil = NOT_DELAYED;
  private boolean headAwaitsExit;
  private boolean tookHelp;
  private boolean mayHelp = true;
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

  /** Appends an arrival to the admission queue; the caller checks the queue's capacity. */
  public void enqueue(R request) {
    queue.addLast(request);
    queued = queue.size();
  }

  /** Requests waiting for admission. */
  public int queued() {
    return queued;
  }

  /**
   * Takes a request out of the queue (cancelled, or its caller interrupted). If it was the head,
   * the head's delay or wait is forgotten: the new head is asked afresh.
   *
   * @return whether it was the head
   */
  public boolean removeQueued(R request) {
    boolean wasHead = queue.peekFirst() == request;
    queue.remove(request);
    queued = queue.size();
    if (wasHead) {
      clearHead();
    }
    return wasHead;
  }

  /** Empties the queue, handing each request to {@code each} in arrival order. */
  public void drainQueue(Consumer<? super R> each) {
    for (R r; (r = queue.pollFirst()) != null; ) {
      each.accept(r);
    }
    queued = 0;
    clearHead();
  }

  /** When the head may be asked again, or {@link #NOT_DELAYED}. */
  public long headDelayedUntil() {
    return headDelayedUntil;
  }

  /** Whether the head is delayed and its time has come at {@code now}. */
  public boolean headDelayExpired(long now) {
    long until = headDelayedUntil;
    return until != NOT_DELAYED && now - until >= 0;
  }

  private void clearHead() {
    headDelayedUntil = NOT_DELAYED;
    headAwaitsExit = false;
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
   * Takes one free slot for the next piece of work, in the order the policy prefers: help the
   * oldest running request that wants a helper, or admit the head of the queue. Returns the request
   * the slot went to ({@link #tookHelp()} says which), or null if there is no work for it.
   *
   * @param poolThread whether a pool thread is there to take the work; without one, only a request
   *     that {@linkplain Host#runsOnCaller runs on its caller} can be admitted, and none helped
   */
  public R takeWork(long now, boolean poolThread) {
    if (freeSlots <= 0) {
      return null;
    }
    boolean helpFirst = poolThread && preference() == WorkerPreference.HELP_FIRST;
    R r = helpFirst ? help(now) : null;
    if (r != null) {
      return r;
    }
    r = admitHead(now, poolThread);
    if (r != null || helpFirst || !poolThread) {
      return r;
    }
    return help(now);
  }

  /** Whether the last request {@link #takeWork} returned is to be helped, not started. */
  public boolean tookHelp() {
    return tookHelp;
  }

  /** Gives back {@code n} slots whose threads left their requests at {@code now}. */
  public void releaseSlots(int n, long now) {
    if (n != 0) {
      freeSlots += n;
      host.busyWorkersChanged(now, poolSize - freeSlots);
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
    R[] out = Arrays.copyOf(none, rs.length - 1);
    System.arraycopy(rs, 0, out, 0, i);
    System.arraycopy(rs, i + 1, out, i, rs.length - i - 1);
    running = out;
    headAwaitsExit = false;
  }

  /**
   * Says that a running request may now want a helper (its degree rose, a unit appeared, a thread
   * left it). Needed only by a host that skips fruitless help scans.
   */
  public void helpMayBeWanted() {
    mayHelp = true;
  }

  private R help(long now) {
    if (skipFruitlessHelpScans && !mayHelp) {
      return null;
    }
    for (R r : running) {
      if (host.wantsHelper(r)) {
        decided(Decision.HELP, r, r.threads());
        host.addHelper(r, now);
        takeSlot(now);
        tookHelp = true;
        return r;
      }
    }
    mayHelp = false;
    return null;
  }

  private R admitHead(long now, boolean poolThread) {
    R head = queue.peekFirst();
    if (head == null || headAwaitsExit || (!poolThread && !host.runsOnCaller(head))) {
      return null;
    }
    long until = headDelayedUntil;
    if (until != NOT_DELAYED && now - until < 0) {
      return null;
    }
    Admission a = admission(head);
    switch (a.kind()) {
      case DELAY -> {
        headDelayedUntil = a.untilNanos();
        if (now - a.untilNanos() < 0) {
          decided(Decision.DELAY, head, a.untilNanos());
          return null;
        }
      }
      case AWAIT_EXIT -> {
        if (running.length > 0) {
          headAwaitsExit = true;
          decided(Decision.AWAIT_EXIT, head, 0);
          return null;
        }
      }
      case START -> {}
    }
    int degree = a.kind() == Admission.Kind.START ? a.degree() : 1;
    decided(Decision.START, head, degree);
    queue.pollFirst();
    queued = queue.size();
    headDelayedUntil = NOT_DELAYED;
    host.start(head, degree, now);
    R[] rs = Arrays.copyOf(running, running.length + 1);
    rs[rs.length - 1] = head;
    running = rs;
    mayHelp = true;
    takeSlot(now);
    tookHelp = false;
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
    host.busyWorkersChanged(now, poolSize - freeSlots);
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
      return poolSize;
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
      return poolSize - freeSlots;
    }

    @Override
    public int busyThreadsOnLongRequests() {
      return host.busyThreadsOnLongRequests();
    }
  }
}
