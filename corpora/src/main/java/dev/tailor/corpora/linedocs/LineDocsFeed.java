package dev.tailor.corpora.linedocs;

import dev.tailor.corpora.CorpusDoc;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;

/**
 * Documents to index beside search, read from a line-docs file round and round, for as long as
 * indexing runs: each an {@code id} (its ordinal in this feed) and a {@code body} (title and text),
 * neither stored. Thread-safe: several indexing threads may share one feed.
 */
public final class LineDocsFeed implements Closeable {

  private final Path file;
  private LineDocReader reader; // guarded by this
  private long ids; // guarded by this

  /**
   * A feed from the first line of {@code file}.
   *
   * @throws IOException if the file cannot be opened or its header is not a line-docs header
   */
  public LineDocsFeed(Path file) throws IOException {
    this.file = file;
    this.reader = open(file);
  }

  private static LineDocReader open(Path file) throws IOException {
    return new LineDocReader(file, false, warning -> {});
  }

  /** The next document, from the start again after the last; null if the file holds none. */
  public synchronized Document next() throws IOException {
    CorpusDoc d = reader.next();
    if (d == null) {
      reader.close();
      reader = open(file);
      d = reader.next();
      if (d == null) {
        return null;
      }
    }
    Document doc = new Document();
    doc.add(new StringField("id", Long.toString(ids++), Field.Store.NO));
    doc.add(new TextField("body", d.title() + " " + d.body(), Field.Store.NO));
    return doc;
  }

  @Override
  public synchronized void close() throws IOException {
    reader.close();
  }
}
