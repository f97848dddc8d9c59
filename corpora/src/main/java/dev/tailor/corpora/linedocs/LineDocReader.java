package dev.tailor.corpora.linedocs;

import dev.tailor.corpora.BadInputException;
import dev.tailor.corpora.CorpusDoc;
import dev.tailor.corpora.DocSource;
import dev.tailor.corpora.Inputs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Reads luceneutil line docs: one document per line, {@code title TAB date TAB body [TAB label]},
 * with an optional first line starting {@value #HEADER}. Plain, gzip or bzip2. A line with fewer
 * than three fields is reported (file and line) and skipped, or fatal when strict.
 */
public final class LineDocReader implements DocSource {

  /** How luceneutil's header line starts. */
  public static final String HEADER = "FIELDS_HEADER_INDICATOR###";

  private final Path file;
  private final BufferedReader in;
  private final boolean strict;
  private final Consumer<String> warnings;
  private long line;

  /**
   * Opens a line-docs file.
   *
   * @param warnings hears one message per skipped line
   */
  public LineDocReader(Path file, boolean strict, Consumer<String> warnings) throws IOException {
    this.file = file;
    this.in = Inputs.reader(file, StandardCharsets.UTF_8);
    this.strict = strict;
    this.warnings = warnings;
  }

  /**
   * Opens an uncompressed line-docs file at a line start.
   *
   * @param offset the byte offset of a line start
   * @param linesBefore the number of lines before that offset, so that messages name true lines
   */
  LineDocReader(Path file, long offset, long linesBefore, boolean strict, Consumer<String> warnings)
      throws IOException {
    this.file = file;
    FileChannel channel = FileChannel.open(file);
    channel.position(offset);
    this.in =
        new BufferedReader(
            new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8),
            1 << 16);
    this.line = linesBefore;
    this.strict = strict;
    this.warnings = warnings;
  }

  @Override
  public CorpusDoc next() throws IOException {
    String s;
    while ((s = in.readLine()) != null) {
      line++;
      if (line == 1 && s.startsWith(HEADER)) {
        continue;
      }
      if (s.isEmpty()) {
        continue;
      }
      int t1 = s.indexOf('\t');
      int t2 = t1 < 0 ? -1 : s.indexOf('\t', t1 + 1);
      if (t2 < 0) {
        String problem =
            "expected 'title<TAB>date<TAB>body[<TAB>label]', found fewer than 3 fields";
        if (strict) {
          throw new BadInputException(file, line, problem);
        }
        warnings.accept(file + ":" + line + ": " + problem + "; skipped");
        continue;
      }
      int t3 = s.indexOf('\t', t2 + 1);
      String body = t3 < 0 ? s.substring(t2 + 1) : s.substring(t2 + 1, t3);
      String label = t3 < 0 ? null : s.substring(t3 + 1);
      return new CorpusDoc(s.substring(0, t1), s.substring(t1 + 1, t2), body, label);
    }
    return null;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
