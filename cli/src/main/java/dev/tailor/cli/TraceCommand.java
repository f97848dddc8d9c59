package dev.tailor.cli;

import dev.tailor.corpora.fetch.Dataset;
import dev.tailor.corpora.index.IndexAnalyzer;
import dev.tailor.corpora.index.IndexManifest;
import dev.tailor.corpora.trace.QueryTrace;
import dev.tailor.corpora.trace.TraceFormat;
import dev.tailor.corpora.trace.TraceGenerator;
import dev.tailor.corpora.trace.TraceSummary;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tailor trace}: fetch real query logs, generate luceneutil-style tasks, check a trace. */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    description =
        "Fetch real query logs, generate luceneutil-style tasks for an index, check a trace.",
    subcommands = {TraceCommand.Fetch.class, TraceCommand.Gen.class, TraceCommand.Check.class})
final class TraceCommand extends GroupCommand {

  /** {@code tailor trace fetch NAME}. */
  @Command(
      name = "fetch",
      mixinStandardHelpOptions = true,
      description =
          "Fetch real query logs from the io.anserini:anserini:0.13.3 jar on Maven Central,"
              + " unpacking only their files (not the jar's dependencies), verified and cached.")
  static final class Fetch implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin DataOptions data;

    @Parameters(arity = "1..*", paramLabel = "NAME", description = "nq, trec-tb05 or trec-mq.")
    List<String> names;

    @Override
    public Integer call() throws Exception {
      return data.fetchAll(names, Dataset.Kind.TRACE, spec);
    }
  }

  /** {@code tailor trace gen}. */
  @Command(
      name = "gen",
      mixinStandardHelpOptions = true,
      description =
          "Write luceneutil-style tasks for an index: terms sampled by document-frequency band"
              + " (high, medium, low) in luceneutil's categories.")
  static final class Gen implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--index", required = true, paramLabel = "DIR", description = "The index.")
    Path index;

    @Option(
        names = "--seed",
        defaultValue = "1",
        paramLabel = "S",
        description = "Seed (default 1).")
    long seed;

    @Option(
        names = "--per-category",
        defaultValue = "50",
        paramLabel = "N",
        description = "Tasks per category (default ${DEFAULT-VALUE}).")
    int perCategory;

    @Option(
        names = "--out",
        paramLabel = "FILE",
        description = "The task file (default: DIR.seedS.tasks beside the index).")
    Path out;

    @Override
    public Integer call() throws Exception {
      if (perCategory < 1) {
        throw new ParameterException(spec.commandLine(), "--per-category must be at least 1");
      }
      Path dir = index.toAbsolutePath().normalize();
      Path file =
          out != null ? out : dir.resolveSibling(dir.getFileName() + ".seed" + seed + ".tasks");
      int n = TraceGenerator.write(dir, file, seed, perCategory);
      PrintWriter o = spec.commandLine().getOut();
      o.printf("%s: %,d tasks%n", file, n);
      o.flush();
      return 0;
    }
  }

  /** {@code tailor trace check}. */
  @Command(
      name = "check",
      mixinStandardHelpOptions = true,
      description =
          "Parse a trace as the replayer will and report its queries by category, the lines"
              + " skipped by reason, and the malformed lines with file and line.")
  static final class Check implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "The trace.")
    Path file;

    @Option(
        names = "--format",
        paramLabel = "FORMAT",
        description = "luceneutil, plain, trec or nq (default: detected).")
    TraceFormat format;

    @Option(
        names = "--index",
        paramLabel = "DIR",
        description = "Analyze with this index's analyzer (default: english).")
    Path index;

    @Option(names = "--strict", description = "A malformed line is fatal.")
    boolean strict;

    @Override
    public Integer call() throws Exception {
      TraceFormat f = format != null ? format : TraceFormat.detect(file);
      var analyzer =
          index != null ? IndexManifest.read(index).analyzer() : IndexAnalyzer.ENGLISH.create();
      QueryTrace trace = QueryTrace.read(file, f, analyzer, strict);
      PrintWriter o = spec.commandLine().getOut();
      TraceSummary.print(file, f, trace, o, spec.commandLine().getErr());
      o.flush();
      return 0;
    }
  }
}
