package dev.tailor.corpora.linedocs;

import dev.tailor.corpora.BadInputException;
import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.DocSource;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A line-docs file as a corpus. Counting an uncompressed file scans its bytes and notes where every
 * {@value #CHECKPOINT_EVERY}th document starts, so that {@link #openAt} can then start near any
 * document without reading what precedes it, and the indexer can read the file in parallel.
 * Compressed files are read from the start.
 */
public final class LineDocsCorpus implements Corpus {

  static final int CHECKPOINT_EVERY = 1024;

  private final Path file;
  private final String label;
  private final boolean strict;
  private final Consumer<String> warnings;
  private final boolean compressed;
  // Filled by count(): byte offset and lines before document k * CHECKPOINT_EVERY.
  private long[] offsets;
  private long[] linesBefore;

  /**
   * A line-docs corpus.
   *
   * @param label what the text is
   * @param strict whether a malformed line is fatal
   * @param warnings hears one message per skipped line
   */
  public LineDocsCorpus(Path file, String label, boolean strict, Consumer<String> warnings)
      throws IOException {
    this.file = file;
    this.label = label;
    this.strict = strict;
    this.warnings = warnings;
    try (InputStream in = Files.newInputStream(file)) {
      int b0 = in.read();
      int b1 = in.read();
      this.compressed = (b0 == 'B' && b1 == 'Z') || (b0 == 0x1f && b1 == 0x8b);
    }
  }

  @Override
  public String source() {
    return file.toString();
  }

  @Override
  public String label() {
    return label;
  }

  @Override
  public DocSource open() throws IOException {
    return new LineDocReader(file, strict, warnings);
  }

  @Override
  public boolean seeksCheaply() {
    return !compressed;
  }

  @Override
  public DocSource openAt(long first) throws IOException {
    if (offsets == null || first == 0) {
      return Corpus.super.openAt(first);
    }
    int k = (int) Math.min(first / CHECKPOINT_EVERY, offsets.length - 1);
    // Lines skipped on the way to `first` belong to the reader of the documents before it: mute
    // them here, so that every malformed line is reported once.
    boolean[] skipping = {true};
    LineDocReader docs =
        new LineDocReader(
            file,
            offsets[k],
            linesBefore[k],
            strict,
            w -> {
              if (!skipping[0]) {
                warnings.accept(w);
              }
            });
    for (long i = (long) k * CHECKPOINT_EVERY; i < first; i++) {
      if (docs.next() == null) {
        break;
      }
    }
    skipping[0] = false;
    return docs;
  }

  @Override
  public long count() throws IOException {
    if (compressed) {
      long n = 0;
      // Count quietly: skipped lines are reported once, by the read that uses the documents.
      try (LineDocReader docs = new LineDocReader(file, strict, s -> {})) {
        while (docs.next() != null) {
          n++;
        }
      }
      return n;
    }
    return scan();
  }

  /**
   * Counts the documents as {@link LineDocReader} would read them (lines end at {@code \n}, {@code
   * \r} or {@code \r\n}; the header, empty lines and lines with fewer than two tabs are not
   * documents), noting checkpoints. A checkpoint for document {@code k} is where the line after
   * document {@code k - 1} starts (the file's start for document 0), so that a reader started there
   * also sees the lines between the two documents.
   */
  private long scan() throws IOException {
    long[] offs = new long[64];
    long[] lines = new long[64];
    int checkpoints = 0;
    long docs = 0;
    long line = 0;
    long pos = 0;
    int tabs = 0;
    int length = 0;
    int headerMatched = 0;
    byte[] header = LineDocReader.HEADER.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    boolean afterCr = false;
    long afterPrevDoc = 0;
    long linesAfterPrevDoc = 0;
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      byte[] buf = new byte[1 << 16];
      int n;
      while ((n = in.read(buf)) > 0) {
        for (int i = 0; i < n; i++, pos++) {
          byte b = buf[i];
          if (b == '\n' && afterCr) {
            afterCr = false;
            if (afterPrevDoc == pos) {
              afterPrevDoc = pos + 1;
            }
            continue;
          }
          afterCr = false;
          if (b == '\n' || b == '\r') {
            afterCr = b == '\r';
            line++;
            boolean isHeader = line == 1 && headerMatched == header.length;
            if (!isHeader && length > 0) {
              if (tabs >= 2) {
                if (docs % CHECKPOINT_EVERY == 0) {
                  if (checkpoints == offs.length) {
                    offs = Arrays.copyOf(offs, checkpoints * 2);
                    lines = Arrays.copyOf(lines, checkpoints * 2);
                  }
                  offs[checkpoints] = afterPrevDoc;
                  lines[checkpoints++] = linesAfterPrevDoc;
                }
                docs++;
                afterPrevDoc = pos + 1;
                linesAfterPrevDoc = line;
              } else if (strict) {
                throw new BadInputException(
                    file,
                    line,
                    "expected 'title<TAB>date<TAB>body[<TAB>label]', found fewer than 3 fields");
              }
            }
            tabs = 0;
            length = 0;
            continue;
          }
          if (line == 0 && headerMatched == length && length < header.length) {
            headerMatched += b == header[length] ? 1 : 0;
          }
          length++;
          if (b == '\t') {
            tabs++;
          }
        }
      }
    }
    if (length > 0) {
      // A last line without a line break.
      line++;
      boolean isHeader = line == 1 && headerMatched == header.length;
      if (!isHeader && tabs >= 2) {
        if (docs % CHECKPOINT_EVERY == 0) {
          if (checkpoints == offs.length) {
            offs = Arrays.copyOf(offs, checkpoints + 1);
            lines = Arrays.copyOf(lines, checkpoints + 1);
          }
          offs[checkpoints] = afterPrevDoc;
          lines[checkpoints++] = linesAfterPrevDoc;
        }
        docs++;
      } else if (!isHeader && strict) {
        throw new BadInputException(
            file,
            line,
            "expected 'title<TAB>date<TAB>body[<TAB>label]', found fewer than 3 fields");
      }
    }
    offsets = Arrays.copyOf(offs, Math.max(1, checkpoints));
    linesBefore = Arrays.copyOf(lines, Math.max(1, checkpoints));
    return docs;
  }
}
