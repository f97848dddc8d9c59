package dev.tailor.corpora;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The lines of a text file, read as written or refused: a file that is not text in its character
 * set is a {@link BadInputException} naming the file, the line and the byte offset, instead of
 * lines of noise that a parser would take for queries.
 *
 * <p>Refused, each at its first occurrence; the opening of the file, up to 64 KiB, is judged before
 * its first line is returned, so that a binary file is refused as such and not as a line a parser
 * cannot read:
 *
 * <ul>
 *   <li>a NUL byte, which no text holds and nearly every binary file does;
 *   <li>in the opening, control characters other than tab and form feed (and the line ends) in more
 *       than a tenth of the bytes;
 *   <li>bytes that do not decode in the character set (the decoder reports malformed and unmappable
 *       input rather than replacing it);
 *   <li>a line in which control characters other than tab and form feed are more than a tenth of
 *       the characters;
 *   <li>a line longer than {@value #MAX_LINE_BYTES} bytes: a file of one query per line has none.
 * </ul>
 *
 * <p>A line ends at {@code \n}, {@code \r} or {@code \r\n}, as {@link java.io.BufferedReader} ends
 * it; the splitting is done on bytes, which is exact for UTF-8 and the single-byte character sets
 * (no multi-byte character contains the byte of {@code \n} or {@code \r}). A byte-order mark
 * opening the file is dropped. Offsets count the bytes of the (decompressed) text from 0.
 */
public final class TextLines implements Closeable {

  /** The longest line read, in bytes. */
  public static final int MAX_LINE_BYTES = 1 << 20;

  private final InputStream in;
  private final Path file;
  private final Charset charset;
  private final CharsetDecoder decoder;
  private final byte[] buffer = new byte[1 << 16];
  private int pos;
  private int limit;
  private long bufferStart; // the offset of buffer[0]
  private boolean afterCarriageReturn; // a \n next ends nothing: it completes \r\n
  private byte[] line = new byte[256];
  private int lineLength;
  private long lineStart;
  private long lineNumber;

  TextLines(InputStream in, Path file, Charset charset) {
    this.in = in;
    this.file = file;
    this.charset = charset;
    this.decoder =
        charset
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
  }

  /**
   * The next line without its terminator, or null at the end of the file.
   *
   * @throws BadInputException if the line is not text (see the class description)
   */
  public String readLine() throws IOException {
    lineLength = 0;
    boolean any = false;
    while (true) {
      if (pos == limit && !fill()) {
        if (!any) {
          return null;
        }
        break;
      }
      byte b = buffer[pos++];
      if (afterCarriageReturn) {
        afterCarriageReturn = false;
        if (b == '\n') {
          continue;
        }
      }
      if (!any) {
        any = true;
        lineStart = bufferStart + pos - 1;
        lineNumber++;
      }
      if (b == '\n') {
        break;
      }
      if (b == '\r') {
        afterCarriageReturn = true;
        break;
      }
      append(b);
    }
    return check(decode());
  }

  /** The number of the line {@link #readLine} returned last, counted from 1; 0 before the first. */
  public long lineNumber() {
    return lineNumber;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  private boolean fill() throws IOException {
    boolean first = bufferStart == 0 && limit == 0;
    bufferStart += limit;
    pos = 0;
    limit = 0;
    // The first read fills the whole buffer, so that the opening of the file is judged at once.
    int n;
    while (limit < buffer.length && (n = in.read(buffer, limit, buffer.length - limit)) >= 0) {
      limit += n;
      if (!first && limit > 0) {
        break;
      }
    }
    if (first) {
      checkOpening();
    }
    return limit > 0;
  }

  /**
   * Judges the opening of the file, up to the buffer's 64 KiB, before a line of it is returned, so
   * that a binary file is refused as such rather than as the first line a parser cannot read: a NUL
   * byte in it, or control characters in more than a tenth of it, refuse the file at the first.
   */
  private void checkOpening() throws BadInputException {
    int controls = 0;
    int first = -1;
    for (int i = 0; i < limit; i++) {
      byte b = buffer[i];
      if (b == 0) {
        throw notText(lineOf(i), i, "a NUL byte (0x00)");
      }
      if (isControl(b)) {
        controls++;
        first = first < 0 ? i : first;
      }
    }
    if (controls > 0 && controls * 10L > limit) {
      throw notText(
          lineOf(first),
          first,
          String.format(
              Locale.ROOT,
              "%d of the first %d bytes are control characters (the first 0x%02X)",
              controls,
              limit,
              buffer[first]));
    }
  }

  /** The line, counted from 1, that byte {@code i} of the opening buffer lies on. */
  private int lineOf(int i) {
    int line = 1;
    for (int j = 0; j < i; j++) {
      if (buffer[j] == '\r' || (buffer[j] == '\n' && (j == 0 || buffer[j - 1] != '\r'))) {
        line++;
      }
    }
    return line;
  }

  private void append(byte b) throws BadInputException {
    if (b == 0) {
      throw notText(lineNumber, lineStart + lineLength, "a NUL byte (0x00)");
    }
    if (lineLength == line.length) {
      if (lineLength >= MAX_LINE_BYTES) {
        throw new BadInputException(
            file,
            lineNumber,
            "longer than "
                + MAX_LINE_BYTES
                + " bytes: a file of one query per line has no such line; this looks like a"
                + " binary file");
      }
      line = Arrays.copyOf(line, Math.min(MAX_LINE_BYTES, line.length * 2));
    }
    line[lineLength++] = b;
  }

  private String decode() throws BadInputException {
    ByteBuffer bytes = ByteBuffer.wrap(line, 0, lineLength);
    CharBuffer chars = CharBuffer.allocate((int) (lineLength * decoder.maxCharsPerByte()) + 1);
    decoder.reset();
    CoderResult r = decoder.decode(bytes, chars, true);
    if (!r.isError()) {
      r = decoder.flush(chars);
    }
    if (r.isError()) {
      int at = bytes.position();
      StringBuilder shown = new StringBuilder();
      for (int i = at; i < Math.min(lineLength, at + r.length()); i++) {
        shown.append(String.format(Locale.ROOT, " 0x%02X", line[i] & 0xff));
      }
      throw notText(
          lineNumber,
          lineStart + at,
          (r.length() == 1 ? "the byte" : "the bytes")
              + shown
              + (r.length() == 1 ? ", which is not " : ", which are not ")
              + charset.name()
              + " text");
    }
    chars.flip();
    if (lineNumber == 1 && chars.hasRemaining() && chars.get(0) == '\uFEFF') {
      chars.get(); // a byte-order mark opening the file is not part of the text
    }
    return chars.toString();
  }

  /** Refuses a line whose control characters are more than a tenth of its characters. */
  private String check(String text) throws BadInputException {
    int controls = 0;
    int first = -1;
    for (int i = 0; i < lineLength; i++) {
      // Control characters are single bytes in every character set read here.
      if (isControl(line[i])) {
        controls++;
        first = first < 0 ? i : first;
      }
    }
    if (controls > 0 && controls * 10L > text.length()) {
      throw notText(
          lineNumber,
          lineStart + first,
          String.format(
              Locale.ROOT,
              "%d of the line's %d characters are control characters (the first 0x%02X)",
              controls,
              text.length(),
              line[first]));
    }
    return text;
  }

  /** A control character other than tab, form feed and the line ends; DEL included. */
  private static boolean isControl(byte b) {
    return (b >= 0 && b < 0x20 && b != '\t' && b != '\f' && b != '\n' && b != '\r') || b == 0x7f;
  }

  private BadInputException notText(long line, long offset, String what) {
    return new BadInputException(
        file, line, "byte offset " + offset + ": " + what + "; this is not a text file");
  }
}
