package dev.tailor.cli;

import dev.tailor.bench.AutoRebuildBench;
import dev.tailor.bench.CallPathBench;
import dev.tailor.bench.FmBuildBench;
import dev.tailor.bench.JmhLauncher;
import dev.tailor.bench.LoadClientBench;
import dev.tailor.bench.MetricsOverheadBench;
import dev.tailor.bench.NoiseMeterBench;
import dev.tailor.bench.PredictorBench;
import dev.tailor.bench.SchedulerOverheadBench;
import dev.tailor.bench.SearchBenches;
import dev.tailor.bench.ShareBench;
import dev.tailor.bench.SimulatorBench;
import dev.tailor.bench.TpcBuildBench;
import dev.tailor.corpora.trace.IndexedTrace;
import dev.tailor.corpora.trace.TraceQuery;
import dev.tailor.profiler.SearchTimings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Runs a named benchmark of the {@code benchmarks} module ({@link dev.tailor.bench}), which
 * measures and prints its figures; this command only parses the options and, for the search
 * benchmarks, opens the index and the trace.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description =
        "Run a benchmark and print its figures, with ratios against the baseline measured in the"
            + " same run.")
final class BenchCommand implements Callable<Integer> {

  /** How each benchmark is launched, by name, in the order help lists them. */
  private static final Map<String, Launch> BENCHES = new LinkedHashMap<>();

  /**
   * The benchmarks that time searches on an index: the {@code ./tailor} script runs them with the
   * JDK's Vector API, as Lucene is served with it (its {@code vector_benches} lists the same).
   */
  static final Set<String> SEARCHING = new LinkedHashSet<>();

  static {
    BENCHES.put(
        SchedulerOverheadBench.NAME,
        (c, out) ->
            SchedulerOverheadBench.run(
                new JmhLauncher(TailorHome.root().resolve(JmhLauncher.JAR), TailorHome.java()),
                c.quick,
                out));
    BENCHES.put(
        MetricsOverheadBench.NAME,
        (c, out) ->
            MetricsOverheadBench.run(
                new JmhLauncher(TailorHome.root().resolve(JmhLauncher.JAR), TailorHome.java()),
                c.quick,
                out));
    for (String name : SearchBenches.NAMES) {
      searching(name, (c, in, opened, out) -> SearchBenches.run(name, in, c.quick, out));
    }
    searching(
        PredictorBench.NAME,
        (c, in, opened, out) ->
            PredictorBench.run(
                new PredictorBench.Input(
                    in.index(), in.trace(), in.source(), in.reader(), in.queries(), c.model),
                c.quick,
                out));
    BENCHES.put(LoadClientBench.NAME, (c, out) -> LoadClientBench.run(c.quick, out));
    BENCHES.put(NoiseMeterBench.NAME, (c, out) -> NoiseMeterBench.run(c.quick, out));
    BENCHES.put(SimulatorBench.NAME, (c, out) -> SimulatorBench.run(c.quick, out));
    BENCHES.put(FmBuildBench.NAME, (c, out) -> FmBuildBench.run(c.quick, out));
    BENCHES.put(TpcBuildBench.NAME, (c, out) -> TpcBuildBench.run(c.quick, out));
    BENCHES.put(CallPathBench.NAME, (c, out) -> CallPathBench.run(c.quick, out));
    BENCHES.put(AutoRebuildBench.NAME, (c, out) -> AutoRebuildBench.run(c.quick, out));
    searching(ShareBench.NAME, (c, in, opened, out) -> c.share(in, opened, out));
    BENCHES.put("decider", (c, out) -> decider(c.quick, out));
  }

  /** Registers a benchmark that runs on the index and the trace's queries. */
  private static void searching(String name, Searching bench) {
    SEARCHING.add(name);
    BENCHES.put(name, (c, out) -> c.onSearches((in, opened) -> bench.run(c, in, opened, out)));
  }

  /** A benchmark on the opened index and trace, with the command's options. */
  @FunctionalInterface
  private interface Searching {
    void run(BenchCommand command, SearchBenches.Input input, IndexedTrace opened, PrintWriter out)
        throws Exception;
  }

