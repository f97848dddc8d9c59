package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.Scheduler;
import dev.tailor.core.metrics.PointResult;
import dev.tailor.core.model.DemandProfile;
import dev.tailor.core.policy.RequestView;
import dev.tailor.corpora.trace.TraceQuery;
import dev.tailor.load.HttpTarget;
import dev.tailor.load.InProcessTarget;
import dev.tailor.load.Sweep;
import dev.tailor.load.report.ReplayedTrace;
import dev.tailor.load.report.Report;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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

  @Spec CommandSpec spec;

  @Mixin IndexAndTrace input;

  @Mixin SweepOptions sweep;

  @Option(
      names = "--duration",
      defaultValue = SweepOptions.DEFAULT_DURATION,
      description = "Each point's length, warm-up included (default ${DEFAULT-VALUE}).")
  String duration;

  @Option(
      names = "--warmup",
      defaultValue = SweepOptions.DEFAULT_WARMUP,
      description =
          "Left out of each point's figures: the requests arriving within it, the measured window"
              + " opening at the first request after it (default ${DEFAULT-VALUE}).")
  String warmup;

  @Option(
      names = "--target",
      paramLabel = "URL",
      description = "A search server (./tailor serve) to replay against; default: in this process.")
  URI target;

  @Option(
      names = "--workers",
      description = "In-process parallelism budget (default: this machine's processors).")
  Integer workers;

  @Option(
      names = "--queue",
      defaultValue = "10000",
      description = "In-process admission queue limit (default ${DEFAULT-VALUE}).")
  int queue;

  @Option(
      names = "--units-per-query",
      description = "Units each query is cut into (default: four per thread of the budget).")
  Integer unitsPerQuery;

  @Option(
      names = "--max-backlog",
      defaultValue = "2000",
      description =
          "Requests in flight beyond which a point counts as saturated (default ${DEFAULT-VALUE}).")
  int maxBacklog;

  @Option(
      names = "--profile",
      paramLabel = "FILE",
      description =
          "A demand profile of this trace (./tailor profile): each query's profiled sequential"
              + " time becomes its prediction, which the clairvoyant rc policy uses.")
  Path profile;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    List<String> policies = sweep.policies();
    long durationNanos = Durations.parseNanos(duration);
    long warmupNanos = Durations.parseNanos(warmup);
    Sweep.Plan plan =
        new Sweep.Plan(
            policies,
            sweep.rps,
            SweepPlan.timed(sweep.arrivals, sweep.seed, durationNanos, warmupNanos),
            maxBacklog,
            Math.max(TimeUnit.SECONDS.toNanos(30), durationNanos),
            sweep.targetNanos());
    Path dir = sweep.reportDir("replay");
    int budget = workers != null ? workers : Runtime.getRuntime().availableProcessors();
    String environment =
        "measured on this machine (" + Runtime.getRuntime().availableProcessors() + " cores)";
    try (IndexAndTrace.Opened opened = input.open()) {
      Map<String, Long> predictions = new HashMap<>();
      if (profile != null) {
        for (DemandProfile.Request r : DemandProfile.read(profile).requests()) {
          predictions.put(r.id(), r.sequentialNanos());
        }
      }
      List<InProcessTarget.TraceEntry> entries = new ArrayList<>();
      List<String> texts = new ArrayList<>();
      for (TraceQuery q : opened.queries()) {
        entries.add(
            new InProcessTarget.TraceEntry(
                q.category(), q.query(), predictions.getOrDefault(q.id(), RequestView.UNKNOWN)));
        texts.add(q.text());
      }
      if (target == null) {
        warmUp(opened, entries, budget, err);
      }
      Sweep.Targets factory =
          target != null
              ? policy -> new HttpTarget(target, texts)
              : policy ->
                  new InProcessTarget(
                      opened.reader(),
                      entries,
                      policy,
                      budget,
                      queue,
                      unitsPerQuery != null ? unitsPerQuery : 4 * budget);
      err.printf(
          "replaying %d queries of %s on %s (%s): %d policies x %d loads, %s each (%s warm-up)%n",
          entries.size(),
          input.trace.getFileName(),
          input.index.getFileName(),
          opened.manifest().sourceLabel(),
          target != null ? 1 : policies.size(),
          sweep.rps.size(),
          duration,
          warmup);
      err.flush();
      Sweep.Plan run = target != null ? plan.withPolicies(List.of("server")) : plan;
      Progress.Points progress = new Progress.Points(run.size());
      List<PointResult> points =
          Sweep.run(
              run,
              factory,
              entries.size(),
              environment,
              opened.manifest().sourceLabel(),
              p -> {
                err.printf(
                    "  %-16s %8.1f rps: p50 %8.2f ms  p99 %8.2f ms  achieved %8.1f rps%s  (%s)%n",
                    Report.displayName(p.policy()),
                    p.offeredRps(),
                    p.latencyAt("p50") / 1e6,
                    p.latencyAt("p99") / 1e6,
                    p.achievedRps(),
                    p.saturated() ? "  SATURATED" : "",
                    progress.pointDone());
                err.flush();
              });
      String summary =
          Report.write(
              dir, points, sweep.cdfLoad(), ReplayedTrace.of(input.trace, opened.queries().size()));
      PrintWriter outw = spec.commandLine().getOut();
      outw.println(summary);
      outw.printf(
          "report: %s (summary.md, results.csv, p99.png, p999.png, cdf.png, points/)%n", dir);
      outw.flush();
    }
    return 0;
  }

  /**
   * Runs every query a few times before the first point, so that the first policy measured does not
   * pay for the JIT compiler and a cold index alone.
   */
  private static void warmUp(
      IndexAndTrace.Opened opened,
      List<InProcessTarget.TraceEntry> entries,
      int workers,
      PrintWriter err)
      throws java.io.IOException {
    err.printf("warming up: every query 3 times%n");
    err.flush();
    try (Scheduler scheduler = Scheduler.builder().policy("seq").workers(workers).build()) {
      TailorSearcher searcher = new TailorSearcher(opened.reader(), scheduler);
      for (int round = 0; round < 3; round++) {
        for (InProcessTarget.TraceEntry e : entries) {
          searcher.search(e.query(), 10);
        }
      }
    }
  }
}
