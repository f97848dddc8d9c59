package dev.tailor.core.policy;

import java.util.Locale;

/**
 * A request's priority class: who a free slot of the thread budget goes to, before any policy
 * decides degrees. Free slots go to the highest class with work, and a helper working on a request
 * of a lower class leaves at its next unit boundary when work of a higher class waits (promptness,
 * as in Singer et al., "Prompt I-Cilk", SPAA'23, Section 3: no worker does lower-priority work
 * while higher-priority work waits, checked at every task boundary rather than on a timer). Within
 * a class, requests are admitted oldest first. A lower class keeps a floor of threads whenever it
 * has work, so that it is never starved; see {@code Scheduler.Builder.classShare}.
 *
 * <p>With every request in one class, the scheduler behaves exactly as without classes.
 */
public enum PriorityClass {
  /** Latency-sensitive requests: the highest class, and every request's default. */
  INTERACTIVE,
  /** Throughput work (reindexing, exports, analytics): runs on what interactive work leaves. */
  BACKGROUND;

  /** The class's name as written in options and request parameters: lower case. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The class named {@code name}, case-insensitively.
   *
   * @param what what the name is, for the error (for example {@code "request parameter class"})
   * @throws IllegalArgumentException naming {@code what}, the value and the classes expected
   */
  public static PriorityClass parse(String name, String what) {
    if (name != null) {
      for (PriorityClass c : values()) {
        if (c.label().equalsIgnoreCase(name.strip())) {
          return c;
        }
      }
    }
    return failParse(name, what);
  }

  private static PriorityClass failParse(String name, String what) {
    throw new IllegalArgumentException(
        what + ": unknown priority class '" + name + "', expected interactive or background");
  }
}
