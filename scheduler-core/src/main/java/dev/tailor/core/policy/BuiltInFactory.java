package dev.tailor.core.policy;

import java.util.function.Function;

/**
 * A built-in policy's factory: its name, usage and description, and what makes the policy from the
 * specification's arguments.
 *
 * @param create makes the policy from the text after the colon; throws {@link
 *     IllegalArgumentException} saying what was expected
 */
record BuiltInFactory(
    String name, String usage, String description, Function<String, Policy> create)
    implements PolicyFactory {

  @Override
  public Policy create(String args) {
    return create.apply(args);
  }
}
