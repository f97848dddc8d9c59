package dev.tailor.corpora.trace;

import dev.tailor.corpora.Inputs;
import dev.tailor.corpora.TextLines;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Pattern;

/** The query-trace formats Tailor reads; each line is one query. */
public enum TraceFormat {
  /**
   * luceneutil task files: {@code Category: query # comment}, the query in classic QueryParser
   * syntax with luceneutil's modifiers; what Tailor cannot run as luceneutil means it (special
   * forms such as {@code type//} and {@code +filter=}, facets, {@code Respell}) is counted, not run
   * ({@link QueryTrace}).
   */
  LUCENEUTIL(StandardCharsets.UTF_8),
  /** Plain text, one natural-language query per line, matched as a bag of words. */
  PLAIN(StandardCharsets.UTF_8),
  /** TREC topics, {@code id:query} or {@code id:priority:query}, decoded as Latin-1. */
  TREC(StandardCharsets.ISO_8859_1),
  /** Natural Questions, {@code question\t[answers]}; the answers are ignored. */
  NQ(StandardCharsets.UTF_8);

  private static final Pattern LUCENEUTIL_LINE =
      Pattern.compile("^[A-Za-z][A-Za-z0-9_]*:\\s*\\S.*");
  private static final Pattern TREC_LINE = Pattern.compile("^\\d+:.*\\S.*");
  private static final Pattern NQ_LINE = Pattern.compile("^[^\\t]+\\t\"?\\[.*\\]\"?\\s*$");
  private static final int SAMPLE_LINES = 100;

  private final Charset charset;

  TraceFormat(Charset charset) {
    this.charset = charset;
  }

  /** The character set the format's files are decoded with. */
  public Charset charset() {
    return charset;
  }

  /**
   * Guesses the format of a file from its first lines (up to 100 non-blank, non-comment ones): the
   * format most of them match, PLAIN when none does. Compressed files are read decompressed.
   *
   * @throws dev.tailor.corpora.BadInputException if those lines are not text ({@link TextLines})
   */
  public static TraceFormat detect(Path file) throws IOException {
    int[] votes = new int[values().length];
    // Latin-1 decodes every byte, so that a UTF-8 file is sampled too; a file that is not text
    // (a NUL byte, mostly control characters) is refused here, naming the line and offset.
    try (TextLines in = Inputs.lines(file, StandardCharsets.ISO_8859_1)) {
      String line;
      int seen = 0;
      while (seen < SAMPLE_LINES && (line = in.readLine()) != null) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        seen++;
        votes[classify(line).ordinal()]++;
      }
    }
    TraceFormat best = PLAIN;
    for (TraceFormat f : values()) {
      if (votes[f.ordinal()] > votes[best.ordinal()]) {
        best = f;
      }
    }
    return best;
  }

  private static TraceFormat classify(String line) {
    if (NQ_LINE.matcher(line).matches()) {
      return NQ;
    }
    if (TREC_LINE.matcher(line).matches()) {
      return TREC;
    }
    if (LUCENEUTIL_LINE.matcher(line).matches()) {
      return LUCENEUTIL;
    }
    return PLAIN;
  }
}
