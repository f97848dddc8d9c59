package dev.tailor.core.policy;

import dev.tailor.core.Internal;

/**
 * Creates policies of one kind from their specification arguments. The {@link PolicyRegistry} holds
 * the built-in factories and discovers more through {@link java.util.ServiceLoader}: a library adds
 * a policy by listing its factory in {@code
 * META-INF/services/dev.tailor.core.policy.PolicyFactory}.
 */
@Internal
public interface PolicyFactory {

  /** The name before the colon in a specification, e.g. {@code fixed}. Lower case. */
  String name();

  /** The specification's form, shown in listings and errors, e.g. {@code fixed:N}. */
  String usage();

  /** One line on what the policy does. */
  String description();

  /**
   * Creates a policy.
   *
   * @param args the text after the colon as {@link PolicySpec#argumentText()} writes it (each
   *     argument trimmed, quoted where {@link PolicySpec} needs), or the empty string if there was
   *     none
   * @throws IllegalArgumentException if the arguments do not fit {@link #usage()}; the message says
   *     what was expected
   */
  Policy create(String args);

  /**
   * Creates the policy {@code spec} names, whose {@linkplain PolicySpec#kind() kind} is this
   * factory's {@link #name()} and which has no {@linkplain PolicySpec#preference() preference} (the
   * registry applies that). The default gives {@link #create(String)} the spec's {@linkplain
   * PolicySpec#argumentText() argument text}; a factory that reads the typed arguments overrides
   * it.
   *
   * @throws IllegalArgumentException if the arguments do not fit {@link #usage()}; the message says
   *     what was expected
   */
  default Policy create(PolicySpec spec) {
    return create(spec.argumentText());
  }
}
