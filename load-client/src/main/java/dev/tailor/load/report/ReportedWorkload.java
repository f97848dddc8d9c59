package dev.tailor.load.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.tailor.core.json.JsonFile;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.WorkloadSpread;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * The workload a report's requests come from and how unequal they are: the spread decides whether
 * parallelism can matter at all, so every report states it, in its summary and as {@value #FILE}. A
 * replay given no demand profile has no sequential times to take it from and says so rather than
 * guess one.
 *
 * @param source what the requests come from, as the summary names it, e.g. {@code profile p.json},
 *     or null for a replay given no profile
 * @param requests the distinct requests the sweep drew from (the replayed queries, or the simulated
 *     profile's requests)
 * @param spread the spread of their profiled sequential times, or null if no profile has them
 */
public record ReportedWorkload(String source, int requests, WorkloadSpread spread) {

  /** The file in a report directory that records it. */
  public static final String FILE = "workload.json";

  /** Every request of a profile, as a simulation draws them. */
  public static ReportedWorkload of(String source, DemandProfile profile) {
    return new ReportedWorkload(source, profile.requests().size(), WorkloadSpread.of(profile));
  }

  /**
   * The replayed queries, their spread taken from those of them the profile has (by id): a profile
   * of more queries than were replayed would otherwise state another workload's spread.
   *
   * @param source the profile, as the summary names it
   * @param replayedIds the ids of the replayed queries
   * @param profile their demand profile
   */
  public static ReportedWorkload replayed(
      String source, Collection<String> replayedIds, DemandProfile profile) {
    Set<String> ids = new HashSet<>(replayedIds);
    double[] times =
        profile.requests().stream()
            .filter(r -> ids.contains(r.id()))
            .mapToDouble(DemandProfile.Request::sequentialNanos)
            .toArray();
    return new ReportedWorkload(
        source, replayedIds.size(), times.length == 0 ? null : WorkloadSpread.of(times));
  }

  /** Replayed queries of which no profile was given. */
  public static ReportedWorkload unprofiled(int requests) {
    return new ReportedWorkload(null, requests, null);
  }

  /** P99 over median, or null if the spread is unknown; written beside the spread's figures. */
  @JsonProperty("p99OverMedian")
  public Double p99OverMedian() {
    return spread == null ? null : spread.p99OverMedian();
  }

  /**
   * The summary's line, e.g. {@code Workload: profile p.json, 1000 requests: median 0.290 ms, P99
   * 2.8 ms (P99/median 9.5), ...; the slowest 5% hold 23% of the time.}
   */
  public String summaryLine() {
    if (spread == null) {
      return "Workload: "
          + requests
          + " requests of unknown spread: "
          + (source == null
              ? "no demand profile was given (replay --profile), so"
              : source + " has none of them, so")
          + " neither P99/median nor the slowest 5%'s share of the time is known.";
    }
    String covered =
        spread.requests() < requests
            ? " (" + spread.requests() + " of the " + requests + " requests profiled)"
            : "";
    return "Workload: " + source + covered + ", " + spread.describe() + ".";
  }

  /** Writes it into a report directory, atomically. */
  public void write(Path reportDir) throws IOException {
    JsonFile.writeAtomically(reportDir.resolve(FILE), this);
  }
}
