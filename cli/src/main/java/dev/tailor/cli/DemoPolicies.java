package dev.tailor.cli;

import dev.tailor.core.Scheduler;
import dev.tailor.load.LuceneTarget;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which of its policies {@code tailor demo} runs: the ones {@code --policies} names, every one with
 * {@code all}, or by default {@link #DEFAULT_POLICIES}; and the plain Lucene baselines among them.
 */
final class DemoPolicies {

  /**
   * The policies the demo runs unless {@code --policies} says otherwise, by name: plain Lucene
   * alone, with its own executor of one thread per core, and under Elasticsearch's slicing rule on
   * one pool of one thread per core (what deployments run today), the recommended Tailor
   * configuration (the scheduler's default, {@value Scheduler#DEFAULT_POLICY} with prompt
   * admission: no table), the clairvoyant oracle (the ceiling), and one paper policy (Few-to-Many
   * with its paper table). {@code --policies all} runs every policy of the demo.
   */
  static final List<String> DEFAULT_POLICIES =
      List.of(
          LuceneTarget.PLAIN,
          LuceneTarget.EXECUTOR,
          LuceneTarget.ELASTICSEARCH,
          Scheduler.DEFAULT_POLICY,
          "oracle",
          "fm");

  /** What {@code --policies} takes for every policy of the demo. */
  static final String ALL = "all";

  private final List<String> chosen;

  /**
   * @param only {@code --policies}, or null for the default
   */
  DemoPolicies(List<String> only) {
    this.chosen = only == null ? DEFAULT_POLICIES : List.copyOf(only);
  }

  /**
   * Whether the demo runs any of these policies (by name): {@code --policies} names one, or is
   * {@code all}, or is not given and {@link #DEFAULT_POLICIES} names one.
   */
  boolean wants(String... names) {
    return chosen.contains(ALL) || Arrays.stream(names).anyMatch(chosen::contains);
  }

  /**
   * The plain Lucene baselines the demo runs ({@link LuceneTarget}), in {@code --policies}' order:
   * {@code lucene}, {@code lucene-executor:CORES} and {@code elasticsearch:CORES} by default or
   * with {@code all}; a bare {@code lucene-executor} or {@code elasticsearch} gets one thread per
   * core.
   *
   * @param only {@code --policies}, or null
   * @throws IllegalArgumentException naming a baseline whose arguments are bad
   */
  static List<String> baselines(List<String> only, int cores) {
    List<String> asked = only == null || only.contains(ALL) ? DEFAULT_POLICIES : only;
    List<String> out = new ArrayList<>();
    for (String listed : asked) {
      String name = listed.trim();
      String p =
          name.equals(LuceneTarget.EXECUTOR) || name.equals(LuceneTarget.ELASTICSEARCH)
              ? name + ":" + cores
              : listed;
      if (LuceneTarget.isSpec(p)) {
        LuceneTarget.executorThreads(p); // fails now, naming what was expected
        out.add(p.trim());
      }
    }
    return out;
  }
}
