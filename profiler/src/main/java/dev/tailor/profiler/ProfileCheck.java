package dev.tailor.profiler;

import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.ProfileComparison;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The check of {@code tailor profile --check}: takes the profile of a sample twice, one after the
 * other as two nightly runs would, and says whether they agree within {@link
 * ProfileComparison.Goal#DEFAULT}. When they do not, the per-query times measured the machine
 * rather than the queries, and no table should be built from a profile taken now.
 */
public final class ProfileCheck {

  /** Takes one profile of the sample. */
  @FunctionalInterface
  public interface Taker {
    /**
     * Takes the profile.
     *
     * @param file where to write it: a temporary file, deleted after the check
     * @param take 1 or 2
     */
    DemandProfile take(Path file, int take) throws IOException;
  }

  private ProfileCheck() {}

  /**
   * Takes the two profiles, prints their comparison to {@code out} and, if they disagree, what was
   * missed to {@code err}, with the second profile's {@link ProfileSummary summary}.
   *
   * @return whether the two agree within the goal
   */
  public static boolean run(Taker taker, PrintWriter out, PrintWriter err) throws IOException {
    DemandProfile a;
    DemandProfile b;
    Path dir = Files.createTempDirectory("tailor-profile-check");
    try {
      a = taker.take(dir.resolve("check-1.json"), 1);
      b = taker.take(dir.resolve("check-2.json"), 2);
    } finally {
      Files.deleteIfExists(dir.resolve("check-1.json"));
      Files.deleteIfExists(dir.resolve("check-2.json"));
      Files.deleteIfExists(dir);
    }
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
    ProfileSummary.print(b, err);
    err.flush();
    return false;
  }
}
