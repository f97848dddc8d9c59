package dev.tailor.lucene;

import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.policy.WorkerPreference;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A random degree at every question, so that degrees change in the middle of queries: at every unit
 * boundary and every tick. Admission and the free worker's preference are random too.
 */
final class ChaosPolicy implements Policy {
  private final int maxDegree;
  private final boolean watchesProgress;

  ChaosPolicy(int maxDegree) {
    this(maxDegree, false);
  }

  /** With {@code watchesProgress}, the searches claim their windows as for a progress policy. */
  ChaosPolicy(int maxDegree, boolean watchesProgress) {
    this.maxDegree = maxDegree;
    this.watchesProgress = watchesProgress;
  }

  @Override
  public boolean watchesProgress() {
    return watchesProgress;
  }

  @Override
  public Admission admit(RequestView request, SystemView system) {
    return Admission.start(ThreadLocalRandom.current().nextInt(maxDegree + 1));
  }

  @Override
  public int degree(RequestView request, SystemView system) {
    return ThreadLocalRandom.current().nextInt(maxDegree + 1);
  }

  @Override
  public WorkerPreference workerPreference(SystemView system) {
    return ThreadLocalRandom.current().nextBoolean()
        ? WorkerPreference.HELP_FIRST
        : WorkerPreference.ADMIT_FIRST;
  }

  @Override
  public String spec() {
    return (watchesProgress ? "chaos-probing:" : "chaos:") + maxDegree;
  }
}
