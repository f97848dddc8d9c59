package dev.tailor.micrometer;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The degree distribution per request group as counters tagged {@code group} and {@code degree},
 * registered as groups and degrees appear in the scheduler's metrics. Groups are the scheduler's (a
 * request's label, else its work group), which a caller may make without bound: the first {@code
 * maxGroups} seen have series of their own and every later one counts in {@value #OTHER}, so the
 * series stay at most {@code (maxGroups + 1)} times the degrees in use.
 */
final class DegreeMeters {

  /** The group every group past the limit counts in. */
  static final String OTHER = "other";

  static final String NAME = "tailor.requests.by.degree";

  private final Scheduler scheduler;
  private final MeterRegistry registry;
  private final Tags tags;
  private final int maxGroups;
  private final Snapshot<Map<String, long[]>> distribution;
  // Each group seen, and the group it counts in: itself or OTHER. Decided once, so no count moves.
  private volatile Map<String, String> seriesOf = Map.of();
  private int own; // guarded by this
  private final Set<String> registered = new HashSet<>(); // group and degree; guarded by this

  DegreeMeters(Scheduler scheduler, MeterRegistry registry, Tags tags, int maxGroups) {
    this.scheduler = scheduler;
    this.registry = registry;
    this.tags = tags;
    this.maxGroups = maxGroups;
    this.distribution =
        new Snapshot<>(
            SchedulerInternals.metrics(scheduler),
            SchedulerInternals.metrics(scheduler)::degreeDistribution);
  }

  /**
   * Registers a counter for every group and degree first seen since the last call.
   *
   * @return the groups with series of their own
   */
  synchronized int refresh() {
    Map<String, String> next = new HashMap<>(seriesOf);
    for (Map.Entry<String, long[]> e : distribution.get().entrySet()) {
      String group = e.getKey();
      String series = next.get(group);
      if (series == null) {
        if (!group.equals(OTHER) && own < maxGroups) {
          series = group;
          own++;
        } else {
          series = OTHER;
        }
        next.put(group, series);
      }
      long[] counts = e.getValue();
      for (int degree = 0; degree < counts.length; degree++) {
        if (counts[degree] > 0 && registered.add(series + '\u0000' + degree)) {
          register(series, degree);
        }
      }
    }
    seriesOf = Map.copyOf(next);
    return own;
  }

  private void register(String group, int degree) {
    FunctionCounter.builder(NAME, scheduler, s -> count(group, degree))
        .tags(tags.and(Tag.of("group", group), Tag.of("degree", Integer.toString(degree))))
        .description("Requests whose highest degree of parallelism was this, per request group")
        .register(registry);
  }

  private double count(String group, int degree) {
    long sum = 0;
    Map<String, String> series = seriesOf;
    for (Map.Entry<String, long[]> e : distribution.get().entrySet()) {
      if (group.equals(series.get(e.getKey())) && degree < e.getValue().length) {
        sum += e.getValue()[degree];
      }
    }
    return sum;
  }
}
