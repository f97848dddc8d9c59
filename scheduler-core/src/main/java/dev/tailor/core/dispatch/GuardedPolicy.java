package dev.tailor.core.dispatch;

import dev.tailor.core.FailureLog;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.policy.WorkerPreference;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The policy's questions, each guarded once: a policy that throws (from any method, {@link
 * Policy#spec()} included) or answers null is reported to the {@link FailureLog}, and a safe
 * default is used instead: start with one thread, help first, keep the degree, use the configured
 * threshold. So nothing a policy does can escape into the dispatch and leave a request half
 * admitted.
 */
final class GuardedPolicy {

  /** What {@link #degree} answers when the policy failed: the request keeps its degree. */
  static final int FAILED = Integer.MIN_VALUE;

  /** The policy asked now, with its name for failure reports (spec() read once, guarded). */
  record Current(Policy policy, String name, boolean hearsCompletions) {}

  private volatile Current current;
  private final FailureLog failures;
  private final BooleanSupplier exclusionHeld;

  /**
   * @param exclusionHeld whether the calling thread holds the host's exclusion: the completion hook
   *     and the long threshold assert that it does not
   */
  GuardedPolicy(Policy policy, FailureLog failures, BooleanSupplier exclusionHeld) {
    this.current = current(policy);
    this.failures = failures;
    this.exclusionHeld = exclusionHeld;
  }

  /**
   * The policy with its name, and whether it hears completions (overrides {@link
   * Policy#completed}), asked once, when it is set, and outside the host's exclusion: {@code
   * spec()} is the policy's code.
   */
  static Current current(Policy policy) {
    Objects.requireNonNull(policy, "policy");
    boolean hears;
    try {
      hears =
          policy
                  .getClass()
                  .getMethod("completed", RequestRecord.class, SystemView.class)
                  .getDeclaringClass()
              != Policy.class;
    } catch (NoSuchMethodException | SecurityException e) {
      hears = true;
    }
    return new Current(policy, nameOf(policy), hears);
  }

  /** Whether the policy hears completions: a host may skip making the record otherwise. */
  boolean hearsCompletions() {
    return current.hearsCompletions;
  }

  /** The policy asked now. */
  Policy policy() {
    return current.policy;
  }

  /**
   * Asks {@code policy} every later question instead of the current one, which it returns. A
   * question already being answered (a degree asked without the host's exclusion) may still reach
   * the old policy.
   */
  Policy swap(Current next) {
    Current old = current;
    current = next;
    return old.policy;
  }

  private static String nameOf(Policy policy) {
    try {
      return "policy " + policy.spec();
    } catch (Throwable e) {
      return "policy " + policy.getClass().getName() + " (whose spec() threw " + e + ")";
    }
  }

  /** The policy's degree for a running request, at least zero, or {@link #FAILED}. */
  int degree(RequestView request, SystemView view) {
    Current c = current;
    try {
      return Math.max(0, c.policy.degree(request, view));
    } catch (Throwable e) {
      failures.report("policy.degree", c.name + ": the degree is kept", e);
      return FAILED;
    }
  }

  /**
   * Tells the policy that a request has completed, never under the host's exclusion; what it throws
   * is reported and ignored.
   */
  void completed(RequestRecord record, SystemView view) {
    assert !exclusionHeld.getAsBoolean() : "Policy.completed asked under the dispatch lock";
    Current c = current;
    try {
      c.policy.completed(record, view);
    } catch (Throwable e) {
      failures.report("policy.completed", c.name + ": ignored", e);
    }
  }

  /** The policy's own long threshold if it states one, else {@code configured}. */
  long longThresholdNanos(long configured) {
    assert !exclusionHeld.getAsBoolean()
        : "Policy.longThresholdNanos asked under the dispatch lock";
    Current c = current;
    try {
      long t = c.policy.longThresholdNanos();
      return t > 0 ? t : configured;
    } catch (Throwable e) {
      failures.report(
          "policy.longThresholdNanos", c.name + ": the configured threshold is used", e);
      return configured;
    }
  }

  /** The policy's admission of the head; start with one thread if it failed. */
  Admission admit(RequestView head, SystemView view) {
    Current c = current;
    try {
      Admission a = c.policy.admit(head, view);
      return a != null ? a : Admission.start(1);
    } catch (Throwable e) {
      failures.report("policy.admit", c.name + ": the request starts with one thread", e);
      return Admission.start(1);
    }
  }

  /** Whether a free thread helps before it admits; help first if the policy failed. */
  boolean helpFirst(SystemView view) {
    WorkerPreference p;
    Current c = current;
    try {
      p = c.policy.workerPreference(view);
    } catch (Throwable e) {
      failures.report("policy.workerPreference", c.name + ": a free worker helps first", e);
      return true;
    }
    return p == null || p == WorkerPreference.HELP_FIRST;
  }
}
