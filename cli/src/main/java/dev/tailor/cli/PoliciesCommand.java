package dev.tailor.cli;

import dev.tailor.core.policy.PolicyFactory;
import dev.tailor.core.policy.PolicyRegistry;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Lists the policies the registry knows, with the form of their specification. */
@Command(
    name = "policies",
    mixinStandardHelpOptions = true,
    description = "List the scheduling policies and how to configure them.")
final class PoliciesCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    PrintWriter out = spec.commandLine().getOut();
    int width = 0;
    for (PolicyFactory f : PolicyRegistry.standard().factories()) {
      width = Math.max(width, f.usage().length());
    }
    for (PolicyFactory f : PolicyRegistry.standard().factories()) {
      out.printf("  %-" + width + "s  %s%n", f.usage(), f.description());
    }
    out.flush();
  }
}
