package dev.tailor.core.table;

import static dev.tailor.core.table.IntervalTable.KIND;
import static dev.tailor.core.table.IntervalTable.VERSION;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.core.model.Schedule;
import dev.tailor.core.table.IntervalTable.Inputs;
import dev.tailor.core.table.IntervalTable.Row;
import dev.tailor.core.table.IntervalTable.Rule;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link IntervalTable}'s JSON form, read field by field and written as {@link
 * IntervalTable#write} says.
 */
final class IntervalTableJson extends TableJson<IntervalTable> {

  IntervalTableJson(Path file) {
    super(file);
  }

  @Override
  IntervalTable table(JsonNode root) throws IOException {
    int version = table.header(root, KIND, 1, VERSION);
    JsonNode in = fields.object(root, "inputs", "");
    String at = "inputs.";
    double phi = fields.number(in, "phi", at);
    Rule rule = version == 1 ? paperRule(in, at) : rule(fields.object(in, "rule", at), at);
    Inputs inputs =
        new Inputs(
            table.name(in, "profile", at),
            table.digest(in, "profileDigest", at, false),
            fields.smallInteger(in, "requests", at, 1),
            fields.smallInteger(in, "bins", at, 0),
            fields.smallInteger(in, "cores", at, 1),
            rule,
            fields.smallInteger(in, "maxDegree", at, 1),
            fields.smallIntegers(in, "degrees", at, 1),
            fields.integer(in, "stepNanos", at, 1),
            fields.integer(in, "horizonNanos", at, 0),
            phi,
            fields.smallInteger(in, "loads", at, 1),
            fields.optionalText(in, "tuning", at));
    String builtAt = table.builtAt(root);
    double buildSeconds = table.buildSeconds(root);
    JsonNode list = fields.array(root, "rows", "");
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String row = "rows[" + i + "]";
      rows.add(row(fields.objectAt(list, i, row), row + ".", rule));
    }
    return built(() -> new IntervalTable(inputs, builtAt, buildSeconds, rows));
  }

  /** A version-1 table's target_p, from before the rules. */
  private Rule paperRule(JsonNode in, String at) throws IOException {
    double target = fields.number(in, "targetParallelism", at);
    if (!(target > 0)) {
      throw fields.problem(at + "targetParallelism", "must be > 0, got " + target);
    }
    return Rule.paper(target);
  }

  private Rule rule(JsonNode r, String at) throws IOException {
    String mode = fields.text(r, "mode", at + "rule.");
    try {
      return switch (mode) {
        case Rule.PAPER -> Rule.paper(fields.number(r, "targetParallelism", at + "rule."));
        case Rule.THROUGHPUT ->
            Rule.throughput(
                fields.number(r, "utilization", at + "rule."),
                fields.number(r, "queueFactor", at + "rule."));
        default ->
            throw fields.problem(
                at + "rule.mode",
                "expected \""
                    + Rule.PAPER
                    + "\" or \""
                    + Rule.THROUGHPUT
                    + "\", got \""
                    + mode
                    + "\"");
      };
    } catch (IllegalArgumentException e) {
      throw fields.problem(at + "rule", e.getMessage());
    }
  }

  /** A row as written; the table's constructor checks it against the inputs. */
  private Row row(JsonNode r, String at, Rule rule) throws IOException {
    int load = fields.smallInteger(r, "load", at, 1);
    boolean awaitExit = fields.bool(r, "awaitExit", at);
    long[] intervals = fields.longs(r, "intervalsNanos", at, 0);
    if (intervals.length == 0) {
      throw fields.problem(at + "intervalsNanos", "expected at least v0, got none");
    }
    Schedule s = awaitExit ? Schedule.awaitingExit(intervals) : Schedule.of(intervals);
    double tail = fields.nonNegative(r, "tailNanos", at);
    double mean = fields.nonNegative(r, "meanNanos", at);
    double parallelism = fields.nonNegative(r, "parallelism", at);
    double rate = rule.isPaper() ? 0 : fields.nonNegative(r, "arrivalRate", at);
    return new Row(load, s, tail, mean, parallelism, rate);
  }

  /** The tree a table is written as. */
  static ObjectNode tree(IntervalTable t) {
    ObjectNode root = header(VERSION, KIND, t.inputs());
    stamp(root, t.builtAt(), t.buildSeconds());
    ArrayNode list = root.putArray("rows");
    for (Row r : t.rows()) {
      ObjectNode o = list.addObject();
      o.put("load", r.load());
      o.put("awaitExit", r.schedule().awaitsExit());
      ArrayNode v = o.putArray("intervalsNanos");
      for (long x : r.schedule().intervals()) {
        v.add(x);
      }
      o.put("tailNanos", r.tailNanos());
      o.put("meanNanos", r.meanNanos());
      o.put("parallelism", r.parallelism());
      if (!t.inputs().rule().isPaper()) {
        o.put("arrivalRate", r.arrivalRate());
      }
    }
    return root;
  }
}
