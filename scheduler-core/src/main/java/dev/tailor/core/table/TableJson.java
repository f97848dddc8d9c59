package dev.tailor.core.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.core.json.JsonFields;
import dev.tailor.core.json.JsonFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * One kind of table's JSON form: a subclass reads a file's tree field by field, so that every
 * problem names its field, and makes the tree the table is written as. What every kind shares is
 * here: the header (format, version, kind, inputs), the build's stamp, and the table's constructor
 * refusing what was read as a problem with the file.
 *
 * @param <T> the table
 */
abstract class TableJson<T> {

  private final Path file;
  final TableFields table;
  final JsonFields fields;

  TableJson(Path file) {
    this.file = file;
    this.table = new TableFields(file);
    this.fields = table.fields();
  }

  /** Reads and validates the file. */
  final T read() throws IOException {
    return table(JsonFile.readTree(file));
  }

  /** The table a tree describes. */
  abstract T table(JsonNode root) throws IOException;

  /**
   * Runs the table's constructor on what was read: a rule it refuses becomes a problem with the
   * file.
   */
  final T built(Supplier<T> constructor) throws IOException {
    try {
      return constructor.get();
    } catch (IllegalArgumentException e) {
      throw table.invalid(e);
    }
  }

  /** A table's tree, begun: format, version, kind and the inputs it was built from. */
  static ObjectNode header(int version, String kind, Object inputs) {
    ObjectNode root = JsonFile.mapper().createObjectNode();
    root.put("format", IntervalTable.FORMAT);
    root.put("version", version);
    root.put("kind", kind);
    root.set("inputs", JsonFile.mapper().valueToTree(inputs));
    return root;
  }

  /** The build's stamp: when the table was built and how long it took. */
  static void stamp(ObjectNode root, String builtAt, double buildSeconds) {
    root.put("builtAt", builtAt);
    root.put("buildSeconds", buildSeconds);
  }
}
