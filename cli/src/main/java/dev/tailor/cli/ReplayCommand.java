package dev.tailor.cli;

import dev.tailor.core.SchedulerInternals;
import dev.tailor.corpora.trace.IndexedTrace;
import dev.tailor.load.HttpTarget;
import dev.tailor.load.InProcessSweep;
import dev.tailor.load.InProcessTarget;
import dev.tailor.load.LuceneTarget;
import dev.tailor.load.OracleResolver;
import dev.tailor.load.ProfiledTrace;
import dev.tailor.load.Sweep;
import dev.tailor.load.report.PointLine;
import dev.tailor.load.report.ReplayedTrace;
import dev.tailor.load.report.Report;
import dev.tailor.lucene.Windowing;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.predictor.ModelPredictor;
import dev.tailor.sim.HindsightOracle;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tailor replay}: an open-loop sweep of policies and loads, with its report. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = {
      "Replay a trace open-loop against the scheduler, for every policy at every load, and write"
          + " a report: JSON and .hgrm per point, a CSV, a Markdown summary and PNG plots.",
      "Latency counts from each request's intended send time; warm-up is left out."
    })
final class ReplayCommand implements Callable<Integer> {

  /** The in-process admission queue's default limit. */
  static final int DEFAULT_QUEUE = 10_000;

  /** The default number of requests in flight beyond which a point counts as saturated. */
  static final int DEFAULT_MAX_BACKLOG = 2_000;

  @Spec CommandSpec spec;

  @Mixin IndexAndTrace input;

  @Mixin SweepOptions sweep;

  @Mixin PointLength length;

  @Option(
      names = "--server",
      paramLabel = "URL",
      description = "A search server (./tailor serve) to replay against; default: in this process.")
  URI server;

  @Option(
      names = "--workers",
      split = ",",
      paramLabel = "N[,N...]",
      description =
          "In-process parallelism budget (default: this machine's processors). Several counts run"
              + " every policy at each, interleaved within every round, and write a report per"
              + " count (workers-N/ under the report directory); loads given as fractions are of"
              + " the largest count, and each query is cut into the same units at every count.")
  List<Integer> workers;

  @Option(
      names = "--queue",
      defaultValue = "" + DEFAULT_QUEUE,
      description = "In-process admission queue limit (default ${DEFAULT-VALUE}).")
  int queue;

  @Option(
      names = "--units-per-query",
      description =
          "Windows each query is cut into (default: as the drop-in cuts them, "
              + Windowing.DEFAULT_WINDOWS_PER_THREAD
              + " per thread of the budget).")
  Integer unitsPerQuery;

  @Option(
      names = "--max-backlog",
      defaultValue = "" + DEFAULT_MAX_BACKLOG,
      description =
          "Requests in flight beyond which a point counts as saturated (default ${DEFAULT-VALUE}).")
  int maxBacklog;

  @Option(
      names = "--profile",
      paramLabel = "FILE",
      description = "A demand profile of this trace: the queries' times for rc and oracle.")
  Path profile;

  @Option(
      names = "--total-hits",
      paramLabel = "exact|N",
      converter = TotalHitsThreshold.class,
      description =
          "How far each search counts its hits: "
              + TotalHitsThreshold.VALUES
              + ". Default: as the --profile's searches did, else 1000.")
  Integer totalHits;

  @Mixin CalibrationOption calibration;

  @Option(
      names = "--prompt-admission",
      paramLabel = "on|off",
      defaultValue = "on",
      description =
          "Whether the in-process scheduler admits arrivals promptly, its helpers giving way within"
              + " about 1 ms (default ${DEFAULT-VALUE}); off keeps steal-first's free threads on"
              + " running requests.")
  Switch promptAdmission;

  @Mixin Slack slack;

  /** An option that is on or off. */
  enum Switch {
    ON,
    OFF
  }

