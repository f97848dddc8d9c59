package dev.tailor.cli;

import dev.tailor.core.io.AtomicFiles;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.table.Digests;
import dev.tailor.load.fidelity.MeasuredReport;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.Peer;
import dev.tailor.sim.Simulator;
import dev.tailor.sweep.CapacityPlan;
import dev.tailor.sweep.PlanReport;
import dev.tailor.sweep.PlanValidation;
import dev.tailor.sweep.SweepWorkload;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tailor plan}: which policy holds a P99 target to the highest load on each core count, and
 * the cores a peak load needs, by simulation ({@link CapacityPlan}); optionally beside a real
 * replay's report ({@link PlanValidation}).
 */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    description = {
      "Plan capacity by simulation: per core count, the policy that holds a P99 target up to the"
          + " highest load, its predicted P50 and P99 with intervals over seeds, and the fewest"
          + " cores for --peak; writes plan.md, plan.json, plan.png and the tuned Few-to-Many"
          + " tables into --out."
    })
final class PlanCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @ArgGroup(exclusive = true, multiplicity = "1")
  WorkloadSource source;

  @Mixin CalibrationOption calibration;

  @Option(
      names = "--target-p99",
      required = true,
      paramLabel = "DURATION",
      converter = LatencyTarget.class,
      description = "The P99 to hold, e.g. 20ms.")
  long target;

  @Option(
      names = "--rps",
      required = true,
      paramLabel = "LOADS",
      description = "The loads, requests/s: a list (100,200,400) or a range LOW..HIGH (5 loads).")
  String rps;

  @Option(
      names = "--cores",
      split = ",",
      defaultValue = "2,4,8,16",
      paramLabel = "N",
      description = "The core counts (default ${DEFAULT-VALUE}).")
  List<Integer> cores;

  @Option(
      names = "--peak",
      paramLabel = "RPS",
      description = "A peak load: the fewest of the core counts that hold the target there.")
  Double peak;

  @Option(
      names = "--policies",
      paramLabel = "POLICIES",
      description =
          "The candidates, comma-separated; fm-tuned is fm-wc on a table tuned per core count, and"
              + " the plain-Lucene peers (lucene, lucene-executor, elasticsearch, opensearch,"
              + " opensearch:auto) run with a pool of one thread per core unless given :N"
              + " (default: seq, fixed:2, adaptive, wq-linear, steal-first, admit-first,"
              + " fm-tuned).")
  String policies;

  @Option(
      names = "--max-degree",
      defaultValue = "4",
      paramLabel = "N",
      description = "The degree cap of every policy (default ${DEFAULT-VALUE}).")
  int maxDegree;

  @Option(
      names = "--seeds",
      defaultValue = "3",
      paramLabel = "N",
      description = "Arrival seeds a point (default ${DEFAULT-VALUE}).")
  int seeds;

  @Option(
      names = "--seed",
      defaultValue = "" + SweepOptions.DEFAULT_SEED,
      paramLabel = "S",
      description = "The first seed (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--requests",
      defaultValue = "10000",
      paramLabel = "N",
      description = "Requests a point, 10%% of them warm-up (default ${DEFAULT-VALUE}).")
  int requests;

  @Option(
      names = "--model",
      defaultValue = "fluid",
      description = "fluid or units (default ${DEFAULT-VALUE}).")
  Simulator.WorkModel model;

  @Mixin Quantum quantum;

  @Option(
      names = "--utilizations",
      split = ",",
      defaultValue = "0.8,0.9,1.0",
      description = "fm-tuned: the utilizations to try (default ${DEFAULT-VALUE}).")
  List<Double> utilizations;

  @Option(
      names = "--queue-factors",
      split = ",",
      defaultValue = "1.0,1.2,1.4,1.6",
      description = "fm-tuned: the queue factors to try (default ${DEFAULT-VALUE}).")
  List<Double> queueFactors;

  @Option(
      names = "--validate",
      paramLabel = "REPORT",
      description = "A replay's report: its measured points beside the plan's predictions.")
  Path validate;

  @Option(names = "--out", paramLabel = "DIR", description = "The plan's directory.")
  Path out;

  /** What a tuned table records as the digest of a generated workload, which has no file. */
  static final String GENERATED_DIGEST = "sha256:" + "0".repeat(64);

  /** How many loads a range LOW..HIGH gives, evenly spaced. */
  static final int RANGE_LOADS = 5;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    int most = cores.stream().mapToInt(Integer::intValue).max().orElse(1);
    SweepWorkload workload = source.read(spec, requests, most, seed);
    DemandProfile profile = workload.profile();
    Calibration charged = calibration.load(profile, err);
    MeasuredReport report = validate == null ? null : MeasuredReport.read(validate);
    Path dir = out != null ? out : SweepOptions.defaultReportDir("plan");
    Files.createDirectories(dir);
    CapacityPlan.Settings settings =
        Usage.check(
            spec,
            "",
            () ->
                new CapacityPlan.Settings(
                    cores,
                    loads(rps),
                    peak,
                    target,
                    policies == null ? CapacityPlan.DEFAULT_POLICIES : candidates(policies),
                    maxDegree,
                    seeds,
                    seed,
                    requests,
                    model,
                    Usage.duration(spec, "--quantum", quantum.quantum),
                    charged,
                    utilizations,
                    queueFactors,
                    dir,
                    report == null ? null : PlanValidation.cores(report),
                    report == null ? List.of() : PlanValidation.loads(report)));
    // A target no policy can meet, or a calibration refused on a core count, ends the command
    // with its reason alone (tailor plan: no policy can meet ...), not a table of failures.
    CapacityPlan.Result plan =
        CapacityPlan.plan(
            profile,
            workload.corpus(),
            workload.reported(),
            source.profile == null ? workload.reported() : source.profile.toString(),
            source.profile == null ? GENERATED_DIGEST : Digests.sha256(source.profile),
            settings,
            err);
    StringBuilder md = new StringBuilder(PlanReport.markdown(plan));
    if (report != null) {
      md.append(PlanValidation.markdown(plan, report, PlanValidation.of(plan, report)));
    }
    AtomicFiles.writeString(dir.resolve("plan.md"), md.toString());
    PlanReport.writeJson(plan, dir.resolve("plan.json"));
    PlanReport.plot(plan, dir.resolve("plan.png"));
    PrintWriter o = spec.commandLine().getOut();
    o.print(md);
    o.printf("plan: %s (plan.md, plan.json, plan.png)%n", dir);
    o.flush();
    return 0;
  }

  /**
   * {@code --rps}: a list, or a range {@code LOW..HIGH} as {@value #RANGE_LOADS} loads evenly
   * spaced from LOW to HIGH.
   *
   * @throws IllegalArgumentException naming the option if a load is not a positive number
   */
  static List<Double> loads(String text) {
    List<Double> out = new ArrayList<>();
    try {
      if (text.contains("..")) {
        String[] ends = text.split("\\.\\.", 2);
        double low = Double.parseDouble(ends[0].trim());
        double high = Double.parseDouble(ends[1].trim());
        if (!(low > 0 && high > low)) {
          throw new IllegalArgumentException(
              "--rps: a range needs 0 < LOW < HIGH, got '" + text + "'");
        }
        for (int i = 0; i < RANGE_LOADS; i++) {
          out.add(low + (high - low) * i / (RANGE_LOADS - 1));
        }
        return out;
      }
      for (String part : text.split(",")) {
        out.add(Double.parseDouble(part.trim()));
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT, "--rps: expected loads such as 100,200 or 100..500, got '%s'", text));
    }
    return out;
  }

  /**
   * The candidates of {@code --policies}: Tailor's policies as the registry splits them, then the
   * plain-Lucene peers, which are no policy of the registry's and never hold a comma.
   */
  static List<String> candidates(String list) {
    List<String> pieces = List.of(list.split(",", -1));
    String policies = String.join(",", pieces.stream().filter(p -> !Peer.isSpec(p)).toList());
    List<String> out =
        new ArrayList<>(policies.isBlank() ? List.of() : PolicyRegistry.standard().split(policies));
    pieces.stream().filter(Peer::isSpec).map(String::trim).forEach(out::add);
    return out;
  }
}
