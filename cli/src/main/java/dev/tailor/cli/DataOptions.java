package dev.tailor.cli;

import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.fetch.CorpusByName;
import dev.tailor.corpora.fetch.Dataset;
import dev.tailor.corpora.fetch.Fetcher;
import dev.tailor.corpora.wiki.Redirects;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The data directory option shared by the commands that fetch or read cached data, and the
 * resolution of a corpus given as a file or a name.
 */
final class DataOptions {

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "Where fetched data is cached. Default: $TAILOR_DATA, else ./data.")
  Path dataDir;

  Path dataDir() {
    if (dataDir != null) {
      return dataDir.toAbsolutePath();
    }
    String env = System.getenv("TAILOR_DATA");
    return env != null && !env.isBlank()
        ? Path.of(env).toAbsolutePath()
        : TailorHome.root().resolve("data");
  }

  /** The index {@code ./tailor demo} builds at its default size, under the data directory. */
  Path demoIndex() {
    return dataDir().resolve("indexes").resolve("demo-" + DemoCommand.DEFAULT_DOCS);
  }

  /** The trace of the workload {@code ./tailor demo} runs by default, under the data directory. */
  Path demoTrace() {
    return DemoCommand.DEFAULT_WORKLOAD.trace(dataDir());
  }

  Fetcher fetcher(PrintWriter err) {
    return new Fetcher(dataDir(), TailorHome.root(), line -> err.printf("%s%n", line).flush());
  }

  /** A corpus given as an existing file or as a fetchable corpus's name: {@link CorpusByName}. */
  Corpus corpus(
      String fileOrName,
      boolean strict,
      Redirects redirects,
      PrintWriter err,
      Consumer<String> warnings)
      throws IOException {
    return CorpusByName.open(fileOrName, strict, redirects, fetcher(err), warnings);
  }

  /**
   * Fetches the named datasets of one kind, printing each fetched file; a name of another kind or
   * none is a usage error that lists the known ones.
   */
  int fetchAll(List<String> names, Dataset.Kind kind, CommandSpec spec) throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    for (String name : names) {
      Dataset d = Dataset.byId(name);
      if (d == null || d.kind() != kind) {
        throw new ParameterException(
            spec.commandLine(),
            String.format(
                "unknown %s '%s'; known: %s",
                kind.name().toLowerCase(Locale.ROOT), name, String.join(", ", Dataset.ids(kind))));
      }
      fetcher(spec.commandLine().getErr()).fetch(d).forEach(out::println);
    }
    out.flush();
    return 0;
  }
}
