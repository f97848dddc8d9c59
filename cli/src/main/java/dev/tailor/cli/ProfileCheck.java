package dev.tailor.cli;

import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.ProfileComparison;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;

/**
 * {@code tailor profile --check}: takes the profile of a sample twice, one after the other as two
 * nightly runs would, and says whether they agree within {@link ProfileComparison.Goal#DEFAULT}.
 * When they do not, the per-query times measured the machine rather than the queries, and no table
 * should be built from a profile taken now.
 */
final class ProfileCheck {

  /** Takes one profile of the sample; {@code take} is 1 or 2. */
  @FunctionalInterface
  interface Taker {
    DemandProfile take(int take) throws IOException;
  }

  private ProfileCheck() {}

  /**
   * Takes the two profiles, prints their comparison to {@code out} and, if they disagree, what was
   * missed to {@code err}.
   *
   * @return whether the two agree within the goal
   */
  static boolean run(Taker taker, PrintWriter out, PrintWriter err) throws IOException {
    DemandProfile a = taker.take(1);
    DemandProfile b = taker.take(2);
    ProfileComparison comparison = ProfileComparison.of(a, b);
    out.printf("check: two profiles of the same %d queries%n", comparison.requests());
    out.print(comparison.describe());
    out.flush();
    List<String> shortfalls = comparison.shortfalls(ProfileComparison.Goal.DEFAULT);
    if (shortfalls.isEmpty()) {
      return true;
    }
    err.println(
        "profile --check: two profiles of the same "
            + comparison.requests()
            + " queries disagree: "
            + String.join("; ", shortfalls)
            + ". Their per-query times measure the machine, not the queries, so no profile was"
            + " taken; find what else runs on this machine (the conditions below), then try again.");
    ProfileCommand.describe(b, err);
    err.flush();
    return false;
  }
}
