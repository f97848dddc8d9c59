package dev.tailor.core.table;

import static dev.tailor.core.table.ThresholdTable.INFINITE_MISSES;
import static dev.tailor.core.table.ThresholdTable.KIND;
import static dev.tailor.core.table.ThresholdTable.VERSION;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.core.table.ThresholdTable.Inputs;
import dev.tailor.core.table.ThresholdTable.Row;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A {@link ThresholdTable}'s JSON form, read field by field and written as {@link
 * ThresholdTable#write} says.
 */
final class ThresholdTableJson extends TableJson<ThresholdTable> {

  ThresholdTableJson(Path file) {
    super(file);
  }

  @Override
  ThresholdTable table(JsonNode root) throws IOException {
    table.header(root, KIND, VERSION, VERSION);
    JsonNode in = fields.object(root, "inputs", "");
    String at = "inputs.";
    Inputs inputs =
        new Inputs(
            table.name(in, "source", at),
            table.digest(in, "sourceDigest", at, true),
            fields.smallInteger(in, "requests", at, 1),
            fields.smallInteger(in, "bins", at, 1),
            table.name(in, "binning", at),
            fields.integer(in, "meanWorkNanos", at, 1),
            fields.integer(in, "targetNanos", at, 1),
            fields.number(in, "rps", at),
            fields.smallInteger(in, "cores", at, 1),
            fields.number(in, "utilization", at),
            fields.smallInteger(in, "qMax", at, 1));
    JsonNode list = fields.array(root, "rows", "");
    Row[] rows = new Row[list.size()];
    for (int i = 0; i < rows.length; i++) {
      String row = "rows[" + i + "].";
      JsonNode r = fields.objectAt(list, i, "rows[" + i + "]");
      rows[i] =
          new Row(
              fields.smallInteger(r, "activeRequests", row, 1),
              fields.integer(r, "thresholdNanos", row, 0),
              misses(r, row));
    }
    String builtAt = table.builtAt(root);
    double buildSeconds = table.buildSeconds(root);
    return built(() -> new ThresholdTable(inputs, List.of(rows), builtAt, buildSeconds));
  }

  /** {@code expectedMisses}: a finite number >= 0, or "Infinity" as the table writes it. */
  private double misses(JsonNode r, String at) throws IOException {
    JsonNode v = r.get("expectedMisses");
    if (v != null && v.isTextual() && INFINITE_MISSES.equals(v.textValue())) {
      return Double.POSITIVE_INFINITY;
    }
    return fields.nonNegative(r, "expectedMisses", at);
  }

  /** The tree a table is written as. */
  static ObjectNode tree(ThresholdTable t) {
    ObjectNode root = header(VERSION, KIND, t.inputs());
    ArrayNode list = root.putArray("rows");
    for (Row r : t.rows()) {
      ObjectNode o = list.addObject();
      o.put("activeRequests", r.activeRequests());
      o.put("thresholdNanos", r.thresholdNanos());
      if (Double.isInfinite(r.expectedMisses())) {
        o.put("expectedMisses", INFINITE_MISSES);
      } else {
        o.put("expectedMisses", r.expectedMisses());
      }
    }
    stamp(root, t.builtAt(), t.buildSeconds());
    return root;
  }
}
