package dev.tailor.cli;

import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.index.IndexAnalyzer;
import dev.tailor.corpora.index.IndexManifest;
import dev.tailor.corpora.index.IndexSummary;
import dev.tailor.corpora.index.Indexer;
import dev.tailor.corpora.wiki.Redirects;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tailor index}: builds a Lucene index with a reproducible segment layout. */
@Command(
    name = "index",
    mixinStandardHelpOptions = true,
    description = {
      "Index a corpus with Lucene (fields id, title, body, date) into DIR, with a manifest"
          + " (tailor-index.json) stating the source and its label, the analyzer, the segments"
          + " and the build time."
    })
final class IndexCommand implements Callable<Integer> {

  @Spec CommandSpec spec;
  @Mixin DataOptions data;

  @Option(
      names = "--corpus",
      required = true,
      paramLabel = "FILE|NAME",
      description = "A corpus file (dump, summaries .json, line docs) or a corpus name.")
  String corpus;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "DIR",
      description = "The index directory.")
  Path out;

  @Option(
      names = "--segments",
      defaultValue = "16",
      paramLabel = "N",
      description = "Number of segments (default ${DEFAULT-VALUE}).")
  int segments;

  @Option(names = "--force", description = "Replace DIR if it exists.")
  boolean force;

  @Option(
      names = "--analyzer",
      defaultValue = "english",
      paramLabel = "NAME",
      description = "english (default) or standard.")
  String analyzer;

  @Option(names = "--strict", description = "A malformed line-docs line is fatal.")
  boolean strict;

  @Option(
      names = "--redirects",
      defaultValue = "SKIP",
      paramLabel = "SKIP|FOLLOW",
      description =
          "For dumps: skip redirect pages (default), or index each as its target's title.")
  Redirects redirects;

  @Option(
      names = "--ram-buffer-mb",
      defaultValue = "256",
      paramLabel = "MB",
      description = "IndexWriter buffer (default ${DEFAULT-VALUE}); does not change the layout.")
  double ramBufferMb;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Indexing threads for uncompressed line docs (default: the processors).")
  Integer threads;

  @Override
  public Integer call() throws Exception {
    IndexAnalyzer a = IndexAnalyzer.byName(analyzer);
    if (a == null) {
      throw new ParameterException(
          spec.commandLine(), "unknown analyzer '" + analyzer + "'; known: english, standard");
    }
    if (segments < 1 || (threads != null && threads < 1)) {
      throw new ParameterException(
          spec.commandLine(), "--segments and --threads must be at least 1");
    }
    if (Files.exists(out) && !force) {
      throw new ParameterException(
          spec.commandLine(), out + " exists already; pass --force to replace it");
    }
    PrintWriter o = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Corpus c =
        data.corpus(
            corpus,
            strict,
            redirects,
            err,
            w -> {
              err.println(w);
              err.flush();
            });
    err.println("counting the documents of " + c.source() + " ...");
    err.flush();
    AtomicReference<ProgressBar> bar = new AtomicReference<>();
    long start = System.nanoTime();
    IndexManifest m;
    try {
      m =
          Indexer.build(
              c,
              out,
              new Indexer.Options(
                  segments,
                  force,
                  a,
                  ramBufferMb,
                  threads != null ? threads : Runtime.getRuntime().availableProcessors()),
              (done, total) -> {
                if (bar.get() == null) {
                  bar.set(Progress.docs("index", total));
                }
                bar.get().stepTo(done);
              });
    } finally {
      if (bar.get() != null) {
        bar.get().close();
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    IndexSummary.print(out, m, Path.of(corpus), seconds, o);
    o.flush();
    return 0;
  }
}
