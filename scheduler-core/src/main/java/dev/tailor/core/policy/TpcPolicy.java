package dev.tailor.core.policy;

import dev.tailor.core.Internal;
import dev.tailor.core.table.TableSource;
import dev.tailor.core.table.TargetTable;
import java.nio.file.Path;
import java.util.List;

/**
 * TPC, target-driven parallelism with prediction and correction (Jeon et al., ASPLOS'16, §3), and
 * its two variants the paper measures against it: TP, without the correction, and TPC with a
 * perfect predictor (§5).
 *
 * <ul>
 *   <li>Admission (§3.1, predictive parallelism): the target {@code E} is the {@link TargetTable}'s
 *       for the current load, the threads busy on long requests (LongT, {@link
 *       SystemView#busyThreadsOnLongRequests()}) or, if the table says so, all busy threads (AllT);
 *       the request's predicted sequential time {@code L} and its group's speedup profile {@code S}
 *       give the degree, the smallest {@code i <= P} with {@code L / S_i <= E}, or {@code P}. A
 *       request without a prediction starts sequentially.
 *   <li>Every quantum and at every unit boundary (§3.2, dynamic correction, {@code tpc} only): a
 *       request still running when its run time reaches the target gets more threads, up to {@code
 *       P} and limited by the idle workers: degree {@code min(P, threads + idle)}, never lower than
 *       the degree it has. The target is read for the load at the time of asking, since the policy
 *       keeps no state per request.
 * </ul>
 *
 * <p>{@code tpc-oracle} is {@code tpc} told each request's true sequential time ({@link
 * Policy#clairvoyant()}), the paper's perfect predictor: only a simulation or a replay of a profile
 * can run it. Free workers help first (the paper's workers take the request's parallel tasks before
 * new requests). The long flag counts from the table's long threshold ({@link
 * Policy#longThresholdNanos()}), so LongT means what the table was built for.
 */
@Internal
public final class TpcPolicy extends TablePolicy<TargetTable> {

  /** The three variants. */
  public enum Variant {
    /** Prediction and correction. */
    TPC("tpc", true, false),
    /** Prediction only. */
    TP("tp", false, false),
    /** Prediction and correction with the true sequential times as predictions. */
    TPC_ORACLE("tpc-oracle", true, true);

    private final String name;
    private final boolean corrects;
    private final boolean clairvoyant;

    Variant(String name, boolean corrects, boolean clairvoyant) {
      this.name = name;
      this.corrects = corrects;
      this.clairvoyant = clairvoyant;
    }

    /** The policy's registered name. */
    public String policyName() {
      return name;
    }
  }

  private final Variant variant;

  private TpcPolicy(PolicyTable<TargetTable> table, Variant variant) {
    super(table, variant.name);
    this.variant = variant;
  }

  /**
   * The variant reading its targets from {@code table}, fixed or watched. The caller keeps
   * ownership of the source: closing the policy does not close it.
   */
  public static TpcPolicy of(Variant variant, TableSource<TargetTable> table) {
    return new TpcPolicy(PolicyTable.of(table), variant);
  }

  /**
   * The variant reading a table file and watching it for a new table until the policy is closed.
   *
   * @throws IllegalArgumentException if the file is missing or invalid, naming file, field and
   *     problem
   */
  public static TpcPolicy watching(Variant variant, Path file) {
    return new TpcPolicy(PolicyTable.watching(file, TargetTable::read), variant);
  }

  /** The factories for {@code tpc:TABLE.json}, {@code tp:TABLE.json}, {@code tpc-oracle:...}. */
  static List<PolicyFactory> factories() {
    return List.of(
        factory(
            Variant.TPC,
            "TPC: degree at arrival from the predicted time and the target for the load (threads on"
                + " long requests), more threads when a request runs past its target"),
        factory(Variant.TP, "TPC without dynamic correction: the degree chosen at arrival stays"),
        factory(
            Variant.TPC_ORACLE,
            "TPC with a perfect predictor: told each request's true sequential time (simulation"
                + " and replay only)"));
  }

  private static PolicyFactory factory(Variant variant, String description) {
    return PolicyTable.factory(
        variant.name, "target", description, file -> watching(variant, file));
  }

  /** Which of the three this is. */
  public Variant variant() {
    return variant;
  }

  @Override
  public Admission admit(RequestView request, SystemView system) {
    TargetTable t = table.current();
    long target = t.targetNanos(t.inputs().loadMetric().read(system));
    return Admission.start(t.degreeFor(request.predictedSequentialNanos(), target));
  }

  @Override
  public int degree(RequestView request, SystemView system) {
    int d = request.degree();
    if (!variant.corrects) {
      return d;
    }
    TargetTable t = table.current();
    int p = t.inputs().maxDegree();
    if (d >= p || request.elapsedNanos() < t.targetNanos(t.inputs().loadMetric().read(system))) {
      return d;
    }
    return Math.max(d, Math.min(p, request.threads() + system.idleWorkers()));
  }

  @Override
  public boolean clairvoyant() {
    return variant.clairvoyant;
  }

  @Override
  public long longThresholdNanos() {
    return table.current().longThresholdNanos();
  }
}
