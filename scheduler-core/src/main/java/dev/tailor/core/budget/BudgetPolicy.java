package dev.tailor.core.budget;

import dev.tailor.core.Internal;
import java.util.Locale;

/**
 * A core-allocation policy: at the end of every period it says how many threads search may use in
 * the next, from what the period measured. The scheduler clamps the answer to its least and most
 * budget. Made by {@link #of(String)} from a specification: {@code static}, {@code
 * delay-range[:lo,hi]}, {@code utilization-range[:lo,hi]}.
 *
 * <p>Implementations are called on one thread at a time and must be quick: the runtime asks on its
 * reevaluator thread, the simulator in its event loop.
 */
@Internal
public interface BudgetPolicy {

  /** The budget for the next period, given the last one's figures. */
  int resize(BudgetSample last);

  /** The specification that makes this policy again. */
  String spec();

  /** Every thread, always: the budget never changes. The baseline the others save cores against. */
  static BudgetPolicy staticBudget() {
    return StaticBudget.INSTANCE;
  }

  /**
   * McClure et al.'s <em>delay range</em> (NSDI'22, Section 4.1): a thread is revoked when the mean
   * queueing delay of the period is below {@code lo} times the mean service time, and one added
   * when it is above {@code hi} times it. The paper's range is [0.5, 1].
   *
   * @throws IllegalArgumentException unless {@code 0 <= lo <= hi}, both finite
   */
  static BudgetPolicy delayRange(double lo, double hi) {
    return new DelayRange(lo, hi);
  }

  /**
   * McClure et al.'s <em>utilization range</em> (NSDI'22, Section 4.1): a thread is revoked when
   * the period's utilization (busy thread time over budget time) is below {@code lo}, and one added
   * when it is above {@code hi}. The paper's range is [0.75, 0.95].
   *
   * @throws IllegalArgumentException unless {@code 0 <= lo <= hi <= 1}
   */
  static BudgetPolicy utilizationRange(double lo, double hi) {
    return new UtilizationRange(lo, hi);
  }

  /**
   * The policy a specification names: {@code static}; {@code delay-range} or {@code
   * delay-range:LO,HI} (default 0.5,1); {@code utilization-range} or {@code
   * utilization-range:LO,HI} (default 0.75,0.95).
   *
   * @throws IllegalArgumentException naming the specification and the expected forms
   */
  static BudgetPolicy of(String spec) {
    String s = spec.trim().toLowerCase(Locale.ROOT);
    int colon = s.indexOf(':');
    String name = colon < 0 ? s : s.substring(0, colon);
    String args = colon < 0 ? null : s.substring(colon + 1);
    return switch (name) {
      case "static" -> {
        if (args != null) {
          throw BudgetSpecs.bad(spec, "static takes no arguments");
        }
        yield staticBudget();
      }
      case "delay-range" -> {
        double[] r = BudgetSpecs.range(spec, args, 0.5, 1.0);
        yield BudgetSpecs.checked(spec, () -> delayRange(r[0], r[1]));
      }
      case "utilization-range" -> {
        double[] r = BudgetSpecs.range(spec, args, 0.75, 0.95);
        yield BudgetSpecs.checked(spec, () -> utilizationRange(r[0], r[1]));
      }
      default -> throw BudgetSpecs.bad(spec, "unknown budget policy '" + name + "'");
    };
  }
}
