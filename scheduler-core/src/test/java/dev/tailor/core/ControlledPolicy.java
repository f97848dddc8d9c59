package dev.tailor.core;

import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.policy.WorkerPreference;
import java.util.function.BiFunction;

/** A policy a test steers: its answers are fields the test sets while requests run. */
final class ControlledPolicy implements Policy {
  volatile int degree = 1;
  volatile WorkerPreference preference = WorkerPreference.HELP_FIRST;
  volatile BiFunction<RequestView, SystemView, Admission> admission = (r, s) -> null;
  volatile boolean closed;

  @Override
  public Admission admit(RequestView request, SystemView system) {
    Admission a = admission.apply(request, system);
    return a != null ? a : Admission.start(degree);
  }

  @Override
  public int degree(RequestView request, SystemView system) {
    return degree;
  }

  @Override
  public WorkerPreference workerPreference(SystemView system) {
    return preference;
  }

  @Override
  public String spec() {
    return "controlled";
  }

  @Override
  public void close() {
    closed = true;
  }
}
