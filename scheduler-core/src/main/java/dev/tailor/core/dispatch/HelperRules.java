package dev.tailor.core.dispatch;

import dev.tailor.core.Internal;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.RequestView;

/**
 * The dispatch core's decisions on a running request's helpers: whether one more thread may join
 * it, whether a helper leaves it at its boundary, and how many leave at once. A request may take a
 * thread while it holds fewer than its degree (at least one) and the busy threads are fewer than
 * the budget plus the slack; a helper leaves when the request holds more, when the busy threads
 * exceed the budget plus the slack (an arrival admitted on a core a helper held: the operating
 * system time-slices the two until the helper reaches its boundary), when a budget that shrank is
 * exceeded, or for promptness (Singer et al., "Prompt I-Cilk", SPAA'23, Section 3): when a request
 * of its own class waits for admission with no room for it (it waits for an own thread to finish:
 * the queue is growing, so fewer threads a request), or when a higher priority class waits and the
 * request's class holds more than its floor of threads. The host asks and moves threads
 * accordingly; it decides none of this itself. Every method may be called without the host's
 * exclusion: its answer is then a hint that the dispatch, under the exclusion, confirms or
 * corrects.
 *
 * @param <R> the host's request type
 */
@Internal
public final class HelperRules<R extends RequestView> {

  private final Dispatcher<R> core;

  HelperRules(Dispatcher<R> core) {
    this.core = core;
  }

  /**
   * Whether the request's degree leaves room for one more thread: it holds fewer threads than its
   * degree (at least one). May be called without the host's exclusion.
   */
  public static boolean roomFor(RequestView request) {
    return request.threads() < Math.max(1, request.degree());
  }

  /**
   * Whether a free thread should join the running request now: its degree has room and the host
   * says it has work for a helper. May be called without the host's exclusion, as a hint.
   */
  public boolean wants(R request) {
    return roomFor(request) && core.host.hasWorkForHelper(request);
  }

  /**
   * Whether a thread may be sent to the request now, read without the host's exclusion: a slot is
   * free and the degree has room. A host that sees a new unit or a higher degree asks this before
   * it takes its exclusion to dispatch.
   */
  public boolean mayJoin(R request) {
    return core.helperSlots() > 0 && roomFor(request);
  }

  /**
   * Whether a helper on {@code request} leaves at its boundary: the request holds more threads than
   * its degree (at least one) allows, or the helper {@linkplain #yields yields}. Never asked for a
   * request's own thread, which finishes its body whatever the degree. May be called without the
   * host's exclusion.
   */
  public boolean leaves(R request) {
    return request.threads() > Math.max(1, request.degree()) || yields(request);
  }

  /**
   * How many of {@code request}'s threads exceed its degree (at least one): for a host whose
   * helpers all reach their boundary at once (the simulator's fluid work model, at a tick), the
   * helpers that leave now.
   */
  public int overDegree(R request) {
    return Math.max(0, request.threads() - Math.max(1, request.degree()));
  }

  /**
   * Whether a helper on {@code request} should give its thread back at its boundary: the busy
   * threads exceed the budget plus the slack (an arrival took a core a helper held, or the budget
   * shrank), or, for promptness, a request of its class waits for admission with no room for it, or
   * a higher class has work (a queued head the policy would be asked about now, or a running
   * request that wants a helper) and the request's class holds more threads than its floor (never
   * for the highest class). May be called without the host's exclusion.
   */
  public boolean yields(R request) {
    return core.excessThreads() > 0 || promptnessYields(request);
  }

  /** Whether an arrival of {@code request}'s class waits with no room to be admitted. */
  private boolean arrivalWaitsForRoom(R request) {
    return core.promptAdmission() && core.admissionSlots() <= 0 && arrivalWaits(request);
  }

  private boolean promptnessYields(R request) {
    if (arrivalWaitsForRoom(request)) {
      return true;
    }
    PriorityClass c = request.priorityClass();
    if (c == null || c.ordinal() == 0) {
      return false;
    }
    boolean higherWaits =
        core.queues.queued() > 0 && core.queues.higherHeadAdmissible(c, core.host.nanoTime());
    return (higherWaits || higherRunningWantsHelper(c))
        && threadsOf(c) > core.queues.byClass[c.ordinal()].floor;
  }

  /**
   * Whether a request of {@code request}'s own class waits for admission that the policy would be
   * asked about now (with no room for it, which the caller checked). Nothing queued, nothing waits,
   * and the clock is not read.
   */
  private boolean arrivalWaits(R request) {
    return core.queues.queued() > 0 && core.queues.of(request).headAdmissible(core.host.nanoTime());
  }

  /**
   * Whether a running request of a class above {@code c} wants a helper: higher-class work that
   * waits as much as a queued head does (Prompt I-Cilk's promptness covers every ready task of a
   * higher level, not only new requests). Read without the host's exclusion, so a hint: a helper
   * that leaves on a stale answer only hands its slot back to the dispatch.
   */
  private boolean higherRunningWantsHelper(PriorityClass c) {
    for (R r : core.running()) {
      PriorityClass rc = r.priorityClass();
      if ((rc == null || rc.ordinal() < c.ordinal()) && wants(r)) {
        return true;
      }
    }
    return false;
  }

  /**
   * How many of {@code request}'s helpers leave now: as many as the busy threads exceed the budget
   * plus the slack, and, if promptness has it {@linkplain #yields yield}, as many as it has down to
   * its class's floor. For a host whose helpers all reach their boundary at once (the simulator's
   * fluid work model, at a tick).
   */
  public int toYield(R request) {
    int helpers = Math.max(0, request.threads() - 1);
    int overBudget = Math.min(helpers, core.excessThreads());
    if (overBudget == helpers || !promptnessYields(request)) {
      return overBudget;
    }
    if (arrivalWaitsForRoom(request)) {
      // A slot for each waiting head of its class, as far as its helpers go.
      return Math.max(overBudget, Math.min(helpers, core.queues.of(request).queued));
    }
    int aboveFloor =
        threadsOf(request.priorityClass())
            - core.queues.byClass[request.priorityClass().ordinal()].floor;
    return Math.max(overBudget, Math.min(helpers, aboveFloor));
  }

  /** Threads held by running requests of class {@code c}. */
  int threadsOf(PriorityClass c) {
    int n = 0;
    for (R r : core.running()) {
      if (r.priorityClass() == c) {
        n += r.threads();
      }
    }
    return n;
  }
}
