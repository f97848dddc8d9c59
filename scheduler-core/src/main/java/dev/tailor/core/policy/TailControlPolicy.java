package dev.tailor.core.policy;

import dev.tailor.core.Internal;
import dev.tailor.core.table.TableSource;
import dev.tailor.core.table.ThresholdTable;
import java.nio.file.Path;
import java.util.List;

/**
 * Tail-control (Li et al., "Work stealing for interactive services to meet target latency",
 * PPoPP'16, §3-4): steal-first, plus serialization of the requests whose work passes a
 * load-dependent threshold, so that under a momentary pileup the many small requests meet the
 * target and only the few large ones miss it.
 *
 * <ul>
 *   <li>Every request is admitted with the whole budget as its degree, and free workers help
 *       running requests before they admit new ones: steal-first (§3).
 *   <li>At every check, the load is the number of active requests (arrived and not complete, the
 *       paper's {@code q_t}: {@link SystemView#requestsInSystem()}), and a request whose work so
 *       far ({@link RequestView#workNanos()}, busy time summed over its threads) exceeds the {@link
 *       ThresholdTable}'s threshold for that load is marked large: degree 0, no new helper. The
 *       mark stays; the helpers already on it leave at their next unit boundary and its own thread
 *       does the rest, so it dissolves to serial lazily, as the paper's does (§4.2).
 * </ul>
 *
 * <p>What is equivalent to the paper's runtime and what is not. Its workers keep per-worker deques
 * and a thief sums every request's processing time before each steal; here a request's units sit in
 * one queue of its own and the scheduler keeps each request's work, so the sum is exact and free.
 * The paper checks when a thief looks for work; Tailor asks at every unit boundary of the request
 * (its helpers are the thieves that have just run out of work) and every quantum, so a helper may
 * join a request that passed its threshold since the last check and leave it after one unit. A
 * marked request in the paper keeps the tasks already stolen; here its helpers finish the units
 * they hold. Admission is the same global FIFO queue.
 *
 * <p>{@code tc-oracle} is TC-Clairvoyant (§5.4), the lower bound: told each request's true work
 * ({@link Policy#clairvoyant()}), it serializes from its start a request whose work exceeds the
 * threshold for the load at admission (or later, at a check, when the load has risen), so a large
 * request never runs in parallel. The paper adjusts its threshold calculation for this without
 * printing the adjustment; ours uses tail-control's thresholds, so that it serializes the requests
 * tail-control would, without their parallel first {@code l} of work. (Taking the parallel part
 * {@code l} out of the calculation instead leaves a pileup with no large request at its head when
 * nothing is serialized, which the calculation then prefers at every load of the paper's log-normal
 * workload: a bound that never serializes bounds nothing.) Only a simulation or a replay of a
 * profile can run it.
 */
@Internal
public final class TailControlPolicy extends TablePolicy<ThresholdTable> {

  /** The two variants. */
  public enum Variant {
    /** Tail-control: a request reveals itself as large by its work so far. */
    TC("tc", false),
    /** TC-Clairvoyant: each request's total work is known at arrival. */
    TC_ORACLE("tc-oracle", true);

    private final String name;
    private final boolean clairvoyant;

    Variant(String name, boolean clairvoyant) {
      this.name = name;
      this.clairvoyant = clairvoyant;
    }

    /** The policy's registered name. */
    public String policyName() {
      return name;
    }
  }

  private final Variant variant;

  private TailControlPolicy(PolicyTable<ThresholdTable> table, Variant variant) {
    super(table, variant.name);
    this.variant = variant;
  }

  /**
   * The variant reading its thresholds from {@code table}, fixed or watched. The caller keeps
   * ownership of the source: closing the policy does not close it.
   */
  public static TailControlPolicy of(Variant variant, TableSource<ThresholdTable> table) {
    return new TailControlPolicy(PolicyTable.of(table), variant);
  }

  /**
   * The variant reading a table file and watching it for a new table until the policy is closed; a
   * new file that is not a valid table is rejected and the current table keeps serving.
   *
   * @throws IllegalArgumentException if the file is missing or invalid, naming file, field and
   *     problem
   */
  public static TailControlPolicy watching(Variant variant, Path file) {
    return new TailControlPolicy(PolicyTable.watching(file, ThresholdTable::read), variant);
  }

  /** The factories for {@code tc:TABLE.json} and {@code tc-oracle:TABLE.json}. */
  static List<PolicyFactory> factories() {
    return List.of(
        factory(
            Variant.TC,
            "tail-control: steal-first, and a request whose work passes the threshold for the"
                + " number of active requests is serialized"),
        factory(
            Variant.TC_ORACLE,
            "TC-Clairvoyant: tail-control told each request's true work, serializing the large"
                + " ones from their start (simulation and replay only)"));
  }

  private static PolicyFactory factory(Variant variant, String description) {
    return PolicyTable.factory(
        variant.name, "threshold", description, file -> watching(variant, file));
  }

  /** Which of the two this is. */
  public Variant variant() {
    return variant;
  }

  @Override
  public Admission admit(RequestView request, SystemView system) {
    if (variant.clairvoyant && isLarge(request.predictedSequentialNanos(), system)) {
      return Admission.start(0);
    }
    return Admission.start(system.budget());
  }

  @Override
  public int degree(RequestView request, SystemView system) {
    if (request.degree() == 0) {
      return 0; // marked large: the mark stays
    }
    long work = variant.clairvoyant ? request.predictedSequentialNanos() : request.workNanos();
    return isLarge(work, system) ? 0 : system.budget();
  }

  private boolean isLarge(long work, SystemView system) {
    if (work == RequestView.UNKNOWN) {
      return false;
    }
    return work > table.current().thresholdNanos(system.requestsInSystem());
  }

  @Override
  public WorkerPreference workerPreference(SystemView system) {
    return WorkerPreference.HELP_FIRST;
  }

  @Override
  public boolean clairvoyant() {
    return variant.clairvoyant;
  }
}
