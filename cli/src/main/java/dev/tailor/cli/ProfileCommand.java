package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.corpora.trace.IndexedTrace;
import dev.tailor.corpora.trace.TraceQuery;
import dev.tailor.lucene.Windowing;
import dev.tailor.measure.DemandProfile;
import dev.tailor.profiler.DemandProfiler;
import dev.tailor.profiler.ProfileCheck;
import dev.tailor.profiler.ProfileInputs;
import dev.tailor.profiler.ProfileSummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tailor profile}: measures the demand profile of a trace on an index. */
@Command(
    name = "profile",
    mixinStandardHelpOptions = true,
    subcommands = ProfileCompareCommand.class,
    description = {
      "Measure the demand profile of a trace on an index: each query's time at every degree up"
          + " to this machine's cores, with its unit times, features, the spread of its samples,"
          + " and speedups derived beyond the cores.",
      "Run it again to resume a partial profile; --check first profiles a sample twice and stops"
          + " (exit 1) if the two disagree (docs/profiling.md)."
    })
final class ProfileCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  // A group, not a mixin: picocli checks a parent's required options even when a subcommand
  // (compare) runs, so the index and trace are required here by call() instead.
  @ArgGroup(exclusive = false, multiplicity = "0..1")
  IndexAndTrace input;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "The profile JSON (required unless --check alone is asked for).")
  Path out;

  @Option(
      names = "--warmup",
      defaultValue = "10s",
      paramLabel = "DURATION",
      description =
          "Least untimed warm-up; it goes on until the JIT has settled (default ${DEFAULT-VALUE}).")
  String warmup;

  @Option(
      names = "--rounds",
      defaultValue = "7",
      description = "Timed rounds: samples per query and degree (default ${DEFAULT-VALUE}).")
  int rounds;

  @Option(
      names = "--min-sample",
      defaultValue = "0ms",
      paramLabel = "DURATION",
      description =
          "Repeat a shorter query until a sample lasts this long (default ${DEFAULT-VALUE}).")
  String minSample;

  @Option(
      names = "--remeasure-spread",
      defaultValue = "0.10",
      paramLabel = "X",
      description = "Remeasure queries whose IQR exceeds this share (default ${DEFAULT-VALUE}).")
  double remeasureSpread;

  @Option(
      names = "--seed",
      defaultValue = "1",
      description = "Orders the rounds and picks the --check sample (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--cores",
      description = "Degrees to measure (default: this machine's processors).")
  Integer cores;

  @Option(
      names = "--max-degree",
      defaultValue = "16",
      description = "Derive speedups up to this degree (default ${DEFAULT-VALUE}).")
  int maxDegree;

  @Option(
      names = "--total-hits",
      paramLabel = "exact|N",
      defaultValue = "1000",
      converter = TotalHitsThreshold.class,
      description = "How far each search counts its hits: " + TotalHitsThreshold.VALUES + ".")
  int totalHits;

  @Option(
      names = "--units-per-query",
      description =
          "Windows each query is cut into (default: "
              + Windowing.DEFAULT_WINDOWS_PER_THREAD
              + " per measured core, as the drop-in cuts them).")
  Integer unitsPerQuery;

  @Option(
      names = "--check",
      description = "First profile a sample twice: exit 1 without profiling if they disagree.")
  boolean check;

  @Option(
      names = "--check-sample",
      defaultValue = "200",
      paramLabel = "N",
      description = "Queries in the --check sample (default ${DEFAULT-VALUE}).")
  int checkSample;

  @Option(
      names = "--raw-samples",
      paramLabel = "FILE",
      description = "Also write every sample, one JSON line per query and degree (diagnostics).")
  Path rawSamples;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    if (input == null) {
      throw new ParameterException(
          spec.commandLine(), "Missing required options: '--index=DIR', '--trace=FILE'");
    }
    if (out == null && !check) {
      throw new ParameterException(spec.commandLine(), "Missing required option: '--out=FILE'");
    }
    DemandProfiler.Options options = options();
    try (IndexedTrace opened = input.open()) {
      List<DemandProfiler.ProfiledQuery> queries = new ArrayList<>();
      for (TraceQuery q : opened.queries()) {
        queries.add(new DemandProfiler.ProfiledQuery(q.id(), q.category(), q.text(), q.query()));
      }
      DemandProfile.Environment env =
          ProfileInputs.environment(
              input.index, opened.manifest().sourceLabel(), opened.reader().maxDoc(), input.trace);
      if (check && !check(opened, sample(queries), env, options, err)) {
        return 1;
      }
      if (out == null) {
        return 0;
      }
      DemandProfiler profiler = new DemandProfiler(opened.reader(), options);
      if (rawSamples != null) {
        profiler.rawSamplesTo(rawSamples);
      }
      DemandProfile profile = profile(profiler, queries, env, out, "profile");
      err.printf(
          "profiled %d queries of %s on %s (%s); profile written to %s%n",
          profile.requests().size(),
          input.trace,
          input.index,
          opened.manifest().sourceLabel(),
          out);
      ProfileSummary.print(profile, err);
      err.flush();
    }
    return 0;
  }

  private DemandProfiler.Options options() {
    int measured = cores != null ? cores : Runtime.getRuntime().availableProcessors();
    try {
      return new DemandProfiler.Options(
          Durations.parseNanos(warmup),
          rounds,
          Durations.parseNanos(minSample),
          remeasureSpread,
          measured,
          Math.max(maxDegree, measured),
          unitsPerQuery != null ? unitsPerQuery : Windowing.DEFAULT_WINDOWS_PER_THREAD * measured,
          seed,
          totalHits);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /** A seeded sample of the queries, in trace order. */
  private List<DemandProfiler.ProfiledQuery> sample(List<DemandProfiler.ProfiledQuery> queries) {
    if (checkSample < 20) {
      throw new ParameterException(
          spec.commandLine(), "--check-sample must be at least 20, got " + checkSample);
    }
    return ProfileInputs.sample(queries, checkSample, seed);
  }

  /** Profiles the sample twice and compares ({@link ProfileCheck}). */
  private boolean check(
      IndexedTrace opened,
      List<DemandProfiler.ProfiledQuery> sample,
      DemandProfile.Environment env,
      DemandProfiler.Options options,
      PrintWriter err)
      throws IOException {
    return ProfileCheck.run(
        (file, take) ->
            profile(
                new DemandProfiler(opened.reader(), options),
                sample,
                env,
                file,
                "check " + take + "/2"),
        spec.commandLine().getOut(),
        err);
  }

  private static DemandProfile profile(
      DemandProfiler profiler,
      List<DemandProfiler.ProfiledQuery> queries,
      DemandProfile.Environment env,
      Path out,
      String task)
      throws IOException {
    try (ProgressBar bar =
        new ProgressBarBuilder()
            .setTaskName(task)
            .setInitialMax(1)
            .setUnit(" searches", 1)
            .showSpeed()
            .build()) {
      return profiler.profile(
          queries,
          env,
          out,
          (done, total) -> {
            bar.maxHint(total);
            bar.stepTo(done);
          });
    }
  }
}
