package dev.tailor.micrometer;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.metrics.RunMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * A {@link Scheduler}'s metrics as Micrometer meters. Every meter reads the scheduler's own {@link
 * SchedulerInternals#metrics metrics} and load when the registry is read (a scrape), so binding
 * adds nothing to a request's path: no meter is updated as requests run.
 *
 * <p>The meters, in Micrometer's names (Prometheus adds the unit and {@code _total}):
 *
 * <ul>
 *   <li>{@code tailor.request.latency}, {@code tailor.request.queueing}, {@code
 *       tailor.request.dispatch}, {@code tailor.request.run}: function timers (count and total
 *       time) of the latency and its breakdown as {@link RequestRecord} defines them, and, under
 *       the same name with {@code .quantile}, time gauges tagged {@code quantile} 0.5, 0.9, 0.99
 *       and 0.999. They read the scheduler's HdrHistograms, which hold every request since the
 *       scheduler started: the quantiles are cumulative, not over a recent window, and the total
 *       time is the histogram's mean times its count, to its three significant digits. The latency
 *       counts the requests completed with a result; the breakdown also the failed ones.
 *   <li>{@code tailor.requests}: requests ended, tagged {@code outcome} ({@code completed}, {@code
 *       failed}, {@code cancelled}).
 *   <li>{@code tailor.requests.by.degree}: requests by the highest degree of parallelism they got,
 *       tagged {@code group} (the request's label, else its work group) and {@code degree}. The
 *       first {@code maxGroups} groups have series of their own; requests of every later group
 *       count in group {@code other} (as do requests labelled {@code other}), so that callers who
 *       label requests freely cannot make series without bound. A group or degree first seen after
 *       binding gets its series when {@code tailor.request.groups} (the groups with series of their
 *       own) is next read, so it shows from the next scrape on.
 *   <li>{@code tailor.helpers}: how many times a thread joined a running request as a helper;
 *       {@code tailor.units.helpers}: the work units helpers ran (the rest ran on their request's
 *       own thread).
 *   <li>{@code tailor.failures}: the failures the scheduler survived, tagged {@code kind} ({@link
 *       Scheduler#failureCounts()}: a policy, a listener or a scheduler thread that threw, such as
 *       {@code policy.degree}). A request whose body throws is not one: it counts in {@code
 *       tailor.requests} as {@code failed}. Kinds are fixed names in the scheduler's code, so the
 *       series are few; a kind gets its series once it first fails, when {@code
 *       tailor.failure.kinds} (the kinds failed so far) is next read, so from the next scrape on.
 *   <li>{@code tailor.table.swaps}: the tables the policy swapped in since it was created ({@link
 *       dev.tailor.core.policy.Policy#tableSwaps()}): a table-driven policy's file rebuilt and
 *       reloaded, or the policies a self-tuning one swapped in or rolled back; 0 for a policy with
 *       no table.
 *   <li>Gauges of the load now: {@code tailor.requests.active}, {@code tailor.requests.queued},
 *       {@code tailor.threads.busy} (threads of the budget at work, requests' own and helpers),
 *       {@code tailor.threads.busy.long} (those on long requests), {@code tailor.workers}, {@code
 *       tailor.budget}; and averaged over time since the scheduler started: {@code
 *       tailor.threads.busy.mean}, {@code tailor.budget.mean}.
 * </ul>
 *
 * <p>Bind a scheduler once to a registry. Its meters read its metrics for as long as the registry
 * holds them, after the scheduler is closed too (they then stay as they were).
 *
 * <pre>{@code
 * PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
 * new TailorMetrics(scheduler).bindTo(registry);
 * String text = registry.scrape();
 * }</pre>
 */
public final class TailorMetrics implements MeterBinder {

  /** Groups with series of their own unless told otherwise. */
  public static final int DEFAULT_MAX_GROUPS = 32;

  private static final double[] QUANTILES = {0.5, 0.9, 0.99, 0.999};

  private final Scheduler scheduler;
  private final int maxGroups;
  private final Tags tags;

  /** The scheduler's meters, with no tags of their own, and {@link #DEFAULT_MAX_GROUPS}. */
  public TailorMetrics(Scheduler scheduler) {
    this(scheduler, DEFAULT_MAX_GROUPS, Tags.empty());
  }

  /** The scheduler's meters, each with {@code tags}, and {@link #DEFAULT_MAX_GROUPS}. */
  public TailorMetrics(Scheduler scheduler, Iterable<Tag> tags) {
    this(scheduler, DEFAULT_MAX_GROUPS, tags);
  }

  /**
   * The scheduler's meters.
   *
   * @param maxGroups the request groups with series of their own; later ones count as {@code other}
   * @param tags added to every meter, e.g. to tell several schedulers apart
   * @throws IllegalArgumentException if {@code maxGroups} is negative
   */
  public TailorMetrics(Scheduler scheduler, int maxGroups, Iterable<Tag> tags) {
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    if (maxGroups < 0) {
      throw new IllegalArgumentException("maxGroups must be >= 0, got " + maxGroups);
    }
    this.maxGroups = maxGroups;
    this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    RunMetrics metrics = SchedulerInternals.metrics(scheduler);
    timer(
        registry,
        "latency",
        "Arrival to completion of requests completed with a result",
        metrics::latency);
    timer(registry, "queueing", "Arrival to admission", metrics::queueing);
    timer(registry, "dispatch", "Admission to the request's body first running", metrics::dispatch);
    timer(registry, "run", "First running to the last thread's end", metrics::run);
    for (RequestRecord.Outcome outcome : RequestRecord.Outcome.values()) {
      FunctionCounter.builder(
              "tailor.requests", scheduler, s -> SchedulerInternals.metrics(s).count(outcome))
          .tags(tags.and("outcome", outcome.name().toLowerCase(Locale.ROOT)))
          .description("Requests ended, by outcome")
          .baseUnit("requests")
          .register(registry);
    }
    DegreeMeters degrees = new DegreeMeters(scheduler, registry, tags, maxGroups);
    degrees.refresh();
    gauge(
        registry,
        "tailor.request.groups",
        "Request groups with series of their own",
        s -> degrees.refresh());
    counter(
        registry,
        "tailor.helpers",
        "Times a thread joined a running request as a helper",
        s -> SchedulerInternals.metrics(s).helpers());
    counter(
        registry,
        "tailor.units.helpers",
        "Work units run by helpers rather than their request's own thread",
        s -> SchedulerInternals.metrics(s).unitsOnHelpers());
    counter(
        registry,
        "tailor.table.swaps",
        "Tables (or, for a self-tuning policy, policies) swapped in by the policy",
        s -> s.policy().tableSwaps());
    FailureMeters failures = new FailureMeters(scheduler, registry, tags);
    failures.refresh();
    gauge(
        registry,
        "tailor.failure.kinds",
        "Kinds of failure the scheduler has survived",
        s -> failures.refresh());
    gauge(
        registry,
        "tailor.requests.active",
        "Requests admitted and running",
        s -> SchedulerInternals.systemView(s).activeRequests());
    gauge(
        registry,
        "tailor.requests.queued",
        "Requests waiting for admission",
        s -> SchedulerInternals.systemView(s).queuedRequests());
    gauge(
        registry,
        "tailor.threads.busy",
        "Threads of the budget at work",
        s -> SchedulerInternals.systemView(s).busyWorkers());
    gauge(
        registry,
        "tailor.threads.busy.long",
        "Threads at work on long requests",
        s -> SchedulerInternals.systemView(s).busyThreadsOnLongRequests());
    gauge(
        registry,
        "tailor.threads.busy.mean",
        "Threads at work, averaged since the scheduler started",
        SchedulerInternals::meanBusyWorkers);
    gauge(
        registry,
        "tailor.workers",
        "Worker threads: the most threads search can use",
        Scheduler::workers);
    gauge(registry, "tailor.budget", "Threads search may use now", Scheduler::budget);
    gauge(
        registry,
        "tailor.budget.mean",
        "The budget, averaged since the scheduler started",
        SchedulerInternals::meanBudget);
  }

  private void counter(
      MeterRegistry registry, String name, String description, ToDoubleFunction<Scheduler> value) {
    FunctionCounter.builder(name, scheduler, value)
        .tags(tags)
        .description(description)
        .register(registry);
  }

  private void gauge(
      MeterRegistry registry, String name, String description, ToDoubleFunction<Scheduler> value) {
    Gauge.builder(name, scheduler, value).tags(tags).description(description).register(registry);
  }

  /**
   * A function timer and quantile gauges over one histogram, all reading one copy of it per scrape.
   */
  private void timer(
      MeterRegistry registry, String part, String description, Supplier<Histogram> histogram) {
    Snapshot<Histogram> snapshot = new Snapshot<>(SchedulerInternals.metrics(scheduler), histogram);
    String name = "tailor.request." + part;
    FunctionTimer.builder(
            name,
            scheduler,
            s -> snapshot.get().getTotalCount(),
            s -> {
              Histogram h = snapshot.get();
              return h.getMean() * h.getTotalCount();
            },
            TimeUnit.NANOSECONDS)
        .tags(tags)
        .description(description)
        .register(registry);
    for (double q : QUANTILES) {
      TimeGauge.builder(
              name + ".quantile",
              scheduler,
              TimeUnit.NANOSECONDS,
              s -> snapshot.get().getValueAtPercentile(q * 100))
          .tags(tags.and("quantile", Double.toString(q)))
          .description(description + ", this quantile since the scheduler started")
          .register(registry);
    }
  }
}
