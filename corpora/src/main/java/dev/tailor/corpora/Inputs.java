package dev.tailor.corpora;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;

/**
 * Opens corpus and trace files, decompressing bzip2 and gzip by their magic bytes (not their
 * names), and turns a truncated or corrupt compressed stream into a {@link BadInputException} that
 * says so, instead of a bare EOF deep inside a parser. {@link #lines} reads a text file as written
 * or refuses it; {@link #reader} decodes leniently.
 */
public final class Inputs {

  private Inputs() {}

  /** The decompressed bytes of a file, plain, bzip2 or gzip. */
  public static InputStream open(Path file) throws IOException {
    InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
    raw.mark(3);
    int b0 = raw.read();
    int b1 = raw.read();
    int b2 = raw.read();
    raw.reset();
    try {
      if (b0 == 'B' && b1 == 'Z' && b2 == 'h') {
        return new Checked(new BZip2CompressorInputStream(raw, true), file, "bzip2");
      }
      if (b0 == 0x1f && b1 == 0x8b) {
        return new Checked(new GZIPInputStream(raw, 1 << 16), file, "gzip");
      }
    } catch (IOException e) {
      raw.close();
      throw truncated(file, b0 == 'B' ? "bzip2" : "gzip", e);
    }
    return raw;
  }

  /**
   * The lines of the decompressed text of a file, read as written or refused: a file that is not
   * text in {@code charset} fails with a {@link BadInputException} naming the file, the line and
   * the byte offset ({@link TextLines}).
   */
  public static TextLines lines(Path file, Charset charset) throws IOException {
    return new TextLines(open(file), file, charset);
  }

  /**
   * A reader over the decompressed text of a file, which replaces what does not decode; for a file
   * read as written, see {@link #lines}.
   */
  public static BufferedReader reader(Path file, Charset charset) throws IOException {
    return new BufferedReader(new InputStreamReader(open(file), charset), 1 << 16);
  }

  static BadInputException truncated(Path file, String kind, IOException cause) {
    return new BadInputException(
        file,
        "truncated or corrupt "
            + kind
            + " data ("
            + cause.getMessage()
            + "): the compressed stream ends early or is damaged; fetch or copy the file again",
        cause);
  }

  /** Reports a failure of the decompressor as bad input naming the file. */
  private static final class Checked extends FilterInputStream {
    private final Path file;
    private final String kind;

    Checked(InputStream in, Path file, String kind) {
      super(in);
      this.file = file;
      this.kind = kind;
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (BadInputException e) {
        throw e;
      } catch (IOException e) {
        throw truncated(file, kind, e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return super.read(b, off, len);
      } catch (BadInputException e) {
        throw e;
      } catch (IOException e) {
        throw truncated(file, kind, e);
      }
    }
  }
}
