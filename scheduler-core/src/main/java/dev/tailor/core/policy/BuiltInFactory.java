package dev.tailor.core.policy;

import java.util.function.Function;

/**
 * A built-in policy's factory: its name, usage and description, and what makes the policy from the
 * specification's typed arguments.
 *
 * @param create makes the policy from a specification of this kind without a suffix; throws {@link
 *     IllegalArgumentException} saying what was expected
 */
record BuiltInFactory(
    String name, String usage, String description, Function<PolicySpec, Policy> create)
    implements PolicyFactory {

  /** Reads {@code args} as the text after {@code name:} of a specification. */
  @Override
  public Policy create(String args) {
    PolicySpec spec = PolicySpec.parse(args.isBlank() ? name : name + ":" + args);
    if (spec.preference().isPresent()) {
      throw new IllegalArgumentException(
          "the arguments '" + args + "' end in a suffix, which the registry reads, not a factory");
    }
    return create(spec);
  }

  @Override
  public Policy create(PolicySpec spec) {
    return create.apply(spec);
  }
}