  @Option(
      names = "--model",
      paramLabel = "FILE",
      description = "A predictor model, watched, for tpc, tp and pred.")
  Path model;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    List<Integer> counts = workers == null ? List.of() : List.copyOf(workers);
    if (counts.stream().anyMatch(w -> w < 1)
        || counts.stream().distinct().count() < counts.size()) {
      throw new ParameterException(
          spec.commandLine(), "--workers: expected counts >= 1, each once, got " + counts);
    }
    boolean perCount = counts.size() > 1;
    int budget =
        counts.isEmpty() ? Runtime.getRuntime().availableProcessors() : Collections.max(counts);
    int fewest = counts.isEmpty() ? budget : Collections.min(counts);
    int slackThreads = slack.checked(spec, fewest, "the fewest workers");
    DemandProfile demand = profile != null ? DemandProfile.read(profile) : null;
    Usage.check(
        spec,
        "",
        () -> {
          sweep.resolveLoads(demand, budget);
          return null;
        });
    List<String> policies = sweep.policies();
    int cap = sweep.degreeCap();
    boolean oracle = policies.stream().anyMatch(HindsightOracle::isTuned);
    if (server != null && cap > 0) {
      throw new ParameterException(
          spec.commandLine(),
          "--max-degree caps the in-process scheduler's policies; a server (--server) runs its own");
    }
    if (perCount && (server != null || oracle)) {
      throw new ParameterException(
          spec.commandLine(),
          "--workers with several counts runs in process and without the tuned oracle (it is tuned"
              + " for one count)");
    }
    if (server == null && oracle && profile == null) {
      throw new ParameterException(
          spec.commandLine(),
          "the tuned oracle needs --profile: it is tuned per load by simulating the profile");
    }
    SweepPlan pointPlan =
        Usage.check(spec, "", () -> length.plan(sweep.arrivals, sweep.seed, sweep.repetitions()));
    Sweep.Plan plan =
        new Sweep.Plan(
                policies,
                sweep.rps,
                pointPlan,
                maxBacklog,
                drainNanos(pointPlan.expectedNanos(Collections.min(sweep.rps))),
                sweep.targetNanos())
            .withRepetitions(sweep.repetitions())
            .withWorkers(perCount ? counts : List.of());
    Path dir = sweep.reportDir("replay");
    String environment =
        "measured on this machine (" + Runtime.getRuntime().availableProcessors() + " cores)";
    try (IndexedTrace opened = input.open();
        ModelPredictor predictor =
            model == null ? null : ModelPredictor.watch(opened.reader(), model)) {
      ProfiledTrace trace = profiled(opened, demand, profile);
      List<InProcessTarget.TraceEntry> entries = trace.entries();
      if (server == null && oracle) {
        plan =
            plan.withResolver(
                OracleResolver.of(
                    trace.inTraceOrder(),
                    plan,
                    budget,
                    cap,
                    opened.manifest().sourceLabel(),
                    calibration.load(demand, err),
                    err));
      }
      err.printf(
          "replaying %d queries of %s on %s (%s): %d policies x %d loads x %d repetitions, %s,"
              + " %s, prompt admission %s%n",
          entries.size(),
          input.trace.getFileName(),
          input.index.getFileName(),
          opened.manifest().sourceLabel(),
          server != null ? 1 : policies.size() * Math.max(1, plan.workers().size()),
          sweep.rps.size(),
          plan.repetitions(),
          length.describe(plan.repetitions()),
          cap == 0
              ? "no degree cap"
              : "degrees capped at "
                  + cap
                  + (server == null && policies.stream().anyMatch(LuceneTarget::isSpec)
                      ? " (not the plain Lucene baselines')"
                      : ""),
          promptAdmission == Switch.ON ? "on" : "off");
      err.flush();
      Sweep.Plan run = server != null ? plan.withPolicies(List.of("server")) : plan;
      Consumer<PointResult> printPoint = pointPrinter(err, run.size());
      List<PointResult> points;
      if (server != null) {
        points =
            Sweep.run(
                run,
                policy -> new HttpTarget(server, trace.texts()),
                entries.size(),
                environment,
                opened.manifest().sourceLabel(),
                printPoint);
      } else {
        err.printf(
            "warming up: every query %d times, then one unrecorded run of every policy%n",
            InProcessSweep.WARM_UP_ROUNDS);
        err.flush();
        points =
            InProcessSweep.run(
                opened.reader(),
                entries,
                run,
                new InProcessSweep.Server(
                    budget,
                    queue,
                    unitsPerQuery != null
                        ? unitsPerQuery
                        : Windowing.DEFAULT_WINDOWS_PER_THREAD * budget,
                    cap,
                    predictor,
                    totalHitsThreshold(trace)),
                environment,
                opened.manifest().sourceLabel(),
                printPoint,
                b ->
                    SchedulerInternals.retune(
                        b,
                        t ->
                            t.withPromptAdmission(promptAdmission == Switch.ON)
                                .withSlack(slackThreads)));
      }
      PrintWriter outw = spec.commandLine().getOut();
      for (int count : perCount ? counts : List.of(0)) {
        // One report per worker count: a report's columns are policies, and fidelity simulates a
        // report at one core count.
        Path at = count == 0 ? dir : dir.resolve("workers-" + count);
        String summary =
            Report.write(
                at,
                points.stream().filter(p -> p.workers() == count).toList(),
                sweep.cdfLoad(),
                trace.workload(),
                ReplayedTrace.of(input.trace, opened.queries().size()),
                new Report.Conditions(cap, Sweep.ORDER).withTarget(sweep.latencyTarget()));
        outw.println(summary);
        outw.printf(
            "report: %s (summary.md, results.csv, p99.png, p999.png, cdf.png%s, points/)%n",
            at, sweep.latencyTarget() > 0 ? ", " + Report.MISS_PLOT + ", " + Report.SUSTAINED : "");
      }
      outw.flush();
    }
    return 0;
  }

  /** How long a point waits for its last answers: its length, and at least 30 s. */
  static long drainNanos(long durationNanos) {
    return Math.max(TimeUnit.SECONDS.toNanos(30), durationNanos);
  }

  /** The opened trace's queries, matched to {@code demand} (read from {@code profile}, or null). */
  static ProfiledTrace profiled(IndexedTrace opened, DemandProfile demand, Path profile) {
    return new ProfiledTrace(
        opened.queries().stream()
            .map(q -> new ProfiledTrace.Query(q.id(), q.category(), q.text(), q.query()))
            .toList(),
        demand,
        profile);
  }

  /** The hits each search counts ({@link ProfiledTrace#totalHitsThreshold}). */
  private int totalHitsThreshold(ProfiledTrace trace) {
    try {
      return trace.totalHitsThreshold(totalHits);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /**
   * Prints each finished point with its figures (the latencies of answered requests; failures
   * counted apart, by kind), which point of {@code total} it was and the time left.
   */
  static Consumer<PointResult> pointPrinter(PrintWriter err, int total) {
    Progress.Points progress = new Progress.Points(total);
    return p -> {
      err.printf("  %s  (%s)%n", PointLine.of(p), progress.pointDone());
      err.flush();
    };
  }
}
