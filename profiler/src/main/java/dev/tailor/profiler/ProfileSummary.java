package dev.tailor.profiler;

import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.WorkloadSpread;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Locale;

/**
 * What a demand profile says of itself in a few lines: how spread out the workload is, how well
 * each query's samples agreed, and how busy the machine was while it was profiled, with a warning
 * when other processes used more than {@link #BUSY_SHARE} of the CPU.
 */
public final class ProfileSummary {

  /** Other processes using more than this share of the CPU make a profile doubtful. */
  public static final double BUSY_SHARE = 0.10;

  private ProfileSummary() {}

  /** Prints the summary of {@code profile}, each line indented by two spaces. */
  public static void print(DemandProfile profile, PrintWriter out) {
    out.println("  workload: " + WorkloadSpread.of(profile).describe());
    double[] spreads =
        profile.requests().stream()
            .filter(r -> r.spread() != null)
            .mapToDouble(r -> r.spread().sequential())
            .sorted()
            .toArray();
    if (spreads.length > 0) {
      out.printf(
          Locale.ROOT,
          "  samples: %d per query and degree; spread (IQR / time) median %.1f%%, P90 %.1f%%%n",
          profile.requests().get(0).spread().samples(),
          100 * spreads[spreads.length / 2],
          100 * spreads[(int) (0.9 * (spreads.length - 1))]);
    }
    DemandProfile.Conditions c = profile.conditions();
    if (c == null) {
      return;
    }
    long[] rounds = c.timedRoundNanos();
    long fastest = Arrays.stream(rounds).min().orElse(0);
    long slowest = Arrays.stream(rounds).max().orElse(0);
    out.printf(
        Locale.ROOT,
        "  conditions: %.1f s, %d warm-up rounds, timed rounds %.2f-%.2f s (drift %.1f%%),"
            + " %d queries re-measured, %d samples retaken after a GC, JIT %s ms while timing,"
            + " other processes %s, steal %s%n",
        c.elapsedNanos() / 1e9,
        c.warmupRounds(),
        fastest / 1e9,
        slowest / 1e9,
        fastest > 0 ? 100.0 * (slowest - fastest) / fastest : 0,
        c.remeasuredRequests(),
        c.gcDiscardedSamples(),
        c.compilationMillis() < 0 ? "?" : Long.toString(c.compilationMillis()),
        share(c.otherCpuShare()),
        share(c.stealShare()));
    if (c.otherCpuShare() != null && c.otherCpuShare() > BUSY_SHARE) {
      out.printf(
          Locale.ROOT,
          "  warning: other processes used %.0f%% of this machine's CPU while it was profiled;"
              + " per-query times may not repeat (tailor profile --check tells)%n",
          100 * c.otherCpuShare());
    }
  }

  private static String share(Double share) {
    return share == null ? "unknown" : String.format(Locale.ROOT, "%.0f%% of the CPU", 100 * share);
  }
}
