package dev.tailor.core.dispatch;

import dev.tailor.core.FailureLog;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.policy.WorkerPreference;
import java.util.Objects;

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

  private final Policy policy;
  private final String name; // for failure reports: spec() read once, guarded
  private final FailureLog failures;

  GuardedPolicy(Policy policy, FailureLog failures) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.name = nameOf(policy);
    this.failures = failures;
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
    try {
      return Math.max(0, policy.degree(request, view));
    } catch (Throwable e) {
      failures.report("policy.degree", name + ": the degree is kept", e);
      return FAILED;
    }
  }

  /** Tells the policy that a request has completed; what it throws is reported and ignored. */
  void exited(RequestView request, SystemView view) {
    try {
      policy.exited(request, view);
    } catch (Throwable e) {
      failures.report("policy.exited", name + ": ignored", e);
    }
  }

  /** The policy's own long threshold if it states one, else {@code configured}. */
  long longThresholdNanos(long configured) {
    try {
      long t = policy.longThresholdNanos();
      return t > 0 ? t : configured;
    } catch (Throwable e) {
      failures.report("policy.longThresholdNanos", name + ": the configured threshold is used", e);
      return configured;
    }
  }

  /** The policy's admission of the head; start with one thread if it failed. */
  Admission admit(RequestView head, SystemView view) {
    try {
      Admission a = policy.admit(head, view);
      return a != null ? a : Admission.start(1);
    } catch (Throwable e) {
      failures.report("policy.admit", name + ": the request starts with one thread", e);
      return Admission.start(1);
    }
  }

  /** Whether a free thread helps before it admits; help first if the policy failed. */
  boolean helpFirst(SystemView view) {
    WorkerPreference p;
    try {
      p = policy.workerPreference(view);
    } catch (Throwable e) {
      failures.report("policy.workerPreference", name + ": a free worker helps first", e);
      return true;
    }
    return p == null || p == WorkerPreference.HELP_FIRST;
  }
}
