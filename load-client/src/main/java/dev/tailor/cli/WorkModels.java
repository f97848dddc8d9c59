package dev.tailor.cli;

import dev.tailor.core.sim.Simulator;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** The {@code --model} option's values: the simulator's work models by lower-case name. */
final class WorkModels {

  private WorkModels() {}

  static Simulator.WorkModel parse(CommandSpec spec, String name) {
    for (Simulator.WorkModel m : Simulator.WorkModel.values()) {
      if (m.name().toLowerCase(Locale.ROOT).equals(name)) {
        return m;
      }
    }
    throw new ParameterException(
        spec.commandLine(), "--model: expected fluid or units, got '" + name + "'");
  }
}
