package dev.tailor.micrometer;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashSet;
import java.util.Set;

/**
 * The failures a scheduler survived ({@link Scheduler#failureCounts()}) as counters tagged {@code
 * kind}, registered as kinds first fail. The kinds are fixed names in the scheduler's code, so the
 * series are a few at most whatever the requests are.
 */
final class FailureMeters {

  static final String NAME = "tailor.failures";

  private final Scheduler scheduler;
  private final MeterRegistry registry;
  private final Tags tags;
  private final Set<String> registered = new HashSet<>(); // guarded by this

  FailureMeters(Scheduler scheduler, MeterRegistry registry, Tags tags) {
    this.scheduler = scheduler;
    this.registry = registry;
    this.tags = tags;
  }

  /**
   * Registers a counter for every kind first failed since the last call.
   *
   * @return the kinds that have failed so far
   */
  synchronized int refresh() {
    for (String kind : SchedulerInternals.failureCounts(scheduler).keySet()) {
      if (registered.add(kind)) {
        FunctionCounter.builder(
                NAME, scheduler, s -> SchedulerInternals.failureCounts(s).getOrDefault(kind, 0L))
            .tags(tags.and("kind", kind))
            .description(
                "Failures the scheduler survived (a policy, a listener or one of its threads that"
                    + " threw), by kind")
            .register(registry);
      }
    }
    return registered.size();
  }
}
