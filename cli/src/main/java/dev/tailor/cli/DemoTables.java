package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.policy.PolicySpec;
import dev.tailor.core.policy.ProgressPolicy;
import dev.tailor.core.table.Digests;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TargetTable;
import dev.tailor.load.Sweep;
import dev.tailor.measure.WorkloadSpread;
import dev.tailor.predictor.PredictorModel;
import dev.tailor.sweep.DemoSweep;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The tables and models the demo's table-driven policies run on, built from its profile by the same
 * commands a user runs ({@code tables build}, {@code tables tune}, {@code predictor}), each rebuilt
 * only when what it was built from changed: Few-to-Many's interval tables, TPC's predictor and
 * target table, tail-control's threshold tables, one per load of the sweep.
 */
final class DemoTables {

  /**
   * Runs a tailor command given as a template whose space-separated words are its arguments, each
   * {@code %s} word replaced by the next value; a failure stops the demo.
   */
  @FunctionalInterface
  interface Runner {
    void run(String template, Object... values);
  }

  private final Path profile;
  private final int cores;
  private final List<Double> loads;
  private final Runner run;
  private final String base;

  /**
   * @param profile the demand profile every table is built from; they land beside it
   * @param cores the cores, and every policy's degree cap
   * @param loads the sweep's loads, requests/s
   * @param run runs a tailor command
   */
  DemoTables(Path profile, int cores, List<Double> loads, Runner run) {
    this.profile = profile;
    this.cores = cores;
    this.loads = List.copyOf(loads);
    this.run = run;
    this.base = profile.getFileName().toString().replace(".json", "");
  }

  /** The sweep's loads as an option value: {@code 938,1641}. */
  private String rates() {
    return loads.stream()
        .map(l -> String.format(Locale.ROOT, "%.0f", l))
        .collect(Collectors.joining(","));
  }

  /**
   * Few-to-Many on tables built from the profile, under the degree cap every policy shares: the
   * paper's rule for {@code fm} (its search with target_p = the cores), and the throughput rule,
   * its inputs tuned at the sweep's loads by {@code tables tune fm} under the runtime's work model
   * (degrees asked at unit boundaries, as the runtime asks them), for {@code fm-wc}. A table is
   * rebuilt when the profile or the rule changed.
   */
  List<String> fewToMany(WorkloadSpread spread, boolean paperTable, boolean tunedTable) {
    String step = Durations.format(DemoSweep.fmStepNanos(spread));
    List<String> out = new java.util.ArrayList<>();
    if (paperTable) {
      Path paper = profile.resolveSibling(base + ".fm-paper-table.json");
      if (!isBuiltFrom(paper, profile, true)) {
        run.run(
            "tables build fm --profile %s --cores %s --mode paper --target-parallelism %s"
                + " --max-degree %s --step %s --out %s",
            profile, cores, cores, cores, step, paper);
      }
      out.add(PolicySpec.ofTables("fm", paper).toString());
    }
    if (tunedTable) {
      Path tuned = profile.resolveSibling(base + ".fm-table.json");
      if (!isBuiltFrom(tuned, profile, false)) {
        run.run(
            "tables tune fm --profile %s --cores %s --max-degree %s --step %s --rps %s"
                + " --requests 10000 --model units --out %s",
            profile, cores, cores, step, rates(), tuned);
      }
      out.add(PolicySpec.ofTables("fm-wc", tuned).toString());
    }
    return out;
  }

  /**
   * What TPC's pipeline gave the sweep.
   *
   * @param policies the policies to add to the sweep
   * @param model the predictor's model file
   * @param predicted the profile with the predictions attached
   */
  record Tpc(List<String> policies, Path model, Path predicted, Path table) {}

