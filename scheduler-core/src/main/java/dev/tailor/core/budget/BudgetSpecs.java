package dev.tailor.core.budget;

import java.util.function.Supplier;

/** What the budget policies share: reading specifications, wording errors, the range step. */
final class BudgetSpecs {

  static final String FORMS = "static, delay-range[:LO,HI] or utilization-range[:LO,HI]";

  private BudgetSpecs() {}

  static IllegalArgumentException bad(String spec, String why) {
    return new IllegalArgumentException(
        "bad budget policy '" + spec + "': " + why + " (expected " + FORMS + ")");
  }

  /** The two numbers of {@code LO,HI}, or the defaults when there are no arguments. */
  static double[] range(String spec, String args, double lo, double hi) {
    if (args == null) {
      return new double[] {lo, hi};
    }
    String[] parts = args.split(",", -1);
    if (parts.length != 2) {
      throw bad(spec, "needs two numbers LO,HI, got '" + args + "'");
    }
    double[] r = new double[2];
    for (int i = 0; i < 2; i++) {
      try {
        r[i] = Double.parseDouble(parts[i].trim());
      } catch (NumberFormatException e) {
        throw bad(spec, "'" + parts[i].trim() + "' is not a number");
      }
    }
    return r;
  }

  /** Makes the policy, rewording a range the policy refuses so that it names the specification. */
  static BudgetPolicy checked(String spec, Supplier<BudgetPolicy> make) {
    try {
      return make.get();
    } catch (IllegalArgumentException e) {
      throw bad(spec, e.getMessage());
    }
  }

  /**
   * One thread more when {@code value} is above {@code hi}, one fewer when it is below {@code lo}:
   * the step both range policies take (McClure et al., NSDI'22, Section 4.1).
   */
  static int step(int budget, double value, double lo, double hi) {
    return value > hi ? budget + 1 : value < lo ? budget - 1 : budget;
  }

  static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
