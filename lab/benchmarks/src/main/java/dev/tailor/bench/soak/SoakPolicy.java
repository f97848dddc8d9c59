package dev.tailor.bench.soak;

import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.policy.WorkerPreference;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * The fault soak's policy ({@link FaultSoak}). Answers each request from one of the table-driven
 * policies or {@code auto} (by its id), a tenth of the questions with a random degree or admission
 * instead, and throws at one question in ten thousand. Allocates nothing.
 */
final class SoakPolicy implements Policy {
  private static final int THROW_ONE_IN = 10_000;
  private static final int CHAOS_PERCENT = 10;

  private final Policy[] policies;
  private final int maxDegree;
  final LongAdder thrown = new LongAdder();

  SoakPolicy(Policy[] policies, int maxDegree) {
    this.policies = policies;
    this.maxDegree = maxDegree;
  }

  private Policy of(RequestView r) {
    return policies[(int) Long.remainderUnsigned(r.id(), policies.length)];
  }

  private void maybeThrow(ThreadLocalRandom random) {
    if (random.nextInt(THROW_ONE_IN) == 0) {
      thrown.increment();
      throw new IllegalStateException("soak: a policy failure on purpose");
    }
  }

  @Override
  public Admission admit(RequestView request, SystemView system) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    maybeThrow(random);
    if (random.nextInt(100) >= CHAOS_PERCENT) {
      return of(request).admit(request, system);
    }
    int roll = random.nextInt(100);
    if (roll < 2) {
      return Admission.delayUntil(system.nanoTime() + random.nextLong(100_000));
    }
    return roll < 6 ? Admission.awaitExit() : Admission.start(random.nextInt(maxDegree + 1));
  }

  @Override
  public int degree(RequestView request, SystemView system) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    maybeThrow(random);
    return random.nextInt(100) < CHAOS_PERCENT
        ? random.nextInt(maxDegree + 1)
        : of(request).degree(request, system);
  }

  /** Every policy hears every request end: {@code auto} learns from all of them. */
  @Override
  public void completed(RequestRecord record, SystemView system) {
    for (Policy p : policies) {
      p.completed(record, system);
    }
  }

  @Override
  public String spec() {
    return "soak(fm,tpc,tc,auto)";
  }

  @Override
  public WorkerPreference workerPreference(SystemView system) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    maybeThrow(random);
    return random.nextBoolean() ? WorkerPreference.HELP_FIRST : WorkerPreference.ADMIT_FIRST;
  }

  @Override
  public long longThresholdNanos() {
    return policies[1].longThresholdNanos();
  }
}
