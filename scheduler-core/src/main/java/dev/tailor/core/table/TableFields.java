package dev.tailor.core.table;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFields;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * What the three table readers check alike: the header (format, version and kind), the digests of
 * the files a table was built from, and the build's stamp. A table's constructor checks the rules
 * that relate its fields and names the field by its path in the file; {@link #invalid} turns such a
 * refusal into a problem with the file, so that a read reports every rule as {@code FILE: PATH:
 * WHAT}.
 */
final class TableFields {

  private static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");

  private final JsonFields fields;

  TableFields(Path file) {
    this.fields = new JsonFields(file);
  }

  /** The typed fields of the file. */
  JsonFields fields() {
    return fields;
  }

  /**
   * Checks that the tree is a table ({@value IntervalTable#FORMAT}) of {@code kind} in a version
   * this Tailor reads, and returns the version.
   */
  int header(JsonNode root, String kind, int oldest, int newest) throws IOException {
    int version = fields.version(root, IntervalTable.FORMAT, oldest, newest);
    String k = fields.text(root, "kind", "");
    if (!kind.equals(k)) {
      throw fields.problem("kind", "expected \"" + kind + "\", got \"" + k + "\"");
    }
    return version;
  }

  /** The digest {@code node.field}: {@code sha256:} and 64 lower-case hex digits, or null. */
  String digest(JsonNode node, String field, String at, boolean optional) throws IOException {
    String d = optional ? fields.optionalText(node, field, at) : fields.text(node, field, at);
    if (d != null && !DIGEST.matcher(d).matches()) {
      throw fields.problem(
          at + field, "expected sha256: and 64 lower-case hex digits, got \"" + d + "\"");
    }
    return d;
  }

  /** The non-blank string {@code node.field}. */
  String name(JsonNode node, String field, String at) throws IOException {
    String s = fields.text(node, field, at);
    if (s.isBlank()) {
      throw fields.problem(at + field, "expected a non-empty string, got \"" + s + "\"");
    }
    return s;
  }

  /** {@code builtAt}: when the table was built, an ISO-8601 instant. */
  String builtAt(JsonNode root) throws IOException {
    String s = fields.text(root, "builtAt", "");
    try {
      Instant.parse(s);
    } catch (DateTimeParseException e) {
      throw fields.problem(
          "builtAt",
          "expected an ISO-8601 instant such as 2026-11-22T06:00:00Z, got \"" + s + "\"");
    }
    return s;
  }

  /** {@code buildSeconds}: how long the build took, a finite number of seconds, at least 0. */
  double buildSeconds(JsonNode root) throws IOException {
    return fields.nonNegative(root, "buildSeconds", "");
  }

  /**
   * A table constructor's refusal as a problem with the file: the constructor's message names the
   * field by its path, so that the whole message reads {@code FILE: PATH: WHAT}.
   */
  IOException invalid(IllegalArgumentException e) {
    return new IOException(fields.problem("", e.getMessage()).getMessage(), e);
  }
}
