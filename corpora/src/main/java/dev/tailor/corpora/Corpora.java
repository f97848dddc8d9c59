package dev.tailor.corpora;

import dev.tailor.corpora.linedocs.CorpusMetadata;
import dev.tailor.corpora.linedocs.LineDocsCorpus;
import dev.tailor.corpora.summaries.SummariesReader;
import dev.tailor.corpora.wiki.Redirects;
import dev.tailor.corpora.wiki.WikiDumpReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Opens a corpus file by its kind, told by its name: a MediaWiki dump ({@code .xml}, {@code
 * .xml.bz2}, {@code .xml.gz}), the Wikipedia summaries ({@code .json}), or luceneutil line docs
 * (anything else, plain or compressed).
 */
public final class Corpora {

  private Corpora() {}

  /** The kinds of corpus file. */
  public enum Kind {
    /** A MediaWiki XML dump. */
    WIKI_DUMP,
    /** The Wikipedia summaries JSON. */
    SUMMARIES,
    /** luceneutil line docs. */
    LINE_DOCS
  }

  /** The kind of a corpus file, from its name. */
  public static Kind kind(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    String base = name.replaceFirst("\\.(bz2|gz)$", "");
    if (base.endsWith(".xml") || name.contains("pages-articles")) {
      return Kind.WIKI_DUMP;
    }
    if (base.endsWith(".json")) {
      return Kind.SUMMARIES;
    }
    return Kind.LINE_DOCS;
  }

  /**
   * A corpus read from a file.
   *
   * @param label what the text is, or null to take it from the file's metadata ({@link
   *     CorpusMetadata}) or else call it real text from the file
   * @param strict whether a malformed line docs line is fatal
   * @param redirects what a dump's redirects become
   * @param warnings hears skipped lines
   */
  public static Corpus file(
      Path file, String label, boolean strict, Redirects redirects, Consumer<String> warnings)
      throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(file.toString(), null, "no such corpus file");
    }
    Kind kind = kind(file);
    String resolved = label;
    if (resolved == null && kind == Kind.LINE_DOCS) {
      CorpusMetadata meta = CorpusMetadata.readFor(file);
      resolved = meta == null ? null : meta.label();
    }
    if (resolved == null) {
      resolved = "real text from " + file.getFileName();
    }
    if (kind == Kind.LINE_DOCS) {
      return new LineDocsCorpus(file, resolved, strict, warnings);
    }
    String finalLabel = resolved;
    return new Corpus() {
      @Override
      public String source() {
        return file.toString();
      }

      @Override
      public String label() {
        return finalLabel;
      }

      @Override
      public DocSource open() throws IOException {
        return kind == Kind.WIKI_DUMP
            ? new WikiDumpReader(file, redirects)
            : new SummariesReader(file);
      }
    };
  }
}
