package dev.tailor.core.policy;

import dev.tailor.core.Experimental;
import dev.tailor.core.Internal;

/**
 * One degree cap for every policy of a comparison: a policy seen through a cap never starts a
 * request, nor raises one, above {@code maxDegree} threads. Comparisons state one cap that applies
 * to all their policies, so that no policy wins merely by reaching a degree the others may not (the
 * Few-to-Many paper caps its own policy at 4 while Adaptive's speedup curve reaches 6).
 *
 * <p>The capped policy keeps the specification, the worker preference and the lifecycle of the one
 * it wraps: closing the cap closes the policy.
 */
@Internal
@Experimental
public final class DegreeCap extends ForwardingPolicy {

  private final int maxDegree;

  private DegreeCap(Policy policy, int maxDegree) {
    super(policy);
    this.maxDegree = maxDegree;
  }

  /**
   * The policy with its degrees capped at {@code maxDegree}.
   *
   * @throws IllegalArgumentException if {@code maxDegree < 1}
   */
  public static Policy of(Policy policy, int maxDegree) {
    if (maxDegree < 1) {
      throw new IllegalArgumentException("the degree cap must be >= 1, got " + maxDegree);
    }
    return new DegreeCap(policy, maxDegree);
  }

  /** The cap. */
  public int maxDegree() {
    return maxDegree;
  }

  @Override
  public Admission admit(RequestView request, SystemView system) {
    Admission a = policy.admit(request, system);
    return a != null && a.kind() == Admission.Kind.START && a.degree() > maxDegree
        ? Admission.start(maxDegree)
        : a;
  }

  @Override
  public int degree(RequestView request, SystemView system) {
    return Math.min(maxDegree, policy.degree(request, system));
  }
}