  /**
   * TPC's pipeline on the profile, each step skipped when its output is newer than its input: a
   * predictor trained on the profile (held-out figures printed), the profile with every query's
   * prediction attached by 5-fold cross-fitting (no query predicted by a model that saw it), and
   * the target table built over the sweep's loads by simulation under the runtime's work model. The
   * sweep then runs {@code pred} (at the table's long threshold, degree 2 under the cap), {@code
   * tp}, {@code tpc} and {@code tpc-oracle} on that table, the first three predicting each query
   * live as it is sent.
   */
  Tpc tpc() throws IOException {
    Path model = profile.resolveSibling(base + ".model.json");
    Path predicted = profile.resolveSibling(base + ".predicted.json");
    Path table = profile.resolveSibling(base + ".tpc-table.json");
    if (isStale(model, profile) || !isReadableModel(model)) {
      run.run("predictor train --profile %s --out %s", profile, model);
    }
    if (isStale(predicted, model)) {
      run.run(
          "predictor predict --model %s --profile %s --cross-fit 5 --out %s",
          model, profile, predicted);
    }
    if (isStale(table, predicted)) {
      run.run(
          "tables build tpc --profile %s --model %s --cores %s --max-degree %s --rps %s"
              + " --model-of-work units --out %s",
          predicted, model, cores, cores, rates(), table);
    }
    long longFrom = TargetTable.read(table).longThresholdNanos();
    return new Tpc(
        List.of(
            String.format(
                Locale.ROOT, "pred:%dus,%d", Math.max(1, longFrom / 1000), Math.min(3, cores)),
            PolicySpec.ofTables("tp", table).toString(),
            PolicySpec.ofTables("tpc", table).toString(),
            PolicySpec.ofTables("tpc-oracle", table).toString()),
        model,
        predicted,
        table);
  }

  /**
   * Tail-control's policies (Li et al., PPoPP'16): its two baselines, steal-first and admit-first,
   * and {@code tc} and {@code tc-oracle} on a threshold table built from the profile for each load
   * of the sweep at the demo's target ({@code tc:...-{rps}.json}), each table rebuilt when older
   * than the profile.
   */
  List<String> tailControl(long targetNanos) throws IOException {
    Path tables = thresholds(targetNanos);
    return List.of(
        "steal-first",
        "admit-first",
        PolicySpec.ofTables("tc", tables).toString(),
        PolicySpec.ofTables("tc-oracle", tables).toString());
  }

  /**
   * The progress-aware policy on TPC's target table and tail-control's threshold tables, both built
   * as for those policies: {@code progress:TARGETS.json+THRESHOLDS-{rps}.json}.
   */
  String progress(Tpc tpc, long targetNanos) throws IOException {
    return PolicySpec.ofTables(ProgressPolicy.NAME, tpc.table(), thresholds(targetNanos))
        .toString();
  }

  /**
   * Builds a threshold table for each load of the sweep at {@code targetNanos}, each rebuilt when
   * older than the profile, and returns their file pattern, {@code ...-{rps}.json}.
   */
  private Path thresholds(long targetNanos) throws IOException {
    String prefix = base + ".tc-" + Durations.format(targetNanos) + "-";
    for (double load : loads) {
      Path table = profile.resolveSibling(prefix + Sweep.atLoad(Sweep.LOAD, load) + ".json");
      if (isStale(table, profile)) {
        run.run(
            "tables build tc --profile %s --cores %s --rps %s --target %s --out %s",
            profile, cores, Sweep.atLoad(Sweep.LOAD, load), Durations.format(targetNanos), table);
      }
    }
    return profile.resolveSibling(prefix + Sweep.LOAD + ".json");
  }

  /**
   * Whether a cached model is one this Tailor can use: a model of an older feature set (or a
   * damaged file) is trained again rather than failing the demo at the prediction step.
   */
  private static boolean isReadableModel(Path model) {
    try {
      PredictorModel.read(model);
      return true;
    } catch (IOException | IllegalArgumentException e) {
      return false;
    }
  }

  /** Whether {@code output} is missing or older than {@code input}: to be made again. */
  private static boolean isStale(Path output, Path input) throws IOException {
    return !Files.exists(output)
        || Files.getLastModifiedTime(output).compareTo(Files.getLastModifiedTime(input)) < 0;
  }

  /**
   * Whether {@code table} exists, was built from the profile as it is now, and under the rule
   * wanted: the paper's, or the throughput rule with tuned inputs.
   */
  private static boolean isBuiltFrom(Path table, Path profile, boolean paper) {
    if (!Files.exists(table)) {
      return false;
    }
    try {
      IntervalTable.Inputs in = IntervalTable.read(table).inputs();
      return in.profileDigest().equals(Digests.sha256(profile))
          && in.rule().isPaper() == paper
          && (paper || in.tuning() != null);
    } catch (IOException | IllegalArgumentException e) {
      return false; // unreadable or invalid: rebuilt over
    }
  }
}
