package dev.tailor.core.dispatch;

import dev.tailor.core.dispatch.Dispatcher.Assignment;
import dev.tailor.core.dispatch.Dispatcher.Decision;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;

/**
 * Who one free slot of the budget goes to: the decision behind {@link Dispatcher#takeWork}, and the
 * two things it may do with the slot, admit a class's head (asking {@link
 * dev.tailor.core.policy.Policy#admit}: start it, delay it, or hold it until a request exits) or
 * send a helper to the oldest running request of a class that wants one.
 *
 * <p>Priority classes ({@link PriorityClass}): each class has its own FIFO admission queue ({@link
 * AdmissionQueues}). A free slot goes to the highest class with work, a queued head the policy lets
 * in or a running request that wants a helper; within the class the policy decides as it would
 * without classes. A class whose head the policy holds has no work, so the slot goes on to the next
 * class. A lower class below its floor of threads gets a free slot before any higher class. With
 * every request in one class, every decision is the one made without classes.
 *
 * <p>It stands apart from {@link Dispatcher} because it is the one place where the order of the
 * decisions lives (floors first, then classes from the highest; within a class help or admit first
 * as the policy prefers, promptness before both), which {@code SameDecisionsTest} holds the runtime
 * and the simulator to; the core around it keeps the state and answers the hosts. It holds no state
 * of its own but the core's parts it was given, and like the core it must be called under the
 * host's exclusion.
 *
 * @param <R> the host's request type
 */
final class Assigner<R extends RequestView> {

  private final Dispatcher<R> core; // for its host
  private final GuardedPolicy policy;
  private final SystemView view;
  private final AdmissionQueues<R> queues;
  private final RunningRequests<R> running;
  private final Slots slots;
  private final HelperRules<R> helpers;
  private final DecisionReports decisions;
  private final boolean skipFruitlessHelpScans;

  Assigner(
      Dispatcher<R> core,
      GuardedPolicy policy,
      SystemView view,
      RunningRequests<R> running,
      Slots slots,
      DecisionReports decisions,
      boolean skipFruitlessHelpScans) {
    this.core = core;
    this.policy = policy;
    this.view = view;
    this.queues = core.queues;
    this.running = running;
    this.slots = slots;
    this.helpers = core.helpers();
    this.decisions = decisions;
    this.skipFruitlessHelpScans = skipFruitlessHelpScans;
  }

  /** {@link Dispatcher#takeWork}: the decision itself, made under the host's exclusion. */
  Assignment<R> takeWork(long now, boolean poolThread) {
    boolean mayAdmit = slots.forAdmission() > 0;
    boolean mayHelp = poolThread && slots.forHelpers() > 0;
    if (!mayAdmit && !mayHelp) {
      return null;
    }
    if (queues.queued() == 0) {
      // Nothing to admit: a slot can only help, whatever the policy prefers, so it is not asked.
      return mayHelp ? helpWithNothingQueued(now) : null;
    }
    // The policy's preference is asked once per decision, and only when there is a pool thread.
    int preference = poolThread ? 0 : -1; // 0: not asked yet; 1: help first; -1: admit first
    ClassQueue<R>[] classes = queues.byClass;
    if (running.lowerClassRuns() || queues.queued() > classes[0].queued) {
      for (int c = 1; c < classes.length; c++) {
        ClassQueue<R> cq = classes[c];
        if (cq.floor > 0 && helpers.threadsOf(cq.priority) < cq.floor) {
          if (preference == 0) {
            preference = policy.helpFirst(view) ? 1 : -1;
          }
          Assignment<R> a = takeWorkIn(cq, now, poolThread, preference > 0, mayAdmit, mayHelp);
          if (a != null) {
            return a;
          }
        }
      }
    }
    for (ClassQueue<R> cq : classes) {
      if (cq.queued == 0 && cq != classes[0] && !running.lowerClassRuns()) {
        continue; // nothing of this class, queued or running
      }
      if (preference == 0) {
        preference = policy.helpFirst(view) ? 1 : -1;
      }
      Assignment<R> a = takeWorkIn(cq, now, poolThread, preference > 0, mayAdmit, mayHelp);
      if (a != null) {
        return a;
      }
    }
    return null;
  }

