package dev.tailor.auto;

import dev.tailor.core.Internal;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyFactory;
import dev.tailor.core.policy.PolicySpec;

/** Registers {@code auto[:SETTINGS]} with the policy registry, found through the service loader. */
@Internal
public final class AutoPolicyFactory implements PolicyFactory {

  /** For the service loader. */
  public AutoPolicyFactory() {}

  @Override
  public String name() {
    return AutoPolicy.NAME;
  }

  @Override
  public String usage() {
    return "auto[:key=value,...]";
  }

  @Override
  public String description() {
    return "learns the workload from the requests it serves, rebuilds the progress-aware"
        + " policy's table in the background and swaps it in only when it simulates better";
  }

  @Override
  public Policy create(String args) {
    return AutoPolicy.create(AutoSettings.parse(args));
  }

  /** Reads the settings from the specification's arguments, one {@code key=value} each. */
  @Override
  public Policy create(PolicySpec spec) {
    return AutoPolicy.create(AutoSettings.parse(spec.arguments()));
  }
}