  /**
   * The OpenSearch decider's cost per shard request, in a child JVM on the plugin module's test
   * class path (OpenSearch and its Lucene, which this JVM's class path cannot also hold).
   */
  private static void decider(boolean quick, PrintWriter out) throws Exception {
    Path module = TailorHome.root().resolve("opensearch-plugin/target");
    Path classpath = module.resolve("test-classpath.txt");
    if (!Files.isRegularFile(classpath)) {
      throw new IOException(
          classpath
              + ": no such file; build it with ./mvnw package -DskipTests -pl opensearch-plugin -am");
    }
    String cp =
        module.resolve("test-classes")
            + java.io.File.pathSeparator
            + module.resolve("classes")
            + java.io.File.pathSeparator
            + Files.readString(classpath).trim();
    List<String> command =
        new ArrayList<>(
            List.of(TailorHome.java(), "-cp", cp, "dev.tailor.opensearch.DeciderBench"));
    if (quick) {
      command.add("--quick");
    }
    out.flush();
    int status = new ProcessBuilder(command).inheritIO().start().waitFor();
    if (status != 0) {
      throw new IOException("the decider benchmark exited with status " + status);
    }
  }

  @Spec CommandSpec spec;

  @Mixin DataOptions data;

  @Parameters(
      index = "0",
      paramLabel = "NAME",
      completionCandidates = Names.class,
      description = "The benchmark to run: ${COMPLETION-CANDIDATES}.")
  String name;

  @Option(
      names = "--quick",
      description = "Fewer and shorter runs: a rough figure in a fraction of the time.")
  boolean quick;

  @Option(
      names = "--index",
      paramLabel = "DIR",
      description = "The index, for the search benchmarks (default: the demo's).")
  Path index;

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description = "The queries, for the search benchmarks (default: the demo's trace).")
  Path trace;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "Only the first N queries of the trace (default: 1000; with --quick, 200).")
  Integer limit;

  @Option(
      names = "--model",
      paramLabel = "FILE",
      description = "For bench predictor: a model (default: one trained on the warm-up).")
  Path model;

  @Option(
      names = "--docs",
      paramLabel = "FILE",
      description = "For bench share: line docs to index (default: the index's source).")
  Path docs;

  @Override
  public Integer call() throws Exception {
    Launch launch = BENCHES.get(name);
    if (launch == null) {
      throw new ParameterException(
          spec.commandLine(),
          "unknown benchmark '" + name + "'; known: " + String.join(", ", BENCHES.keySet()));
    }
    PrintWriter out = spec.commandLine().getOut();
    launch.run(this, out);
    out.flush();
    return 0;
  }

  /** A benchmark that runs on the index and the trace's queries. */
  @FunctionalInterface
  private interface OnSearches {
    void run(SearchBenches.Input input, IndexedTrace opened) throws Exception;
  }

  /** Opens the index and the trace, by default the demo's, and runs {@code bench} on them. */
  private void onSearches(OnSearches bench) throws Exception {
    IndexAndTrace input = new IndexAndTrace();
    input.index = index != null ? index : demoDefault(data.demoIndex(), "--index");
    input.trace = trace != null ? trace : demoDefault(data.demoTrace(), "--trace");
    input.limit = limit != null ? limit : SearchBenches.defaultLimit(quick);
    try (IndexedTrace opened = input.open()) {
      List<SearchTimings.Labelled> queries = new ArrayList<>();
      for (TraceQuery q : opened.queries()) {
        queries.add(new SearchTimings.Labelled(q.category(), q.query()));
      }
      bench.run(
          new SearchBenches.Input(
              input.index, input.trace, opened.manifest().sourceLabel(), opened.reader(), queries),
          opened);
    }
  }

  /** Runs bench share, indexing --docs, by default the index's source. */
  private void share(SearchBenches.Input in, IndexedTrace opened, PrintWriter out)
      throws Exception {
    Path source = Path.of(opened.manifest().source());
    Path toIndex =
        docs != null ? docs : source.isAbsolute() ? source : TailorHome.root().resolve(source);
    if (!Files.isRegularFile(toIndex)) {
      throw new ParameterException(
          spec.commandLine(),
          "bench share indexes line documents: the index's source "
              + toIndex
              + " is not a file; pass --docs FILE (a line-docs file, e.g. from ./tailor corpus)");
    }
    ShareBench.run(in, toIndex, quick, out);
  }

  /** The demo's file, or an error that says how to get it or what to pass instead. */
  private Path demoDefault(Path demoFile, String option) {
    if (!Files.exists(demoFile)) {
      throw new IllegalArgumentException(
          "no "
              + option
              + " given, and the demo's "
              + demoFile
              + " does not exist: run ./tailor demo first, or pass --index DIR and --trace FILE");
    }
    return demoFile;
  }

  /** Runs one benchmark with the command's options, printing to {@code out}. */
  @FunctionalInterface
  private interface Launch {
    void run(BenchCommand command, PrintWriter out) throws Exception;
  }

  /** The benchmark names, for help and completion. */
  static final class Names implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return BENCHES.keySet().iterator();
    }
  }
}
