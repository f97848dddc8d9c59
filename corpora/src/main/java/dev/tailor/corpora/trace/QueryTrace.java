package dev.tailor.corpora.trace;

import dev.tailor.corpora.BadInputException;
import dev.tailor.corpora.Inputs;
import dev.tailor.corpora.TextLines;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.QueryBuilder;

/**
 * A query trace read from a file: the queries Tailor can run, in file order, and a count of the
 * lines it could not run, by reason.
 *
 * <p>luceneutil tasks are parsed with Lucene's classic QueryParser (their syntax is the
 * QueryParser's); the natural-language formats are matched as a bag of words (a disjunction of the
 * analyzed terms), because their text is typed by people and is not query syntax. Every query is on
 * field {@value #FIELD}.
 *
 * <p>A luceneutil task runs as luceneutil means it (its {@code perf.TaskParser}), or not at all:
 * the modifiers {@code +minShouldMatch=N} and {@code +constantScore} are applied to the boolean
 * query they follow ({@link TaskModifiers}: the {@code ConstMSM2} and {@code BM25MSM2} tasks), not
 * parsed as required terms; a {@code Respell} task is a spelling suggestion, not a search, and a
 * {@code range:FIELD:LO-HI,...} line defines range facets and holds no query, so both are counted;
 * so are the special forms Tailor cannot run as meant ({@code type//} such as {@code nrq//} and the
 * sorts, {@code count(...)}, and the modifiers that add a filter, facets, drill-down or other
 * fields).
 *
 * <p>A malformed line (a luceneutil line without a category or with a query the QueryParser
 * rejects, a modifier that does not apply, a TREC line without an id, an NQ line without its
 * answers) is counted in {@link #skipped()}, reported in {@link #warnings()} with file and line,
 * and skipped; or is fatal when {@code strict}. Lines that are well-formed but not runnable (the
 * forms above, and queries whose terms are all stop words) are counted in {@link #skipped()} in
 * both modes. A file that is not text (a NUL byte, bytes that are not the format's character set,
 * mostly control characters) is refused in both modes, naming the line and the byte offset ({@link
 * TextLines}). A trace with no runnable query is an error.
 */
public final class QueryTrace {

  /** The field every query searches. */
  public static final String FIELD = "body";

  static final String REASON_MALFORMED = "malformed line";
  static final String REASON_UNPARSABLE = "unparsable query";
  static final String REASON_NO_TERMS = "no terms after analysis";

  static final String REASON_RESPELL = "spelling task (Respell)";
  static final String REASON_RANGE_FACETS = "range facet definition";

  private static final String RESPELL = "Respell";
  private static final Pattern TREC_LINE = Pattern.compile("^(\\d+):(?:(\\d+):)?(.*)$");
  private static final Pattern SPECIAL_PREFIX = Pattern.compile("^([A-Za-z][A-Za-z0-9_]*)//");
  private static final Pattern RANGE_FACETS =
      Pattern.compile("[A-Za-z_][A-Za-z0-9_]*:-?\\d+--?\\d+(,-?\\d+--?\\d+)*");
  private static final Pattern COUNT_ONLY = Pattern.compile("count\\(.*\\)");

  /**
   * luceneutil's modifiers that change what a task does beyond its query (a filter, facets, drill
   * down or sideways, other fields, a page after a sort value): Tailor cannot run them as meant, so
   * it counts them rather than run the query without them.
   */
  private static final List<String> UNRUN_MODIFIERS =
      List.of(
          "+filter=",
          "+preFilter=",
          "+facets:",
          "+facets=",
          "+drillDown:",
          "+drillSideways",
          "+combinedFields=",
          "+dismaxFields=",
          "+dvRangeFilter=",
          "+searchAfter=");

  private final Path source;
  private final List<TraceQuery> queries;
  private final Map<String, Integer> skipped;
  private final List<String> warnings;

  private QueryTrace(
      Path source, List<TraceQuery> queries, Map<String, Integer> skipped, List<String> warnings) {
    this.source = source;
    this.queries = Collections.unmodifiableList(queries);
    this.skipped = Collections.unmodifiableMap(skipped);
    this.warnings = Collections.unmodifiableList(warnings);
  }

  /**
   * Reads a trace.
   *
   * @param file the trace, plain or compressed (bzip2, gzip)
   * @param format its format (see {@link TraceFormat#detect})
   * @param analyzer the index's analyzer, which query text is analyzed with
   * @param strict whether a malformed line is fatal rather than reported and skipped
   * @throws BadInputException for a malformed line when strict, a file that is not text, a
   *     truncated file, or a trace with no runnable query
   */
  public static QueryTrace read(Path file, TraceFormat format, Analyzer analyzer, boolean strict)
      throws IOException {
    Reading r = new Reading(file, format, analyzer, strict);
    try (TextLines in = Inputs.lines(file, format.charset())) {
      String line;
      int n = 0;
      while ((line = in.readLine()) != null) {
        if (in.lineNumber() > Integer.MAX_VALUE) {
          throw new BadInputException(file, in.lineNumber(), "more lines than a trace may have");
        }
        n = (int) in.lineNumber();
        r.line(n, line);
      }
      if (r.queries.isEmpty()) {
        throw new BadInputException(
            file,
            "no runnable query in "
                + n
                + " lines read as "
                + format
                + (r.skipped.isEmpty() ? "" : "; skipped: " + r.skipped)
                + (r.warnings.isEmpty() ? "" : "; first problem: " + r.warnings.get(0)));
      }
    }
    return new QueryTrace(file, r.queries, r.skipped, r.warnings);
  }

  /** The runnable queries, in file order. */
  public List<TraceQuery> queries() {
    return queries;
  }

