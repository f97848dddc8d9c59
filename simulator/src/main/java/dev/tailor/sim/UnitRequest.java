package dev.tailor.sim;

import dev.tailor.core.model.GuidedClaims;
import dev.tailor.core.model.WindowProgress;
import dev.tailor.core.policy.SystemView;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.UnitWork;
import java.util.Arrays;

/**
 * The runtime's work model ({@link UnitWork}): the request's own thread runs the serial part, then
 * its units are up for taking; each thread on the request claims the next units when it is free, as
 * many as the drop-in's searches claim ({@link GuidedClaims}: half of the thread's share of what is
 * left), and a unit run while the request has company costs the hand-off overhead too. A helper
 * leaves at the end of its claim when no unit is left or the degree no longer allows it, as the
 * runtime's helpers do, so its slot is free before the request ends; the own thread waits for the
 * helpers' last units, holding its slot, and the request completes when the last unit does. The
 * runtime also runs a claim on to the end of the index segment it ends in; the profile does not
 * record segments, so the model's claims stop where the rule says.
 *
 * <p>The serial part runs first in one piece: the profile does not say how much of it comes after
 * the units (merging the slices' results), and helpers cannot start before the units exist.
 *
 * <p>A unit is one of the runtime's windows, so the request projects its time as the runtime's does
 * ({@link #projectedSequentialNanos()}, by a {@link WindowProgress}): a claim's units count as
 * finished, with the time the claim took, when the claim ends.
 */
final class UnitRequest extends SimRequest {

  private static final long WAITING = Long.MAX_VALUE;

  private final UnitWork units;
  private int nextUnit; // the first unit no thread has taken
  private boolean released; // the serial part is done: the units are up for taking
  private long releasedAt; // when the serial part ended
  private int ownClaimed; // units the own thread has claimed
  private long ownUntil = WAITING; // the own thread's next boundary, or WAITING for the helpers
  private int ownRun; // the units of the own thread's current claim
  private long ownRunNanos; // the time they take
  private long[] helperUntil = new long[1];
  private int[] helperRun = new int[1];
  private long[] helperRunNanos = new long[1];
  private int helpers;
  private boolean done;
  private final WindowProgress progress = new WindowProgress();
  private final boolean probing; // the own thread's claims start at one unit
  private final long promptBoundNanos; // helpers claim by time (GuidedClaims.helperSize); 0: off

  UnitRequest(
      long id,
      long arrival,
      DemandProfile.Request demand,
      UnitWork units,
      SystemView clock,
      SimRequest.Told told,
      boolean probing,
      long promptBoundNanos) {
    super(id, arrival, demand, clock, told);
    this.units = units;
    this.probing = probing;
    this.promptBoundNanos = promptBoundNanos;
    progress.planned(units.units());
  }

  @Override
  void begin(long at) {
    ownUntil = at + wakeNanos + stretched(kind.scaled(units.serialNanos()));
    setBusy(1, at);
  }

  @Override
  boolean hasWorkForHelper() {
    return released && nextUnit < units.units();
  }

  @Override
  void addHelper(long at) {
    setThreads(threads + 1);
    if (helpers == helperUntil.length) {
      helperUntil = Arrays.copyOf(helperUntil, 2 * helpers);
      helperRun = Arrays.copyOf(helperRun, 2 * helpers);
      helperRunNanos = Arrays.copyOf(helperRunNanos, 2 * helpers);
    }
    helperClaims(helpers++, at);
    setBusy(busyThreads(), at);
  }

  @Override
  int shed(int n, long at) {
    return 0; // helpers leave at the end of their claim
  }

  @Override
  int yieldHelpers(int n, long at) {
    return 0; // helpers ask at the end of their claim
  }

  @Override
  long nextEventAt() {
    long next = ownUntil;
    for (int i = 0; i < helpers; i++) {
      next = Math.min(next, helperUntil[i]);
    }
    return next;
  }

