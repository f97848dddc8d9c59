package dev.tailor.load;

import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.policy.RequestView;
import dev.tailor.load.report.ReportedWorkload;
import dev.tailor.lucene.TotalHits;
import dev.tailor.measure.DemandProfile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A replayed trace's queries, each matched by id to its request in a demand profile of the trace,
 * or to none when no profile was given. It gives what a replay needs of the pairing: the entries
 * the in-process target runs, each with its profiled time and speedup as its prediction; the
 * profile's requests in the trace's order, for the oracle's simulation; and the workload the report
 * states.
 */
public final class ProfiledTrace {

  /**
   * One replayed query.
   *
   * @param id its id in the trace, which the profile's request of it carries
   * @param category its category, or null
   * @param text its text, as a search server is sent it
   * @param query the query the in-process target runs
   */
  public record Query(
      String id, String category, String text, org.apache.lucene.search.Query query) {}

  private final List<Query> queries;
  private final DemandProfile profile;
  private final Path file;
  private final Map<String, DemandProfile.Request> byId = new HashMap<>();

  /**
   * @param queries the replayed queries, in the trace's order
   * @param profile a profile of them, or null for none
   * @param file the file {@code profile} was read from, or null
   */
  public ProfiledTrace(List<Query> queries, DemandProfile profile, Path file) {
    this.queries = List.copyOf(queries);
    this.profile = profile;
    this.file = file;
    if (profile != null) {
      for (DemandProfile.Request r : profile.requests()) {
        byId.put(r.id(), r);
      }
    }
  }

  /** The queries' texts, in the trace's order. */
  public List<String> texts() {
    return queries.stream().map(Query::text).toList();
  }

  /**
   * The queries as the in-process target runs them, each with its profiled sequential time and
   * speedup curve as its prediction where the profile has them.
   */
  public List<InProcessTarget.TraceEntry> entries() {
    List<InProcessTarget.TraceEntry> entries = new ArrayList<>();
    for (Query q : queries) {
      DemandProfile.Request r = byId.get(q.id());
      entries.add(
          new InProcessTarget.TraceEntry(
              q.category(),
              q.query(),
              r == null ? RequestView.UNKNOWN : r.sequentialNanos(),
              r == null ? null : speedup(r)));
    }
    return entries;
  }

  /**
   * The profile's requests in the trace's order, so that a point plan's query {@code i} is the same
   * query in the replay and in its simulation.
   *
   * @throws IllegalArgumentException naming the profile if it lacks a replayed query
   */
  public DemandProfile inTraceOrder() {
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (Query q : queries) {
      DemandProfile.Request r = byId.get(q.id());
      if (r == null) {
        throw new IllegalArgumentException(
            "profile "
                + file
                + " has no query "
                + q.id()
                + " of the trace; the tuned oracle needs a profile of every replayed query");
      }
      requests.add(r);
    }
    return DemandProfile.of(profile.environment(), profile.settings(), true, requests);
  }

  /** The replayed workload, as the report states it: its spread in the profile, or unknown. */
  public ReportedWorkload workload() {
    if (profile == null) {
      return ReportedWorkload.unprofiled(queries.size());
    }
    return ReportedWorkload.replayed(
        "profile " + file.getFileName(), queries.stream().map(Query::id).toList(), profile);
  }

  /**
   * The hits each search counts: {@code asked}, else the profile's, else Lucene's default. A
   * profile measured with another threshold describes other searches, so the two must agree.
   *
   * @param asked the threshold asked for, or null for the profile's
   * @throws IllegalArgumentException if {@code asked} differs from the profile's
   */
  public int totalHitsThreshold(Integer asked) {
    int profiled =
        profile == null
            ? DemandProfile.Settings.DEFAULT_TOTAL_HITS_THRESHOLD
            : profile.settings().totalHitsThreshold();
    if (asked == null) {
      return profiled;
    }
    if (profile != null && asked != profiled) {
      throw new IllegalArgumentException(
          "--total-hits "
              + TotalHits.format(asked)
              + " differs from the profile's "
              + TotalHits.format(profiled)
              + " ("
              + file
              + "): its times are of other searches");
    }
    return asked;
  }

  /** A request's profiled speedup curve, or null where the profile has no measured speedup. */
  private static SpeedupCurve speedup(DemandProfile.Request r) {
    return r.measuredSpeedup() == null || r.measuredSpeedup().length == 0 ? null : r.speedupCurve();
  }
}
