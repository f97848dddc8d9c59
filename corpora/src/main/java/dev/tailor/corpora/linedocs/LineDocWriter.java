package dev.tailor.corpora.linedocs;

import dev.tailor.core.io.AtomicFiles;
import dev.tailor.corpora.CorpusDoc;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Writes luceneutil line docs, with the header line, to a hidden temporary file beside the target
 * ({@link AtomicFiles#sibling}) that {@link #commit()} forces to disk and moves into place; closing
 * without committing deletes it and leaves any old target as it was. Tabs and line breaks inside
 * fields become spaces, since they separate fields and documents. A target ending in {@code .gz} is
 * gzip-compressed. A new target gets the permissions any new file gets; a replaced one keeps its
 * own.
 */
public final class LineDocWriter implements Closeable {

  private final Path target;
  private final Path tmp;
  private final Writer out;
  private long docs;
  private boolean committed;

  /** Starts writing to {@code target}, which stays untouched until {@link #commit()}. */
  public LineDocWriter(Path target) throws IOException {
    this.target = target;
    this.tmp = AtomicFiles.sibling(target, "writing");
    OutputStream stream = null;
    try {
      stream = Files.newOutputStream(tmp);
      if (target.getFileName().toString().endsWith(".gz")) {
        stream = new GZIPOutputStream(stream, 1 << 16);
      }
      this.out =
          new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), 1 << 16);
      out.write(LineDocReader.HEADER + "\ttitle\tdate\tbody\n");
    } catch (IOException | RuntimeException e) {
      // No writer to close later: leave nothing behind now.
      try {
        if (stream != null) {
          stream.close();
        }
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /** Appends a document. */
  public void write(CorpusDoc doc) throws IOException {
    field(doc.title());
    out.write('\t');
    field(doc.date());
    out.write('\t');
    field(doc.body());
    if (doc.label() != null) {
      out.write('\t');
      field(doc.label());
    }
    out.write('\n');
    docs++;
  }

  private void field(String s) throws IOException {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      out.write(c == '\t' || c == '\n' || c == '\r' ? ' ' : c);
    }
  }

  /** The documents written so far. */
  public long docs() {
    return docs;
  }

  /**
   * Finishes the file and moves it into place, durably ({@link AtomicFiles#moveIntoPlace}). If this
   * fails, {@link #close()} still deletes the temporary file.
   *
   * @throws IllegalStateException if the file was committed already
   */
  public void commit() throws IOException {
    if (committed) {
      throw new IllegalStateException(target + " is committed already");
    }
    out.close();
    AtomicFiles.moveIntoPlace(tmp, target);
    committed = true;
  }

  /** Deletes the temporary file unless it was committed; the target is then as it was. */
  @Override
  public void close() throws IOException {
    if (!committed) {
      try {
        out.close();
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
  }
}
