package dev.tailor.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Runs a named benchmark and prints its figures, as ratios against a baseline of the same run. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Run a benchmark and print its figures, with ratios against the baseline measured in the"
          + " same run.",
      "Benchmarks: ${COMPLETION-CANDIDATES}"
    })
final class BenchCommand implements Callable<Integer> {

  /** The benchmarks, by name. */
  static final List<Bench> BENCHES =
      List.of(
          new SchedulerOverheadBench(),
          new SearchBenches.Overhead(),
          new SearchBenches.Speedup(),
          new SearchBenches.SlicingCost(),
          new LoadClientBench(),
          new SimulatorBench(),
          new FmBuildBench());

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "NAME",
      completionCandidates = Names.class,
      description = "The benchmark to run.")
  String name;

  @Option(
      names = "--quick",
      description =
          "Fewer forks, iterations and repetitions: a rough figure in a fraction of the time.")
  boolean quick;

  @Option(
      names = "--index",
      paramLabel = "DIR",
      description = "The index, for the search benchmarks.")
  Path index;

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description = "The queries, for the search benchmarks.")
  Path trace;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "Only the first N queries of the trace.")
  Integer limit;

  @Override
  public Integer call() throws Exception {
    Bench bench =
        BENCHES.stream()
            .filter(b -> b.name().equals(name))
            .findFirst()
            .orElseThrow(
                () ->
                    new ParameterException(
                        spec.commandLine(),
                        "unknown benchmark '"
                            + name
                            + "'; known: "
                            + String.join(", ", new Names())));
    PrintWriter out = spec.commandLine().getOut();
    int status = bench.run(new Options(quick, index, trace, limit), out);
    out.flush();
    return status;
  }

  /** What a benchmark was asked for. */
  record Options(boolean quick, Path index, Path trace, Integer limit) {}

  /** A benchmark the command can run. */
  interface Bench {
    String name();

    /** Runs the benchmark, prints its figures and returns the exit status. */
    int run(Options options, PrintWriter out) throws Exception;
  }

  /** The benchmark names, for help and completion. */
  static final class Names implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return BENCHES.stream().map(Bench::name).iterator();
    }
  }
}