  /** {@link #takeWork}'s decision when no class has a request queued: the same order of help. */
  private Assignment<R> helpWithNothingQueued(long now) {
    ClassQueue<R>[] classes = queues.byClass;
    boolean lowerRuns = running.lowerClassRuns();
    for (int c = 1; lowerRuns && c < classes.length; c++) {
      ClassQueue<R> cq = classes[c];
      if (cq.floor > 0 && helpers.threadsOf(cq.priority) < cq.floor) {
        R r = help(cq, now);
        if (r != null) {
          return new Assignment<>(r, true);
        }
      }
    }
    for (ClassQueue<R> cq : classes) {
      if (cq == classes[0] || lowerRuns) {
        R r = help(cq, now);
        if (r != null) {
          return new Assignment<>(r, true);
        }
      }
    }
    return null;
  }

  private Assignment<R> takeWorkIn(
      ClassQueue<R> cq,
      long now,
      boolean poolThread,
      boolean helpFirst,
      boolean mayAdmit,
      boolean mayHelp) {
    // Promptness: a head the policy would be asked about now is admitted before any helping, even
    // under a policy that helps first.
    boolean prompt = slots.prompt();
    boolean headWaits = prompt && cq.headAdmissible(now);
    boolean help = helpFirst && !headWaits;
    R r = help && mayHelp ? help(cq, now) : null;
    if (r != null) {
      return new Assignment<>(r, true);
    }
    r = mayAdmit ? admitHead(cq, now, poolThread) : null;
    if (r != null) {
      return new Assignment<>(r, false);
    }
    // A head that waits for an own thread to finish gets no helpers beside it: fewer threads as
    // the queue grows, as a caller-runs executor gives by itself.
    if (help || !mayHelp || (headWaits && !mayAdmit)) {
      return null;
    }
    r = help(cq, now);
    return r != null ? new Assignment<>(r, true) : null;
  }

  /**
   * Sends the free slot's thread to the oldest running request of {@code cq} (of any class, when
   * every running request is of the highest) that wants a helper. A scan that finds nobody is
   * remembered in the class's {@code mayHelp}, for a host that skips fruitless scans.
   */
  private R help(ClassQueue<R> cq, long now) {
    if (skipFruitlessHelpScans && !cq.mayHelp) {
      return null;
    }
    boolean oneClass =
        !running.lowerClassRuns(); // then every running request is of the highest class
    if (oneClass && cq != queues.highest()) {
      return null;
    }
    for (R r : running.all()) {
      if ((oneClass || queues.of(r) == cq) && helpers.wants(r)) {
        decisions.decided(Decision.HELP, r, r.threads());
        core.host.addHelper(r, now);
        slots.take(false, now);
        return r;
      }
    }
    cq.mayHelp = false;
    return null;
  }

  /**
   * Asks the policy about {@code cq}'s head, unless it is held or delayed, and carries out the
   * answer: start it at a degree, delay it until a time, or hold it until a running request exits
   * (with nothing running, start it at degree 1).
   */
  private R admitHead(ClassQueue<R> cq, long now, boolean poolThread) {
    R head = cq.queue.peekFirst();
    if (head == null || cq.headAwaitsExit || (!poolThread && !core.host.runsOnCaller(head))) {
      return null;
    }
    long until = cq.headDelayedUntil;
    if (until != Dispatcher.NOT_DELAYED && now - until < 0) {
      return null;
    }
    Admission a = policy.admit(head, view);
    switch (a.kind()) {
      case DELAY -> {
        cq.headDelayedUntil = a.untilNanos();
        if (now - a.untilNanos() < 0) {
          decisions.decided(Decision.DELAY, head, a.untilNanos());
          return null;
        }
      }
      case AWAIT_EXIT -> {
        if (running.all().length > 0) {
          cq.headAwaitsExit = true;
          decisions.decided(Decision.AWAIT_EXIT, head, 0);
          return null;
        }
      }
      case START -> {}
    }
    int degree = a.kind() == Admission.Kind.START ? a.degree() : 1;
    decisions.decided(Decision.START, head, degree);
    slots.admitted(now - head.arrivalNanos());
    queues.headAdmitted(cq);
    core.host.start(head, degree, now);
    running.add(head, cq != queues.highest());
    cq.mayHelp = true;
    slots.take(true, now);
    return head;
  }
}
