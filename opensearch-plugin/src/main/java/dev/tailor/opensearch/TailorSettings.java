package dev.tailor.opensearch;

import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import java.util.List;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Setting.Property;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.common.util.concurrent.OpenSearchExecutors;

/** The plugin's node settings. */
final class TailorSettings {

  private static final String POLICY_KEY = "tailor.policy";

  /**
   * The Tailor policy specification, as {@link PolicyRegistry#of} parses it ({@code seq}, {@code
   * fixed:2}, {@code rampup:10ms,4}, {@code fm:/path/table.json}, ...). Dynamic: an update swaps
   * the policy of the node's running scheduler, on the same threads and queue, without losing a
   * request. Default {@value Scheduler#DEFAULT_POLICY}, the scheduler's own default: no table, a
   * free thread helps a running query phase, an arriving one takes a helper's thread within about a
   * millisecond. A specification that fails to parse is refused when it is set; one naming a table
   * file validates the file on the node that validates the update, so the file must be on every
   * node at the same path.
   */
  static final Setting<String> POLICY =
      Setting.simpleString(
          POLICY_KEY,
          Scheduler.DEFAULT_POLICY,
          TailorSettings::validatePolicy,
          Property.NodeScope,
          Property.Dynamic);

  /**
   * The thread budget of the node's scheduler: helper threads, and slots shared with the search
   * threads running query phases. Dynamic; default the node's allocated processors. A scheduler
   * fixes its budget when it is built, so a change builds a new one, which takes every query phase
   * from then on while the old one finishes its own.
   */
  static final Setting<Integer> WORKERS =
      new Setting<>(
          "tailor.workers",
          s -> Integer.toString(OpenSearchExecutors.allocatedProcessors(s)),
          s -> Setting.parseInt(s, 1, "tailor.workers"),
          Property.NodeScope,
          Property.Dynamic);

  /**
   * How many query phases may wait for admission at once; beyond it a query phase runs on its own
   * thread without Tailor (counted as unscheduled), never rejected. Dynamic; default 1000, as the
   * search thread pool's queue. Fixed, as the budget is, when a scheduler is built: a change builds
   * a new one, as a change of {@link #WORKERS} does.
   */
  static final Setting<Integer> QUEUE_CAPACITY =
      Setting.intSetting("tailor.queue_capacity", 1000, 1, Property.NodeScope, Property.Dynamic);

  /**
   * Whether Tailor schedules this node's searches. Dynamic; default {@code true}. Off, the node
   * searches as OpenSearch does without the plugin: slices go to OpenSearch's own {@code
   * index_searcher} pool, no query phase enters a scheduler, and the decider decides nothing, so
   * that OpenSearch's own configurations and Tailor's can be compared on the same running nodes.
   * Query phases open when it changes finish as they started.
   */
  static final Setting<Boolean> ENABLED =
      Setting.boolSetting("tailor.enabled", true, Property.NodeScope, Property.Dynamic);

  /**
   * Whether Tailor's concurrent-search decider takes part in OpenSearch's mode {@code auto} ({@link
   * TailorDecider}). Dynamic; default {@code true}. Off, mode {@code auto} decides as OpenSearch
   * does without Tailor (concurrent only for supported aggregations). No effect under modes {@code
   * all} and {@code none}, which ask no decider.
   */
  static final Setting<Boolean> DECIDER_ENABLED =
      Setting.boolSetting("tailor.decider.enabled", true, Property.NodeScope, Property.Dynamic);

  /**
   * The decider's short-request cut: a shard request whose predicted sequential time is below it
   * runs sequentially, as the papers' policies run short requests alone. Dynamic; default 1 ms; 0
   * sends every request with a prediction to the scheduler.
   */
  static final Setting<TimeValue> DECIDER_MIN_COST =
      Setting.timeSetting(
          "tailor.decider.min_cost",
          TimeValue.timeValueMillis(1),
          TimeValue.ZERO,
          Property.NodeScope,
          Property.Dynamic);

  private TailorSettings() {}

  static List<Setting<?>> all() {
    return List.of(ENABLED, POLICY, WORKERS, QUEUE_CAPACITY, DECIDER_ENABLED, DECIDER_MIN_COST);
  }

  /**
   * Creates the policy once, to refuse a bad specification with the registry's message, and a
   * clairvoyant one: it reads each request's known sequential time, which a query phase does not
   * carry (the decider's figure is a prediction, not a known time).
   */
  private static void validatePolicy(String spec) {
    try (Policy checked = PolicyRegistry.of(spec)) {
      if (checked.clairvoyant()) {
        throw new IllegalArgumentException(
            "policy ["
                + checked.spec()
                + "] is clairvoyant: it needs each request's known sequential time, which"
                + " OpenSearch's query phases do not carry; use its predicting counterpart");
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "invalid [" + POLICY_KEY + "] value [" + spec + "]: " + e.getMessage(), e);
    }
  }
}
