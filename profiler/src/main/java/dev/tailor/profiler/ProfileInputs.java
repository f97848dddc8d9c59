package dev.tailor.profiler;

import dev.tailor.measure.DemandProfile;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * What a profile run starts from besides its options: the environment the profile records (the
 * index, the trace, this machine and JVM, the time), and the seeded sample of queries that a check
 * profiles twice.
 */
public final class ProfileInputs {

  private ProfileInputs() {}

  /**
   * The environment of a profile of {@code trace} on {@code index} taken now on this machine.
   *
   * @param sourceLabel the index's source label
   * @param docs the index's documents
   */
  public static DemandProfile.Environment environment(
      Path index, String sourceLabel, int docs, Path trace) {
    return new DemandProfile.Environment(
        index.toAbsolutePath().toString(),
        sourceLabel,
        docs,
        trace.toAbsolutePath().toString(),
        Runtime.getRuntime().availableProcessors(),
        Runtime.version().toString(),
        System.getProperty("os.name") + " " + System.getProperty("os.arch"),
        Instant.now().toString());
  }

  /** A seeded sample of {@code n} of the queries in trace order, or all of them if no more. */
  public static List<DemandProfiler.ProfiledQuery> sample(
      List<DemandProfiler.ProfiledQuery> queries, int n, long seed) {
    if (queries.size() <= n) {
      return queries;
    }
    int[] chosen = new Random(seed).ints(0, queries.size()).distinct().limit(n).sorted().toArray();
    return Arrays.stream(chosen).mapToObj(queries::get).toList();
  }
}
