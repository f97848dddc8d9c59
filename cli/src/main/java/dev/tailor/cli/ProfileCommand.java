package dev.tailor.cli;

import dev.tailor.core.model.DemandProfile;
import dev.tailor.corpora.trace.TraceQuery;
import dev.tailor.lucene.DemandProfiler;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tailor profile}: measures the demand profile of a trace on an index. */
@Command(
    name = "profile",
    mixinStandardHelpOptions = true,
    description = {
      "Measure the demand profile of a trace on an index: each query in isolation, at every"
          + " degree up to this machine's cores, with its unit times, features and speedups"
          + " derived beyond the cores.",
      "The profile is saved as it goes; run the same command again to resume."
    })
final class ProfileCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin IndexAndTrace input;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The profile JSON.")
  Path out;

  @Option(
      names = "--warmups",
      defaultValue = "2",
      description = "Untimed runs per query and degree (default ${DEFAULT-VALUE}).")
  int warmups;

  @Option(
      names = "--repetitions",
      defaultValue = "5",
      description =
          "Timed runs per query and degree; the median counts (default ${DEFAULT-VALUE}).")
  int repetitions;

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
      names = "--units-per-query",
      description =
          "Units each query is cut into (default: four per measured core, as the drop-in cuts"
              + " them on this machine, so that the profile's times are the served times; raise it"
              + " for better derived speedups at high degrees).")
  Integer unitsPerQuery;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    int measured = cores != null ? cores : Runtime.getRuntime().availableProcessors();
    DemandProfiler.Options options =
        new DemandProfiler.Options(
            warmups,
            repetitions,
            measured,
            Math.max(maxDegree, measured),
            unitsPerQuery != null ? unitsPerQuery : 4 * measured);
    try (IndexAndTrace.Opened opened = input.open()) {
      List<DemandProfiler.ProfiledQuery> queries = new ArrayList<>();
      for (TraceQuery q : opened.queries()) {
        queries.add(new DemandProfiler.ProfiledQuery(q.id(), q.category(), q.text(), q.query()));
      }
      DemandProfile.Environment env =
          new DemandProfile.Environment(
              input.index.toAbsolutePath().toString(),
              opened.manifest().sourceLabel(),
              opened.reader().maxDoc(),
              input.trace.toAbsolutePath().toString(),
              Runtime.getRuntime().availableProcessors(),
              Runtime.version().toString(),
              System.getProperty("os.name") + " " + System.getProperty("os.arch"),
              Instant.now().toString());
      DemandProfile profile;
      try (ProgressBar bar =
          new ProgressBarBuilder()
              .setTaskName("profile")
              .setInitialMax(queries.size())
              .setUnit(" queries", 1)
              .showSpeed()
              .build()) {
        profile =
            new DemandProfiler(opened.reader(), options)
                .profile(queries, env, out, (done, total) -> bar.stepTo(done));
      }
      err.printf(
          "profiled %d queries of %s on %s (%s); profile written to %s%n",
          profile.requests().size(),
          input.trace,
          input.index,
          opened.manifest().sourceLabel(),
          out);
      err.flush();
    }
    return 0;
  }
}
