package dev.tailor.core.policy;

import dev.tailor.core.Internal;
import dev.tailor.core.metrics.RequestRecord;

/**
 * A policy seen through another: every question goes to the wrapped policy unless the subclass
 * answers it itself, and closing this policy closes the wrapped one. Only the built-in wrappers
 * ({@link DegreeCap}, a worker-preference suffix) are one.
 */
@Internal
public abstract sealed class ForwardingPolicy implements Policy
    permits DegreeCap, PreferenceOverride {

  /** The wrapped policy. */
  final Policy policy;

  ForwardingPolicy(Policy policy) {
    this.policy = policy;
  }

  @Override
  public Admission admit(RequestView request, SystemView system) {
    return policy.admit(request, system);
  }

  @Override
  public int degree(RequestView request, SystemView system) {
    return policy.degree(request, system);
  }

  @Override
  public WorkerPreference workerPreference(SystemView system) {
    return policy.workerPreference(system);
  }

  @Override
  public boolean clairvoyant() {
    return policy.clairvoyant();
  }

  @Override
  public void completed(RequestRecord record, SystemView system) {
    policy.completed(record, system);
  }

  @Override
  public boolean watchesProgress() {
    return policy.watchesProgress();
  }

  @Override
  public long longThresholdNanos() {
    return policy.longThresholdNanos();
  }

  @Override
  public long tableSwaps() {
    return policy.tableSwaps();
  }

  @Override
  public String spec() {
    return policy.spec();
  }

  @Override
  public PolicySpec identity() {
    return policy.identity();
  }

  @Override
  public void close() {
    policy.close();
  }
}
