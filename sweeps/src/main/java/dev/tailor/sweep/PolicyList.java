package dev.tailor.sweep;

import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.load.LuceneTarget;
import dev.tailor.load.Sweep;
import dev.tailor.sim.HindsightOracle;
import dev.tailor.sim.Peer;
import java.util.ArrayList;
import java.util.List;

/**
 * A sweep's policies as written on a command line, comma-separated: each specification checked
 * against the registry, one with {@value Sweep#LOAD} at each load of the sweep, and a bare {@value
 * HindsightOracle#SPEC} kept as it is for the sweep to tune at every point. A real sweep also takes
 * the plain Lucene baselines ({@link LuceneTarget}), which are no policy of the registry's; a
 * simulated one takes the plain-Lucene peers the simulator models ({@link Peer}), OpenSearch's
 * among them.
 */
public final class PolicyList {

  private PolicyList() {}

  /**
   * The specifications of {@code list} for a real sweep ({@code replay}, {@code demo}), the plain
   * Lucene baselines among them.
   *
   * @param rates the sweep's loads, requests per second
   * @throws IllegalArgumentException naming what was expected if a specification is unknown or bad,
   *     or the list names none
   */
  public static List<String> parse(String list, List<Double> rates) {
    return parse(list, rates, false);
  }

  /**
   * The specifications of {@code list} for a simulated sweep: Tailor's policies and the
   * plain-Lucene peers ({@link Peer}).
   *
   * @param rates the sweep's loads, requests per second
   * @throws IllegalArgumentException as {@link #parse(String, List)} does, naming a peer whose
   *     specification is bad
   */
  public static List<String> parseSimulated(String list, List<Double> rates) {
    return parse(list, rates, true);
  }

  private static List<String> parse(String list, List<Double> rates, boolean simulated) {
    List<String> out = new ArrayList<>();
    StringBuilder run = new StringBuilder();
    for (String piece : list.split(",", -1)) {
      if (HindsightOracle.isTuned(piece)) {
        addAll(out, run);
        out.add(HindsightOracle.SPEC);
      } else if (simulated ? Peer.isSpec(piece) : LuceneTarget.isSpec(piece)) {
        // Taken out before the registry splits the list: it would fail on the unknown name, or
        // after a policy's key=value setting take it for one of that policy's flags.
        addAll(out, run);
        if (simulated) {
          Peer.parse(piece, 1); // fails now, naming what was expected
        } else {
          LuceneTarget.executorThreads(piece); // fails now, naming what was expected
        }
        out.add(piece.trim());
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