  /** The lines that were not turned into queries, counted by reason. */
  public Map<String, Integer> skipped() {
    return skipped;
  }

  /** One message per malformed line skipped, each naming the file and the line. */
  public List<String> warnings() {
    return warnings;
  }

  /** The file the trace was read from. */
  public Path source() {
    return source;
  }

  /** The state of one read: parsers are not thread-safe, so each read has its own. */
  private static final class Reading {
    final Path file;
    final TraceFormat format;
    final boolean strict;
    final QueryParser parser;
    final QueryBuilder words;
    final List<TraceQuery> queries = new ArrayList<>();
    final Map<String, Integer> skipped = new TreeMap<>();
    final List<String> warnings = new ArrayList<>();

    Reading(Path file, TraceFormat format, Analyzer analyzer, boolean strict) {
      this.file = file;
      this.format = format;
      this.strict = strict;
      this.parser = new QueryParser(FIELD, analyzer);
      this.words = new QueryBuilder(analyzer);
    }

    void line(int n, String raw) throws BadInputException {
      String line = raw.strip();
      if (line.isEmpty() || (line.startsWith("#") && format != TraceFormat.TREC)) {
        return;
      }
      switch (format) {
        case LUCENEUTIL -> luceneutil(n, line);
        case PLAIN -> words(n, String.valueOf(n), "plain", line);
        case TREC -> trec(n, line);
        case NQ -> nq(n, line);
      }
    }

    private void luceneutil(int n, String line) throws BadInputException {
      int comment = line.indexOf(" #");
      if (comment >= 0) {
        line = line.substring(0, comment).strip();
      }
      int colon = line.indexOf(':');
      if (colon <= 0) {
        malformed(n, "expected 'Category: query', found no category before a ':'");
        return;
      }
      String category = line.substring(0, colon).strip();
      String text = line.substring(colon + 1).strip();
      // luceneutil runs a Respell task as a spelling suggestion, not a search; it decides by the
      // category alone, before it looks at the text.
      if (category.equals(RESPELL)) {
        count(REASON_RESPELL);
        return;
      }
      if (text.isEmpty()) {
        malformed(n, "expected a query after '" + category + ":'");
        return;
      }
      // range:FIELD:LO-HI,... defines range facets over a numeric field; it holds no query.
      if (category.equals("range") && RANGE_FACETS.matcher(text).matches()) {
        count(REASON_RANGE_FACETS);
        return;
      }
      String special = specialForm(text);
      if (special != null) {
        count(special);
        return;
      }
      try {
        TaskModifiers m = TaskModifiers.of(text);
        add(n, String.valueOf(n), category, text, m.apply(parser.parse(m.query())));
      } catch (ParseException | RuntimeException e) {
        // QueryParser reports bad syntax as ParseException, and too many clauses as a runtime
        // error; a modifier that does not apply is an IllegalArgumentException.
        if (strict) {
          throw new BadInputException(
              file, n, "cannot parse '" + text + "': " + firstLine(e.getMessage()));
        }
        count(REASON_UNPARSABLE);
        warn(n, "cannot parse '" + text + "': " + firstLine(e.getMessage()));
      }
    }

    /** The reason a luceneutil query is a form Tailor cannot run, or null if it is plain syntax. */
    private static String specialForm(String text) {
      Matcher m = SPECIAL_PREFIX.matcher(text);
      if (m.find()) {
        return "special form " + m.group(1) + "//";
      }
      if (COUNT_ONLY.matcher(text).find()) {
        return "special form count()";
      }
      for (String token : text.split("\\s+")) {
        for (String modifier : UNRUN_MODIFIERS) {
          if (token.startsWith(modifier)) {
            return "special form " + modifier.replaceAll("[=:]$", "");
          }
        }
      }
      return null;
    }

    private void trec(int n, String line) throws BadInputException {
      Matcher m = TREC_LINE.matcher(line);
      if (!m.matches() || m.group(3).isBlank()) {
        malformed(n, "expected 'id:query' or 'id:priority:query' with a numeric id");
        return;
      }
      String category = m.group(2) == null ? "trec" : "trec-p" + m.group(2);
      words(n, m.group(1), category, m.group(3).strip());
    }

    private void nq(int n, String line) throws BadInputException {
      int tab = line.indexOf('\t');
      String answers = tab <= 0 ? "" : line.substring(tab + 1).strip();
      // The answers are a Python list, CSV-quoted when an answer holds a double quote.
      if (!answers.startsWith("[") && !answers.startsWith("\"[")) {
        malformed(n, "expected 'question<TAB>[answers]'");
        return;
      }
      words(n, String.valueOf(n), "nq", line.substring(0, tab).strip());
    }

    private void words(int n, String id, String category, String text) {
      Query q = words.createBooleanQuery(FIELD, text, BooleanClause.Occur.SHOULD);
      add(n, id, category, text, q);
    }

    private void add(int n, String id, String category, String text, Query q) {
      if (q == null || (q instanceof BooleanQuery b && b.clauses().isEmpty())) {
        count(REASON_NO_TERMS);
        return;
      }
      queries.add(new TraceQuery(n, id, category, text, q));
    }

    private void malformed(int n, String expected) throws BadInputException {
      if (strict) {
        throw new BadInputException(file, n, expected + " (format " + format + ")");
      }
      count(REASON_MALFORMED);
      warn(n, expected + " (format " + format + "); skipped");
    }

    private void warn(int n, String message) {
      warnings.add(file + ":" + n + ": " + message);
    }

    private void count(String reason) {
      skipped.merge(reason, 1, Integer::sum);
    }

    private static String firstLine(String s) {
      if (s == null) {
        return "";
      }
      int nl = s.indexOf('\n');
      return nl < 0 ? s : s.substring(0, nl);
    }
  }
}
