package dev.tailor.cli;

import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.ProfileComparison;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tailor profile compare A B}: whether two demand profiles of the same trace agree per
 * query, against {@link ProfileComparison.Goal#DEFAULT}.
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = {
      "Compare two demand profiles of the same trace query by query (matched by id and query"
          + " text): the correlation of their log sequential times, the median and P90 relative"
          + " difference, how many of the slowest 5%% are the same, and the ratio of their means,"
          + " each against its goal.",
      "Exit status: 0, or 1 with --fail-on-shortfall when a goal is missed; 2 if a profile"
          + " cannot be read or the two have no request in common."
    })
final class ProfileCompareCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "A", description = "The first profile.")
  Path a;

  @Parameters(index = "1", paramLabel = "B", description = "The second profile.")
  Path b;

  @Option(names = "--fail-on-shortfall", description = "Exit with 1 when any goal is missed.")
  boolean failOnShortfall;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    DemandProfile pa;
    DemandProfile pb;
    ProfileComparison comparison;
    try {
      pa = DemandProfile.read(a);
      pb = DemandProfile.read(b);
      comparison = ProfileComparison.of(pa, pb);
    } catch (IOException | IllegalArgumentException e) {
      // Reported as TailorCommand reports bad input (the message names the file and the field),
      // but with status 2, so that a script tells a bad input from a missed goal (status 1).
      err.println(spec.qualifiedName() + ": " + TailorCommand.reason(e));
      err.flush();
      return 2;
    }
    out.printf("A: %s%n", describe(a, pa));
    out.printf("B: %s%n", describe(b, pb));
    out.print(comparison.describe());
    List<String> shortfalls = comparison.shortfalls(ProfileComparison.Goal.DEFAULT);
    if (shortfalls.isEmpty()) {
      out.println("the profiles agree: every goal is met");
    } else {
      out.println("the profiles disagree:");
      for (String s : shortfalls) {
        out.println("  " + s);
      }
    }
    out.flush();
    return failOnShortfall && !shortfalls.isEmpty() ? 1 : 0;
  }

  private static String describe(Path file, DemandProfile p) {
    return String.format(
        "%s (%d requests%s, taken %s)",
        file,
        p.requests().size(),
        // A partial profile compares only the requests it has; say so, as the counts then differ.
        p.complete() ? "" : ", incomplete",
        p.environment().takenAt());
  }
}
