package dev.tailor.auto;

import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;

/**
 * A crafted live policy: one request at a time on one thread, which saturates at any load, so that
 * a rebuild's guard always finds something better.
 */
final class OneAtATime implements Policy {
  @Override
  public Admission admit(RequestView request, SystemView system) {
    return system.activeRequests() > 0 ? Admission.awaitExit() : Admission.start(1);
  }

  @Override
  public int degree(RequestView request, SystemView system) {
    return 1;
  }

  @Override
  public String spec() {
    return "one-at-a-time";
  }
}
