package dev.tailor.cli;

import dev.tailor.corpora.Corpora;
import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.fetch.Dataset;
import dev.tailor.corpora.fetch.Fetcher;
import dev.tailor.corpora.wiki.Redirects;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
      description =
          "Where fetched data is cached (git-ignored). Default: $TAILOR_DATA, else ./data in the"
              + " checkout.")
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

  /**
   * The index {@code ./tailor demo} builds at its default size ({@link DemoCommand#DEFAULT_DOCS}),
   * under the data directory; the search benchmarks default to it.
   */
  Path demoIndex() {
    return dataDir().resolve("indexes").resolve("demo-" + DemoCommand.DEFAULT_DOCS);
  }

  /** The trace of the workload {@code ./tailor demo} runs by default, under the data directory. */
  Path demoTrace() {
    return DemoCommand.DEFAULT_WORKLOAD.trace(dataDir());
  }

  Fetcher fetcher(PrintWriter err) {
    return new Fetcher(
        dataDir(),
        TailorHome.root(),
        line -> {
          err.println(line);
          err.flush();
        });
  }

  /**
   * A corpus given as an existing file or as the name of a fetchable corpus (fetched if it is not
   * cached yet).
   */
  Corpus corpus(
      String fileOrName,
      boolean strict,
      Redirects redirects,
      PrintWriter err,
      Consumer<String> warnings)
      throws IOException {
    Dataset d = Dataset.byId(fileOrName);
    if (d != null && d.kind() == Dataset.Kind.CORPUS && !Files.exists(Path.of(fileOrName))) {
      Path file = fetcher(err).fetch(d).get(0);
      Corpus c = Corpora.file(file, d.label(), strict, redirects, warnings);
      return new Corpus() {
        @Override
        public String source() {
          return d.id();
        }

        @Override
        public String label() {
          return c.label();
        }

        @Override
        public dev.tailor.corpora.DocSource open() throws IOException {
          return c.open();
        }

        @Override
        public dev.tailor.corpora.DocSource openAt(long first) throws IOException {
          return c.openAt(first);
        }

        @Override
        public boolean seeksCheaply() {
          return c.seeksCheaply();
        }

        @Override
        public long count() throws IOException {
          return c.count();
        }
      };
    }
    Path file = Path.of(fileOrName);
    if (!Files.isRegularFile(file)) {
      throw new IOException(
          fileOrName
              + ": no such corpus file, and not a corpus name (names: "
              + String.join(", ", Dataset.ids(Dataset.Kind.CORPUS))
              + ")");
    }
    return Corpora.file(file, null, strict, redirects, warnings);
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
            "unknown "
                + kind.name().toLowerCase(java.util.Locale.ROOT)
                + " '"
                + name
                + "'; known: "
                + String.join(", ", Dataset.ids(kind)));
      }
      for (Path p : fetcher(spec.commandLine().getErr()).fetch(d)) {
        out.println(p);
      }
    }
    out.flush();
    return 0;
  }
}
