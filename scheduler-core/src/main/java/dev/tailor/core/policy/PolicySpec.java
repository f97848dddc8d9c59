package dev.tailor.core.policy;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A policy's identity as a value: its kind (the name the {@link PolicyRegistry} knows it by), its
 * settings, and the order its free workers take work in if the specification overrides it. What a
 * specification string says, typed: {@link #parse} reads the string, {@link #toString()} writes it
 * back, and {@code parse(spec.toString())} equals {@code spec}.
 *
 * <p>The grammar: {@code KIND[:ARGUMENTS][@help-first|@admit-first]}.
 *
 * <ul>
 *   <li>{@code KIND}, up to the first {@code :} or {@code @}, trimmed and taken in lower case:
 *       {@code seq}, {@code fixed}, {@code fm}.
 *   <li>For the table-driven kinds, the arguments are table files, {@link #tables()}: {@code fm},
 *       {@code fm-wc}, {@code tpc}, {@code tp}, {@code tpc-oracle}, {@code tc} and {@code
 *       tc-oracle} take one, the whole text after the colon ({@code tpc:tables/t.json}); {@code
 *       progress} takes the target table's and, after the last {@code +}, the threshold table's
 *       ({@code progress:t.json+th.json}).
 *   <li>For every other kind, the arguments are the comma-separated pieces after the colon, each
 *       trimmed, {@link #arguments()}: {@code rampup:10ms,6} has {@code 10ms} and {@code 6}; {@code
 *       auto:period=1m,requests=500} has two settings. A policy reads its own arguments.
 *   <li>A suffix {@code @help-first} or {@code @admit-first} (any case) overrides the order in
 *       which the policy's free workers take work ({@link WorkerPreference}); when several are
 *       given, the last one counts.
 * </ul>
 *
 * <p><b>Quoting.</b> A table's file or an argument may be written in double quotes, and must be
 * when it contains a character the grammar would otherwise read: {@code @} (a suffix), {@code +}
 * (in {@code progress}, between the two files), {@code ,} (between arguments, and between the
 * specifications of a list), or when it starts with a double quote, or starts or ends with a space.
 * Within the quotes every character stands for itself, except that a double quote is written twice:
 * {@code fm:"/data/run@2/fm+tc, v2.json"}, {@code progress:"t@1.json"+"th+1.json"@admit-first},
 * {@code x:"say ""hi"""}. A quote opens only at the start of a file or an argument; elsewhere it is
 * an ordinary character. {@link #toString()} quotes exactly where needed.
 *
 * <p>A table-driven policy whose table was handed to it in memory, not read from a file, has the
 * identity {@link #inMemory(String) KIND:(in memory)}: it names no file, so the registry cannot
 * create a policy from it. A file whose name is {@code (in memory)} is written in quotes.
 */
public final class PolicySpec {

  /** How a table held in memory is written in place of its file. */
  public static final String IN_MEMORY = "(in memory)";

  /** The kinds whose argument is one table file. */
  private static final Set<String> ONE_TABLE =
      Set.of("fm", "fm-wc", "tpc", "tp", "tpc-oracle", "tc", "tc-oracle");

  /** The kind whose arguments are a target table file and, optionally, a threshold table file. */
  private static final String TWO_TABLES = ProgressPolicy.NAME;

  private final String kind;
  private final List<String> arguments;
  private final List<Path> tables;
  private final boolean inMemory;
  private final WorkerPreference preference; // null: the policy's own

  private PolicySpec(
      String kind,
      List<String> arguments,
      List<Path> tables,
      boolean inMemory,
      WorkerPreference preference) {
    this.kind = kind;
    this.arguments = List.copyOf(arguments);
    this.tables = List.copyOf(tables);
    this.inMemory = inMemory;
    this.preference = preference;
  }

  /**
   * The identity of a policy of {@code kind} with these arguments, as they would be written after
   * the colon, unquoted: {@code of("rampup", "10ms", "6")} is {@code rampup:10ms,6}, {@code
   * of("seq")} is {@code seq}. The arguments are taken as given; the kind in lower case.
   *
   * @throws IllegalArgumentException if the kind is not a name (empty, or containing {@code :},
   *     {@code @} or a quote), or takes table files ({@link #ofTables}), or an argument is null
   */
  public static PolicySpec of(String kind, String... arguments) {
    return of(kind, List.of(arguments));
  }

  /**
   * The identity of a policy of {@code kind} with these arguments ({@link #of(String, String...)}).
   *
   * @throws IllegalArgumentException as {@link #of(String, String...)} does
   */
  public static PolicySpec of(String kind, List<String> arguments) {
    String k = kind(kind);
    if (takesTables(k)) {
      throw new IllegalArgumentException(
          "policy kind '" + k + "' takes table files: use PolicySpec.ofTables");
    }
    return new PolicySpec(k, arguments, List.of(), false, null);
  }

  /**
   * The identity of a table-driven policy of {@code kind} reading these files: {@code
   * ofTables("tpc", Path.of("t.json"))}, {@code ofTables("progress", targets, thresholds)}. Any
   * file name will do; {@link #toString()} quotes it where the grammar needs.
   *
   * @throws IllegalArgumentException if {@code kind} takes no table files, or not that many (one,
   *     or for {@code progress} one or two), or a path is empty
   */
  public static PolicySpec ofTables(String kind, Path... tables) {
    String k = kind(kind);
    int max = k.equals(TWO_TABLES) ? 2 : ONE_TABLE.contains(k) ? 1 : 0;
    if (max == 0) {
      throw new IllegalArgumentException(
          "policy kind '"
              + k
              + "' takes no table files; the table-driven kinds are "
              + tableKinds());
    }
    if (tables.length < 1 || tables.length > max) {
      throw new IllegalArgumentException(
          "policy kind '"
              + k
              + "' takes "
              + (max == 1 ? "one table file" : "one or two table files")
              + ", got "
              + tables.length);
    }
    for (Path p : tables) {
      if (Objects.requireNonNull(p, "table").toString().isEmpty()) {
        throw new IllegalArgumentException("a table's file is an empty path");
      }
    }
    return new PolicySpec(k, List.of(), List.of(tables), false, null);
  }

  /**
   * The identity of a table-driven policy of {@code kind} whose tables were handed to it in memory:
   * {@code KIND:(in memory)}. No policy can be created from it.
   *
   * @throws IllegalArgumentException if {@code kind} takes no table files
   */
  public static PolicySpec inMemory(String kind) {
    String k = kind(kind);
    if (!takesTables(k)) {
      throw new IllegalArgumentException(
          "policy kind '"
              + k
              + "' takes no table files; the table-driven kinds are "
              + tableKinds());
    }
    return new PolicySpec(k, List.of(), List.of(), true, null);
  }

  /**
   * Reads a specification string (the grammar is in the class's description).
   *
   * @throws IllegalArgumentException naming the specification, what is wrong and what was expected
   */
  public static PolicySpec parse(String spec) {
    return new Reader(Objects.requireNonNull(spec, "spec")).read();
  }

  /**
   * The kind a specification string starts with, without reading the rest, which may be incomplete
   * (a sweep's {@code tc:t-{rps}.json}) or not a policy's at all: the text before the first {@code
   * :} or {@code @}, trimmed, in lower case. For telling kinds apart in a list of specifications;
   * {@link #parse} reads the whole.
   */
  public static String kindOf(String spec) {
    String s = spec.trim();
    return s.substring(0, kindEnd(s)).trim().toLowerCase(Locale.ROOT);
  }

  /** Where a specification's kind ends: at its first {@code :} or {@code @}, or its end. */
  private static int kindEnd(String spec) {
    int end = 0;
    while (end < spec.length() && spec.charAt(end) != ':' && spec.charAt(end) != '@') {
      end++;
    }
    return end;
  }

  /** The kind, in lower case: the name of the {@link PolicyFactory} that makes the policy. */
  public String kind() {
    return kind;
  }

  /**
   * The arguments after the colon, trimmed and unquoted, for a kind that takes no table files;
   * empty if there are none (and for a table-driven kind).
   */
  public List<String> arguments() {
    return arguments;
  }

  /**
   * The table files of a table-driven kind, in order ({@code progress}: targets, then thresholds);
   * empty for the other kinds, when the specification named none, and when {@link #inMemory()}.
   */
  public List<Path> tables() {
    return tables;
  }

  /** Whether the policy's tables are held in memory rather than read from files. */
  public boolean inMemory() {
    return inMemory;
  }

  /** The order of the free workers the specification imposes, or empty for the policy's own. */
  public Optional<WorkerPreference> preference() {
    return Optional.ofNullable(preference);
  }

  /** This identity with its free workers taking work in the order {@code p}. */
  public PolicySpec withPreference(WorkerPreference p) {
    return new PolicySpec(kind, arguments, tables, inMemory, Objects.requireNonNull(p, "p"));
  }

  /** This identity without an imposed order of the free workers: the policy's own. */
  public PolicySpec withoutPreference() {
    return preference == null ? this : new PolicySpec(kind, arguments, tables, inMemory, null);
  }

  /**
   * The text after the colon, as {@link #toString()} writes it (quoted where needed), without the
   * suffix; empty if there is none. What {@link PolicyFactory#create(String)} is given.
   */
  public String argumentText() {
    if (inMemory) {
      return IN_MEMORY;
    }
    StringBuilder b = new StringBuilder();
    if (!tables.isEmpty()) {
      for (Path p : tables) {
        b.append(b.isEmpty() ? "" : "+").append(quoted(p.toString(), true, false));
      }
    } else {
      for (String a : arguments) {
        b.append(b.isEmpty() ? "" : ",").append(quoted(a, false, arguments.size() == 1));
      }
    }
    return b.toString();
  }

  /** The specification string, which {@link #parse} reads back into an equal identity. */
  @Override
  public String toString() {
    String args = argumentText();
    return kind
        + (args.isEmpty() ? "" : ":" + args)
        + (preference == null ? "" : PreferenceOverride.suffix(preference));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PolicySpec s
        && kind.equals(s.kind)
        && arguments.equals(s.arguments)
        && tables.equals(s.tables)
        && inMemory == s.inMemory
        && preference == s.preference;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, arguments, tables, inMemory, preference);
  }

  /** Whether a kind's arguments are table files. */
  static boolean takesTables(String kind) {
    return ONE_TABLE.contains(kind) || kind.equals(TWO_TABLES);
  }

  private static String tableKinds() {
    return "fm, fm-wc, tpc, tp, tpc-oracle, tc, tc-oracle and progress";
  }

  private static String kind(String kind) {
    String k = Objects.requireNonNull(kind, "kind").trim().toLowerCase(Locale.ROOT);
    if (k.isEmpty() || k.indexOf(':') >= 0 || k.indexOf('@') >= 0 || k.indexOf('"') >= 0) {
      throw new IllegalArgumentException(
          "a policy's kind is a name without ':', '@' or quotes, got '" + kind + "'");
    }
    return k;
  }

  /**
   * A file or an argument as the grammar needs it written: in quotes if it would otherwise be read
   * differently.
   *
   * @param table whether it is a table's file ({@code +} and {@code (in memory)} need quotes)
   * @param alone whether it is the only argument (then empty needs quotes, else it is no argument)
   */
  private static String quoted(String text, boolean table, boolean alone) {
    boolean needs =
        text.isEmpty() && (alone || table)
            || text.startsWith("\"")
            || !text.equals(text.trim())
            || text.indexOf('@') >= 0
            || text.indexOf(',') >= 0
            || table && (text.indexOf('+') >= 0 || text.equals(IN_MEMORY));
    return needs ? '"' + text.replace("\"", "\"\"") + '"' : text;
  }

  /** One pass over a specification string. */
  private static final class Reader {

    private final String spec;
    private final String text;
    private int pos;

    Reader(String spec) {
      this.spec = spec;
      this.text = spec.trim();
    }

    PolicySpec read() {
      String kind = kindOf(text);
      if (kind.isEmpty()) {
        throw fail("expected a policy's name first, such as seq or fixed:4");
      }
      if (kind.indexOf('"') >= 0) {
        throw fail("a policy's name is written without quotes");
      }
      pos = kindEnd(text);
      List<Piece> pieces = new ArrayList<>();
      if (pos < text.length() && text.charAt(pos) == ':') {
        pos++;
        char separator = kind.equals(TWO_TABLES) ? '+' : ONE_TABLE.contains(kind) ? 0 : ',';
        pieces = pieces(separator);
      }
      WorkerPreference preference = null;
      while (pos < text.length()) { // at an '@'
        int next = text.indexOf('@', pos + 1);
        next = next < 0 ? text.length() : next;
        WorkerPreference p = PreferenceOverride.parse(text.substring(pos + 1, next).trim());
        if (p == null) {
          throw fail(
              "unknown suffix '"
                  + text.substring(pos, next).trim()
                  + "' (expected @help-first or @admit-first"
                  + (takesTables(kind) ? "; a file whose name has an @ is written in quotes" : "")
                  + ")");
        }
        preference = p;
        pos = next;
      }
      PolicySpec s =
          takesTables(kind)
              ? tables(kind, pieces)
              : new PolicySpec(kind, args(pieces), List.of(), false, null);
      return preference == null ? s : s.withPreference(preference);
    }

    private static List<String> args(List<Piece> pieces) {
      if (pieces.size() == 1 && !pieces.get(0).quoted && pieces.get(0).text.isBlank()) {
        return List.of(); // "kind:" has no argument
      }
      return pieces.stream().map(p -> p.quoted ? p.text : p.text.trim()).toList();
    }

    private PolicySpec tables(String kind, List<Piece> pieces) {
      if (pieces.isEmpty()
          || pieces.size() == 1 && !pieces.get(0).quoted && pieces.get(0).text.isBlank()) {
        return new PolicySpec(
            kind, List.of(), List.of(), false, null); // the factory says what is missing
      }
      if (pieces.size() == 1
          && !pieces.get(0).quoted
          && pieces.get(0).text.trim().equals(IN_MEMORY)) {
        return new PolicySpec(kind, List.of(), List.of(), true, null);
      }
      // progress splits at the last '+': the pieces before it are the target table's file.
      Piece last = pieces.get(pieces.size() - 1);
      List<Piece> first = pieces.subList(0, pieces.size() - 1);
      List<String> files = new ArrayList<>();
      if (!first.isEmpty()) {
        if (first.size() > 1 && first.stream().anyMatch(p -> p.quoted)) {
          throw fail(
              "a quoted file is the whole of the target table's file or the threshold table's");
        }
        files.add(
            first.size() == 1 && first.get(0).quoted
                ? first.get(0).text
                : String.join("+", first.stream().map(p -> p.text).toList()).trim());
      }
      files.add(last.quoted ? last.text : last.text.trim());
      if (files.stream().anyMatch(String::isEmpty)) {
        throw fail(
            files.size() == 2
                ? "expected two files around '+', the target table's and the threshold table's"
                : "expected the table's file, got an empty one");
      }
      List<Path> paths = new ArrayList<>();
      for (String f : files) {
        try {
          paths.add(Path.of(f));
        } catch (InvalidPathException e) {
          throw fail("'" + f + "' is not a file's path: " + e.getReason());
        }
      }
      return new PolicySpec(kind, List.of(), paths, false, null);
    }

    /**
     * The pieces from here to the first '@' outside quotes, split at {@code separator} (0 for
     * none); leaves {@code pos} at that '@' or the end.
     */
    private List<Piece> pieces(char separator) {
      List<Piece> out = new ArrayList<>();
      while (true) {
        int start = pos;
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
          pos++;
        }
        Piece piece;
        if (pos < text.length() && text.charAt(pos) == '"') {
          piece = new Piece(quotedText(), true);
          while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
          }
          if (pos < text.length() && text.charAt(pos) != '@' && text.charAt(pos) != separator) {
            throw fail(
                "expected "
                    + (separator == 0 ? "" : "'" + separator + "', ")
                    + "'@' or the end after the quoted \""
                    + piece.text
                    + "\", got '"
                    + text.charAt(pos)
                    + "'");
          }
        } else {
          pos = start;
          while (pos < text.length() && text.charAt(pos) != '@' && text.charAt(pos) != separator) {
            pos++;
          }
          piece = new Piece(text.substring(start, pos), false);
        }
        out.add(piece);
        if (pos >= text.length() || text.charAt(pos) == '@') {
          return out;
        }
        pos++; // the separator
      }
    }

    /**
     * The quoted text from the opening quote at {@code pos}; leaves {@code pos} after the closing
     * one.
     */
    private String quotedText() {
      StringBuilder b = new StringBuilder();
      int open = pos;
      pos++;
      while (true) {
        int q = text.indexOf('"', pos);
        if (q < 0) {
          throw fail("the quote at " + (open + 1) + " is not closed");
        }
        b.append(text, pos, q);
        if (q + 1 < text.length() && text.charAt(q + 1) == '"') {
          b.append('"');
          pos = q + 2;
        } else {
          pos = q + 1;
          return b.toString();
        }
      }
    }

    private IllegalArgumentException fail(String problem) {
      return new IllegalArgumentException("bad policy '" + spec + "': " + problem);
    }
  }

  /** A file or an argument as written: its text, unquoted, and whether it was quoted. */
  private record Piece(String text, boolean quoted) {}
}