  @Override
  int advance(long at) {
    int leaving = 0;
    if (ownUntil <= at) {
      if (!released) {
        released = true;
        releasedAt = at;
      }
      progress.finished(ownRun, ownRunNanos);
      ownRun = nextUnit < units.units() ? claimSize(false, at) : 0;
      ownRunNanos = claimNanos(ownRun);
      ownUntil = ownRun > 0 ? at + stretched(ownRunNanos) : WAITING;
    }
    for (int i = 0; i < helpers; i++) {
      if (helperUntil[i] > at) {
        continue;
      }
      progress.finished(helperRun[i], helperRunNanos[i]);
      if (nextUnit < units.units() && !helperLeaves.test(this)) {
        helperClaims(i, at);
      } else {
        helpers--;
        helperUntil[i] = helperUntil[helpers];
        helperRun[i] = helperRun[helpers];
        helperRunNanos[i--] = helperRunNanos[helpers];
        setThreads(threads - 1);
        leaving++;
      }
    }
    if (released && ownUntil == WAITING && helpers == 0) {
      done = true;
      setThreads(0);
      leaving++;
    }
    setBusy(busyThreads(), at);
    return leaving;
  }

  @Override
  boolean done() {
    return done;
  }

  /** The projection from the units finished, as the runtime's request makes it from its windows. */
  @Override
  public long projectedSequentialNanos() {
    return progress.projectedNanos(predictedSequentialNanos(), workNanos());
  }

  /** Helper {@code i} claims the next units at {@code at}. */
  private void helperClaims(int i, long at) {
    helperRun[i] = claimSize(true, at);
    helperRunNanos[i] = claimNanos(helperRun[i]);
    helperUntil[i] = at + stretched(helperRunNanos[i]);
  }

  /**
   * How many units a thread claims at {@code at}: as many as {@link GuidedClaims} says (for the own
   * thread of a request whose progress is watched, {@link GuidedClaims#probingSize}; for a helper
   * under prompt admission, no more than {@link GuidedClaims#helperSize} allows at the units' pace
   * so far), or all that is left when the own thread is alone and its pace says they take less than
   * a hand-off, as the runtime's searches claim.
   */
  private int claimSize(boolean helper, long at) {
    int left = units.units() - nextUnit;
    int sharers = Math.max(threads, Math.max(1, degree));
    int n;
    if (!helper && sharers == 1 && GuidedClaims.takesTheRest(at - releasedAt, ownClaimed, left)) {
      n = left;
    } else if (!helper && probing) {
      n = GuidedClaims.probingSize(left, sharers, false, priorityClass(), ownClaimed);
    } else {
      n = GuidedClaims.size(left, sharers, helper, priorityClass());
      if (helper && promptBoundNanos > 0) {
        n =
            GuidedClaims.helperSize(
                n, progress.finishedNanos(), progress.finished(), promptBoundNanos);
      }
    }
    if (!helper) {
      ownClaimed += n;
    }
    return n;
  }

  /**
   * Takes the next {@code n} units: their time, with the overhead of each if the request has
   * company.
   */
  private long claimNanos(int n) {
    long t = 0;
    for (int i = 0; i < n; i++) {
      t += kind.scaled(units.unitNanos(nextUnit++));
    }
    return threads > 1 ? t + Math.round(n * units.overheadPerUnitNanos()) : t;
  }

  private int busyThreads() {
    return (ownUntil != WAITING ? 1 : 0) + helpers;
  }

  /** A claim's time alone as it runs at the current pace. */
  private long stretched(long nanos) {
    return slowdown == 1 ? nanos : Math.round(nanos * slowdown);
  }

  @Override
  int working() {
    return busyThreads();
  }

  @Override
  void pause(long at, long nanos) {
    if (ownUntil != WAITING) {
      ownUntil += nanos;
    }
    for (int i = 0; i < helpers; i++) {
      helperUntil[i] += nanos;
    }
  }

  @Override
  void repace(long at, double newSlowdown) {
    double ratio = newSlowdown / slowdown;
    slowdown = newSlowdown;
    if (ownUntil != WAITING && ownUntil > at) {
      ownUntil = at + Math.round((ownUntil - at) * ratio);
    }
    for (int i = 0; i < helpers; i++) {
      if (helperUntil[i] > at) {
        helperUntil[i] = at + Math.round((helperUntil[i] - at) * ratio);
      }
    }
  }
}
