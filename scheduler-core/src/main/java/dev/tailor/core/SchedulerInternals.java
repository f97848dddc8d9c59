package dev.tailor.core;

import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.metrics.RequestGroups;
import dev.tailor.core.metrics.RunMetrics;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.PolicySpec;
import dev.tailor.core.policy.SystemView;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * What Tailor's own modules reach inside a {@link Scheduler} that is not API: requests with forked
 * units (the drop-in's searches, the OpenSearch plugin's query phases), the live load measures, the
 * metrics, the elastic budget, policies named by specification (the command line and the settings),
 * and the dispatch core's decision hook. An embedder uses {@link Scheduler}, {@link Tuning} and
 * {@code TailorSearcher}; everything here may change in any release.
 */
@Internal
public final class SchedulerInternals {

  private SchedulerInternals() {}

  /**
   * Queues a request whose body runs on a pool worker and hands units to its {@link
   * RequestContext}; see {@link Scheduler#submit(java.util.concurrent.Callable)}.
   */
  public static <T> CompletableFuture<T> submit(
      Scheduler scheduler, RequestBody<T> body, RequestAttributes attributes) {
    return scheduler.submit(body, attributes);
  }

  /** {@link #submit(Scheduler, RequestBody, RequestAttributes)} with no attributes. */
  public static <T> CompletableFuture<T> submit(Scheduler scheduler, RequestBody<T> body) {
    return scheduler.submit(body);
  }

  /**
   * Runs a request on the calling thread: waits for admission like any queued request, then runs
   * the body here, holding one slot of the budget until the request completes. Called from inside a
   * request of the same scheduler, the body runs at once as part of that request, so nested work
   * can never deadlock waiting for a slot its own caller holds.
   *
   * @throws Exception what the body threw, as it threw it
   */
  public static <T> T run(Scheduler scheduler, RequestBody<T> body, RequestAttributes attributes)
      throws Exception {
    return scheduler.run(body, attributes);
  }

  /** {@link #run(Scheduler, RequestBody, RequestAttributes)} with no attributes. */
  public static <T> T run(Scheduler scheduler, RequestBody<T> body) throws Exception {
    return scheduler.run(body);
  }

  /**
   * Opens a request on the calling thread and returns once it is admitted, for a caller whose work
   * runs on its own thread between two callbacks (a search engine's query phase): the thread is the
   * request's own thread until the scope is closed on it.
   */
  public static RequestScope enter(Scheduler scheduler, RequestAttributes attributes)
      throws InterruptedException {
    return scheduler.enter(attributes);
  }

  /** The live load measures policies see. */
  public static SystemView systemView(Scheduler scheduler) {
    return scheduler.systemView();
  }

  /** The metrics of every request completed so far. */
  public static RunMetrics metrics(Scheduler scheduler) {
    return scheduler.metrics();
  }

  /**
   * The failures the scheduler survived so far, counted by kind ({@code policy.degree}, {@code
   * listener.requestCompleted}, {@code reevaluator}, {@code worker}, ...): a copy, in name order.
   */
  public static Map<String, Long> failureCounts(Scheduler scheduler) {
    return scheduler.failureCounts();
  }

  /** Busy threads of the budget, averaged over time since the scheduler started. */
  public static double meanBusyWorkers(Scheduler scheduler) {
    return scheduler.meanBusyWorkers();
  }

  /** The budget, averaged over time since the scheduler started. */
  public static double meanBudget(Scheduler scheduler) {
    return scheduler.meanBudget();
  }

  /**
   * The cores the elastic budget gives back, for the application's background work; none while the
   * budget is static, all once the scheduler has stopped.
   */
  public static BackgroundCores backgroundCores(Scheduler scheduler) {
    return scheduler.backgroundCores();
  }

  /** Swaps in the policy a specification names, through {@link PolicyRegistry#standard()}. */
  public static void setPolicy(Scheduler scheduler, String spec) {
    scheduler.setPolicy(PolicyRegistry.of(spec));
  }

  /** The policy a specification names, through {@link PolicyRegistry#standard()}. */
  public static Scheduler.Builder policy(Scheduler.Builder builder, String spec) {
    return builder.policy(spec);
  }

  /** The policy a typed specification names, through {@link PolicyRegistry#standard()}. */
  public static Scheduler.Builder policy(Scheduler.Builder builder, PolicySpec spec) {
    return builder.policy(spec);
  }

  /** The groups the metrics' degree distribution is kept by; default TPC's. */
  public static Scheduler.Builder requestGroups(Scheduler.Builder builder, RequestGroups groups) {
    return builder.requestGroups(groups);
  }

  /**
   * Makes the budget of threads elastic (McClure et al., NSDI'22, Section 4.1): {@code policy}
   * resizes it every {@code period} within [{@code minWorkers}, workers].
   */
  public static Scheduler.Builder elasticBudget(
      Scheduler.Builder builder, BudgetPolicy policy, int minWorkers, Duration period) {
    return builder.elasticBudget(policy, minWorkers, period);
  }

  /**
   * Changes the tuning a builder holds, whether or not {@link Scheduler.Builder#tuning} was called:
   * for tools that hand a builder on to be configured further (a replay's target sets the queue's
   * capacity, its command the admission and the slack).
   */
  public static Scheduler.Builder retune(Scheduler.Builder builder, UnaryOperator<Tuning> change) {
    builder.settings.tuning = change.apply(builder.settings.tuning);
    return builder;
  }

  /** Makes the built scheduler report every decision of its dispatch core to {@code listener}. */
  public static Scheduler.Builder decisionListener(
      Scheduler.Builder builder, Dispatcher.DecisionListener listener) {
    return builder.decisionListener(listener);
  }
}
