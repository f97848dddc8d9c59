package dev.tailor.corpora.fetch;

import dev.tailor.corpora.Corpora;
import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.DocSource;
import dev.tailor.corpora.wiki.Redirects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A corpus given as an existing file or as the name of a fetchable {@link Dataset.Kind#CORPUS}
 * dataset. A name is fetched if it is not cached yet, and the corpus's {@link Corpus#source()} is
 * then the name rather than the cached file's path; an existing file of the same name wins.
 */
public final class CorpusByName {

  private CorpusByName() {}

  /**
   * The corpus {@code fileOrName} denotes, read as {@link Corpora#file} reads a file.
   *
   * @param fetcher fetches a named corpus that is not cached yet
   * @throws IOException if {@code fileOrName} is neither a file nor a corpus name (the message
   *     lists the names), or the fetch fails
   */
  public static Corpus open(
      String fileOrName,
      boolean strict,
      Redirects redirects,
      Fetcher fetcher,
      Consumer<String> warnings)
      throws IOException {
    Dataset d = Dataset.byId(fileOrName);
    if (d != null && d.kind() == Dataset.Kind.CORPUS && !Files.exists(Path.of(fileOrName))) {
      Path file = fetcher.fetch(d).get(0);
      return new Named(d.id(), Corpora.file(file, d.label(), strict, redirects, warnings));
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

  /** A fetched corpus under its dataset's name rather than its cached file's. */
  private record Named(String source, Corpus corpus) implements Corpus {
    @Override
    public String label() {
      return corpus.label();
    }

    @Override
    public DocSource open() throws IOException {
      return corpus.open();
    }

    @Override
    public DocSource openAt(long first) throws IOException {
      return corpus.openAt(first);
    }

    @Override
    public boolean seeksCheaply() {
      return corpus.seeksCheaply();
    }

    @Override
    public long count() throws IOException {
      return corpus.count();
    }
  }
}
