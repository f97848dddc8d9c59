package dev.tailor.studies;

import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.load.Sweep;
import dev.tailor.sim.HindsightOracle;
import java.util.ArrayList;
import java.util.List;

/**
 * A sweep's policies as written on a command line, comma-separated: each specification checked
 * against the registry, one with {@value Sweep#LOAD} at each load of the sweep, and a bare {@value
 * HindsightOracle#SPEC} kept as it is for the sweep to tune at every point.
 */
public final class PolicyList {

  private PolicyList() {}

  /**
   * The specifications of {@code list}.
   *
   * @param rates the sweep's loads, requests per second
   * @throws IllegalArgumentException naming what was expected if a specification is unknown or bad,
   *     or the list names none
   */
  public static List<String> parse(String list, List<Double> rates) {
    List<String> out = new ArrayList<>();
    StringBuilder run = new StringBuilder();
    for (String piece : list.split(",", -1)) {
      if (HindsightOracle.isTuned(piece)) {
        addAll(out, run);
        out.add(HindsightOracle.SPEC);
      } else {
        run.append(run.isEmpty() ? "" : ",").append(piece);
      }
    }
    addAll(out, run);
    if (out.isEmpty()) {
      throw new IllegalArgumentException("--policies names no policy");
    }
    for (String spec : out) {
      for (double rate : spec.contains(Sweep.LOAD) ? rates : List.<Double>of()) {
        try {
          PolicyRegistry.standard().splitList(Sweep.atLoad(spec, rate));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("at " + rate + " rps: " + e.getMessage(), e);
        }
      }
    }
    return out;
  }

  /** Adds the specifications of a run of the list without a bare oracle, and empties it. */
  private static void addAll(List<String> out, StringBuilder run) {
    if (!run.toString().isBlank()) {
      for (String spec : PolicyRegistry.standard().split(run.toString())) {
        if (!spec.contains(Sweep.LOAD)) {
          PolicyRegistry.standard().splitList(spec); // fails now, naming what was expected
        }
        out.add(spec);
      }
    }
    run.setLength(0);
  }
}
