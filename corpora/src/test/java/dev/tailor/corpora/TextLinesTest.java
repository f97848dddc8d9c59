package dev.tailor.corpora;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextLinesTest {

  @TempDir Path tmp;

  private Path file(String name, byte[] bytes) throws IOException {
    return Files.write(tmp.resolve(name), bytes);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> lines(Path file, Charset charset) throws IOException {
    List<String> out = new ArrayList<>();
    try (TextLines in = Inputs.lines(file, charset)) {
      for (String line; (line = in.readLine()) != null; ) {
        out.add(in.lineNumber() + ":" + line);
      }
    }
    return out;
  }

  private static BadInputException refused(Path file, Charset charset) {
    return assertThrows(BadInputException.class, () -> lines(file, charset));
  }

  @Test
  void endsLinesAsBufferedReaderDoesAndDropsAByteOrderMark() throws IOException {
    Path f = file("t.txt", utf8("\uFEFFone\r\ntwo\rthree\n\nfour é"));
    assertEquals(
        List.of("1:one", "2:two", "3:three", "4:", "5:four é"), lines(f, StandardCharsets.UTF_8));
  }

  @Test
  void aCarriageReturnAndLineFeedSplitAcrossReadsEndOneLine() throws IOException {
    // 65,535 bytes, then \r as the last byte of the first read and \n as the first of the next.
    byte[] a = new byte[(1 << 16) - 1];
    Arrays.fill(a, (byte) 'a');
    Path f = file("t.txt", utf8(new String(a, StandardCharsets.US_ASCII) + "\r\nb\n"));
    List<String> read = lines(f, StandardCharsets.UTF_8);
    assertEquals(2, read.size());
    assertEquals("2:b", read.get(1));
  }

  @Test
  void aNulByteIsRefusedWithLineAndOffset() throws IOException {
    Path f = file("t.txt", utf8("HighTerm: ref\nMed\0Term: x\n"));
    BadInputException e = refused(f, StandardCharsets.UTF_8);
    assertEquals(2, e.line());
    assertEquals(
        f + ":2: byte offset 17: a NUL byte (0x00); this is not a text file", e.getMessage());
    // Latin-1 decodes every byte, but not a NUL.
    assertEquals(2, refused(f, StandardCharsets.ISO_8859_1).line());
  }

  @Test
  void bytesThatAreNotUtf8AreRefusedWithLineAndOffset() throws IOException {
    byte[] bytes = {'o', 'k', '\n', 'c', 'a', 'f', (byte) 0xC3, '(', '\n'};
    Path f = file("t.txt", bytes);
    BadInputException e = refused(f, StandardCharsets.UTF_8);
    assertEquals(
        f + ":2: byte offset 6: the byte 0xC3, which is not UTF-8 text; this is not a text file",
        e.getMessage());
    // A sequence cut short by the end of the file.
    Path cut = file("cut.txt", new byte[] {'a', (byte) 0xE2, (byte) 0x82});
    assertEquals(
        cut
            + ":1: byte offset 1: the bytes 0xE2 0x82, which are not UTF-8 text; this is not a"
            + " text file",
        refused(cut, StandardCharsets.UTF_8).getMessage());
    // The same bytes are Latin-1 text.
    assertEquals(List.of("1:ok", "2:caf\u00c3("), lines(f, StandardCharsets.ISO_8859_1));
  }

  @Test
  void aLineOfMostlyControlCharactersIsRefusedButAStrayOneIsRead() throws IOException {
    Path f =
        file("t.txt", utf8("tab\tand form\ffeed\nan escape \u001b in twenty\n\u0001\u0002abc\n"));
    BadInputException e = refused(f, StandardCharsets.UTF_8);
    assertEquals(
        f
            + ":3: byte offset 40: 2 of the line's 5 characters are control characters (the first"
            + " 0x01); this is not a text file",
        e.getMessage());
    Path stray = file("stray.txt", utf8("tab\tand form\ffeed\nan escape \u001b in twenty\n"));
    assertEquals(2, lines(stray, StandardCharsets.UTF_8).size());
  }

  @Test
  void anOpeningOfMostlyControlCharactersIsRefusedBeforeItsFirstLine() throws IOException {
    byte[] bytes = new byte[1000];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i % 4 == 0 ? 0x01 : 'a'); // a control character in every fourth byte
    }
    bytes[0] = 'a';
    bytes[10] = '\n';
    Path f = file("t.bin", bytes);
    try (TextLines in = Inputs.lines(f, StandardCharsets.ISO_8859_1)) {
      BadInputException e = assertThrows(BadInputException.class, in::readLine);
      assertEquals(
          f
              + ":1: byte offset 4: 249 of the first 1000 bytes are control characters (the first"
              + " 0x01); this is not a text file",
          e.getMessage());
    }
  }

  @Test
  void aNulAnywhereInTheOpeningIsRefusedBeforeItsFirstLine() throws IOException {
    Path f = file("t.txt", utf8("first line\r\nsecond\rthird \0 line\n"));
    try (TextLines in = Inputs.lines(f, StandardCharsets.UTF_8)) {
      BadInputException e = assertThrows(BadInputException.class, in::readLine);
      assertEquals(
          f + ":3: byte offset 25: a NUL byte (0x00); this is not a text file", e.getMessage());
    }
  }

  @Test
  void aLineLongerThanTheLimitIsRefused() throws IOException {
    byte[] big = new byte[TextLines.MAX_LINE_BYTES + 1];
    Arrays.fill(big, (byte) 'x');
    BadInputException e = refused(file("t.txt", big), StandardCharsets.UTF_8);
    assertEquals(1, e.line());
    assertEquals(true, e.getMessage().contains("longer than 1048576 bytes"), e.getMessage());
  }

  @Test
  void aCompressedFileCountsOffsetsInItsText() throws IOException {
    Path gz = tmp.resolve("t.txt.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(utf8("one\ntwo\0\n"));
    }
    assertEquals(
        gz + ":2: byte offset 7: a NUL byte (0x00); this is not a text file",
        refused(gz, StandardCharsets.UTF_8).getMessage());
  }
}
