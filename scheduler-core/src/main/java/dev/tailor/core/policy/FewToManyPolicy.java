package dev.tailor.core.policy;

import dev.tailor.core.Internal;
import dev.tailor.core.model.Schedule;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TableSource;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Few-to-Many (Haque et al., ASPLOS'15, §4.2), online: every decision reads the row of the {@link
 * IntervalTable} for the current load, the number of requests in the system ({@link
 * SystemView#requestsInSystem()}, the one arriving or asking included).
 *
 * <ul>
 *   <li>Admission: with the row's schedule {@code S = (v0, v1, ...)}, start at the degree {@code S}
 *       gives at run time 0 (1, or the first degree with a nonzero interval); or, if {@code v0 >
 *       0}, delay until {@code arrival + v0}; or, if the row waits for an exit (the paper's {@code
 *       e1}), hold the request until a running request exits and then start it. Each ask reads the
 *       row afresh, so a delay set at one load is measured against the row of the load at expiry.
 *   <li>Every quantum and at every unit boundary: re-read the row for the current load and return
 *       the degree whose cumulative interval the request's run time has passed, never lower than
 *       the degree it has: few-to-many (Theorem 1), even when a higher load's row says "later".
 * </ul>
 *
 * <p><b>The paper's priority boost.</b> With the hardware oversubscribed, the paper raises the OS
 * priority of the threads of the oldest long request at its maximum degree, never more boosted
 * threads than cores. Here the policy answers {@link WorkerPreference#HELP_FIRST}: a free worker
 * helps the oldest running request that may take another thread before it admits a new one, so a
 * granted degree is a received degree and the oldest request, which under FM is the one that has
 * ramped furthest, is served first. That is equivalent in whom it favours (the oldest request) and
 * in that it never preempts; it is not equivalent in mechanism: a boost reorders threads that
 * already run on an oversubscribed CPU, while helping-first only orders who gets the next free
 * slot. The runtime never runs more request threads than its budget, so there is no
 * oversubscription to arbitrate and no cap on boosted threads to keep; with a budget above the
 * cores, the OS schedules the extra threads round-robin, as the paper's unboosted case does.
 *
 * <p><b>Two admissions.</b> {@code fm:TABLE.json} is the paper's: a row's wait and exit wait are
 * honoured as written. {@code fm-wc:TABLE.json} is work-conserving: it reads the same rows for the
 * degrees but starts the head whenever a thread is free for it (after the running requests have had
 * the threads their degrees allow), leaving the waits to the queue. Why both: the model counts a
 * waiting request as using no thread, so at loads above the target parallelism every row must wait,
 * and below it a row may wait to buy an earlier ramp-up; the model stands for a fixed number of
 * requests in the system, so it does not see that a wait keeps requests in the system longer,
 * raises the load the next decision reads, and leaves threads idle that nothing else may take. In a
 * fixed pool that does not preempt, the queue already makes requests wait exactly while every
 * thread is busy, which is the wait the model needs at high load; what the work-conserving
 * admission gives up is the deliberate hold-back of a new request while a thread is free, i.e. a
 * reservation for a ramp-up that is due soon.
 *
 * <p>The only state is the head waiting for an exit (admission is FIFO, so there is at most one):
 * its id and the number of running requests when it began to wait, so that the ask after an exit
 * starts it as the paper says, instead of waiting again while the row still says {@code e1}.
 */
@Internal
public final class FewToManyPolicy extends TablePolicy<IntervalTable> {

  private final boolean workConserving;
  private final AtomicReference<Waiting> waiting = new AtomicReference<>();

  private FewToManyPolicy(PolicyTable<IntervalTable> table, boolean workConserving) {
    super(table, name(workConserving));
    this.workConserving = workConserving;
  }

  /**
   * The paper's policy, reading its rows from {@code table}, fixed or watched. The caller keeps
   * ownership of the source: closing the policy does not close it.
   */
  public static FewToManyPolicy of(TableSource<IntervalTable> table) {
    return new FewToManyPolicy(PolicyTable.of(table), false);
  }

  /**
   * The work-conserving policy, reading its rows from {@code table}, fixed or watched. The caller
   * keeps ownership of the source: closing the policy does not close it.
   */
  public static FewToManyPolicy workConserving(TableSource<IntervalTable> table) {
    return new FewToManyPolicy(PolicyTable.of(table), true);
  }

  /**
   * The paper's policy, reading a table file and watching it for a new table until the policy is
   * {@linkplain #close() closed}.
   *
   * @throws IllegalArgumentException if the file is missing or invalid, naming file, field and
   *     problem
   */
  public static FewToManyPolicy watching(Path file) {
    return watching(file, false);
  }

  static FewToManyPolicy watching(Path file, boolean workConserving) {
    return new FewToManyPolicy(PolicyTable.watching(file, IntervalTable::read), workConserving);
  }

  private static String name(boolean workConserving) {
    return workConserving ? "fm-wc" : "fm";
  }

  /** The factories for {@code fm:TABLE.json} and {@code fm-wc:TABLE.json}. */
  static List<PolicyFactory> factories() {
    return List.of(factory(false), factory(true));
  }

  private static PolicyFactory factory(boolean workConserving) {
    String description =
        workConserving
            ? "Few-to-Many with work-conserving admission: the table's degrees, but a request"
                + " starts whenever a thread is free for it (the table's waits are left to the"
                + " queue)"
            : "Few-to-Many: start with few threads and add more as a request runs, per an"
                + " interval table indexed by load (watched and swapped when rebuilt)";
    return PolicyTable.factory(
        name(workConserving), "interval", description, file -> watching(file, workConserving));
  }

  @Override
  public Admission admit(RequestView request, SystemView system) {
    Schedule s = table.current().schedule(system.requestsInSystem());
    if (workConserving) {
      return Admission.start(s.startDegree()); // asked only when a thread is free for the head
    }
    if (s.awaitsExit()) {
      Waiting w = waiting.get();
      int active = system.activeRequests();
      if (w == null || w.id != request.id() || active >= w.active) {
        waiting.set(new Waiting(request.id(), active));
        return Admission.awaitExit();
      }
      waiting.compareAndSet(w, null); // a request has exited since it began to wait
      return Admission.start(s.startDegree());
    }
    long until = request.arrivalNanos() + s.waitNanos();
    if (s.waitNanos() > 0 && system.nanoTime() - until < 0) {
      return Admission.delayUntil(until);
    }
    return Admission.start(s.startDegree());
  }

  @Override
  public int degree(RequestView request, SystemView system) {
    Schedule s = table.current().schedule(system.requestsInSystem());
    return Math.max(request.degree(), s.degreeAt(request.elapsedNanos()));
  }

  /** Help the oldest running request first: this runtime's stand-in for the priority boost. */
  @Override
  public WorkerPreference workerPreference(SystemView system) {
    return WorkerPreference.HELP_FIRST;
  }

  /** The head waiting for an exit, and how many requests were running when it began to wait. */
  private record Waiting(long id, int active) {}
}
