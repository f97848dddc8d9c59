package dev.tailor.core.table;

import static dev.tailor.core.table.TargetTable.INFINITE;
import static dev.tailor.core.table.TargetTable.KIND;
import static dev.tailor.core.table.TargetTable.VERSION;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.core.json.JsonFile;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.table.TargetTable.Groups;
import dev.tailor.core.table.TargetTable.Inputs;
import dev.tailor.core.table.TargetTable.LoadMetric;
import dev.tailor.core.table.TargetTable.Row;
import dev.tailor.core.table.TargetTable.Search;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link TargetTable}'s JSON form, read field by field and written as {@link TargetTable#write}
 * says.
 */
final class TargetTableJson extends TableJson<TargetTable> {

  TargetTableJson(Path file) {
    super(file);
  }

  @Override
  TargetTable table(JsonNode root) throws IOException {
    table.header(root, KIND, VERSION, VERSION);
    JsonNode in = fields.object(root, "inputs", "");
    String at = "inputs.";
    int maxDegree = fields.smallInteger(in, "maxDegree", at, 1);
    Inputs inputs =
        new Inputs(
            table.name(in, "profile", at),
            table.digest(in, "profileDigest", at, false),
            fields.smallInteger(in, "requests", at, 1),
            fields.optionalText(in, "model", at),
            table.digest(in, "modelDigest", at, true),
            table.name(in, "predictions", at),
            fields.smallInteger(in, "cores", at, 1),
            maxDegree,
            fields.positiveNumbers(in, "ratesRps", at),
            fields.nonNegativeNumbers(in, "weights", at),
            fields.number(in, "quantile", at),
            fields.integer(in, "stepNanos", at, 1),
            fields.smallInteger(in, "seeds", at, 1),
            table.name(in, "workModel", at),
            loadMetric(in, at));
    JsonNode g = fields.object(root, "groups", "");
    long mediumFrom = fields.integer(g, "mediumFromNanos", "groups.", 1);
    long longFrom = fields.integer(g, "longFromNanos", "groups.", 1);
    if (longFrom < mediumFrom) {
      throw fields.problem(
          "groups.longFromNanos",
          "must be >= groups.mediumFromNanos (" + mediumFrom + "), got " + longFrom);
    }
    Groups groups =
        new Groups(
            mediumFrom,
            longFrom,
            curve(g, "shortSpeedup"),
            curve(g, "mediumSpeedup"),
            curve(g, "longSpeedup"));
    JsonNode list = fields.array(root, "rows", "");
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String row = "rows[" + i + "].";
      JsonNode r = fields.objectAt(list, i, "rows[" + i + "]");
      JsonNode load = r.get("upToLongThreads");
      boolean last = i == list.size() - 1;
      int upTo;
      if (last) {
        if (load != null && !load.isNull()) {
          throw fields.problem(
              row + "upToLongThreads", "the last row must be null (every load), got " + load);
        }
        upTo = INFINITE;
      } else {
        upTo = fields.smallInteger(r, "upToLongThreads", row, 0);
      }
      rows.add(new Row(upTo, fields.integer(r, "targetNanos", row, 1)));
    }
    JsonNode s = fields.object(root, "search", "");
    Search search =
        new Search(
            fields.smallInteger(s, "iterations", "search.", 0),
            fields.smallInteger(s, "measurements", "search.", 0),
            fields.nonNegative(s, "initialTailNanos", "search."),
            fields.nonNegative(s, "finalTailNanos", "search."));
    String builtAt = table.builtAt(root);
    double buildSeconds = table.buildSeconds(root);
    return built(() -> new TargetTable(inputs, groups, rows, builtAt, buildSeconds, search));
  }

  private LoadMetric loadMetric(JsonNode in, String at) throws IOException {
    String label = fields.text(in, "loadMetric", at);
    LoadMetric m = LoadMetric.of(label);
    if (m == null) {
      throw fields.problem(
          at + "loadMetric", "expected long-threads or all-threads, got \"" + label + "\"");
    }
    return m;
  }

  /** A speedup curve: {@code s(1) = 1}, then finite speedups of at least 1. */
  private SpeedupCurve curve(JsonNode g, String field) throws IOException {
    double[] s = fields.positiveNumbers(g, field, "groups.");
    if (s.length == 0) {
      throw fields.problem("groups." + field, "expected speedups at degrees 1.., got none");
    }
    for (int i = 0; i < s.length; i++) {
      if (i == 0 ? s[i] != 1.0 : s[i] < 1.0) {
        throw fields.problem(
            "groups." + field + "[" + i + "]",
            (i == 0 ? "s(1) must be 1" : "a speedup must be >= 1") + ", got " + s[i]);
      }
    }
    return SpeedupCurve.of(s);
  }

  /** The tree a table is written as. */
  static ObjectNode tree(TargetTable t) {
    ObjectNode root = header(VERSION, KIND, t.inputs());
    ObjectNode g = root.putObject("groups");
    g.put("mediumFromNanos", t.groups().mediumFromNanos());
    g.put("longFromNanos", t.groups().longFromNanos());
    curve(g.putArray("shortSpeedup"), t.groups().shortCurve());
    curve(g.putArray("mediumSpeedup"), t.groups().mediumCurve());
    curve(g.putArray("longSpeedup"), t.groups().longCurve());
    ArrayNode list = root.putArray("rows");
    for (Row r : t.rows()) {
      ObjectNode o = list.addObject();
      if (r.upToLongThreads() == INFINITE) {
        o.putNull("upToLongThreads");
      } else {
        o.put("upToLongThreads", r.upToLongThreads());
      }
      o.put("targetNanos", r.targetNanos());
    }
    stamp(root, t.builtAt(), t.buildSeconds());
    root.set("search", JsonFile.mapper().valueToTree(t.search()));
    return root;
  }

  private static void curve(ArrayNode to, SpeedupCurve c) {
    for (int d = 1; d <= c.maxDegree(); d++) {
      to.add(c.at(d));
    }
  }
}
