package dev.tailor.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFields;
import dev.tailor.core.json.JsonFile;
import dev.tailor.measure.SpeedProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Reads a calibration file field by field, so that every problem names the file, the field and what
 * was expected; versions 1 to {@value Calibration#VERSION} (see {@link Calibration}).
 */
final class CalibrationReader {

  private CalibrationReader() {}

  /** The calibration in {@code file}, as {@link Calibration#read} says. */
  static Calibration read(Path file) throws IOException {
    JsonFields fields = new JsonFields(file);
    JsonNode root = JsonFile.readTree(file);
    int version =
        fields.version(root, Calibration.FORMAT, Calibration.OLDEST_VERSION, Calibration.VERSION);
    JsonNode m = fields.object(root, "machine", "");
    JsonNode w =
        version == 1
            ? fields.object(root, "workload", "")
            : fields.optionalObject(root, "workload", "");
    double runScale = fields.number(root, "runScale", "");
    if (!(runScale >= 0.1 && runScale <= 100)) {
      throw fields.problem("runScale", "expected a number within 0.1..100, got " + runScale);
    }
    int cores = fields.smallInteger(m, "cores", "machine.", 1);
    String os = fields.text(m, "os", "machine.");
    Calibration.Machine machine =
        version == 1
            ? new Calibration.Machine(cores, os)
            : new Calibration.Machine(
                fields.optionalText(m, "host", "machine."),
                cores,
                fields.optionalText(m, "cpu", "machine."),
                fields.optionalText(m, "arch", "machine."),
                fields.optionalText(m, "java", "machine."),
                os);
    JsonNode modelNode = version == 1 ? null : fields.optionalObject(root, "model", "");
    MachineModel model = modelNode == null ? null : MachineModel.read(fields, modelNode, "model.");
    JsonNode mapNode = version < 3 ? null : fields.optionalObject(root, "runTimes", "");
    RunTimeMap runTimes = mapNode == null ? null : RunTimeMap.read(fields, mapNode, "runTimes.");
    SpeedProbe probe =
        version < 3
            ? null
            : SpeedProbe.read(fields, fields.optionalObject(root, "probe", ""), "probe.");
    if (model != null && model.cores() != cores) {
      throw fields.problem(
          "model.coRun",
          "expected one co-run factor per core of machine.cores ("
              + cores
              + "), got "
              + model.cores());
    }
    return new Calibration(
        Calibration.FORMAT,
        version,
        instant(fields, root, "createdAt"),
        machine,
        w == null
            ? null
            : new Calibration.Workload(
                fields.text(w, "index", "workload."),
                fields.text(w, "trace", "workload."),
                fields.text(w, "takenAt", "workload.")),
        fields.text(root, "source", ""),
        runScale,
        distribution(fields, root, "dispatchNanos", ""),
        distribution(fields, root, "completionNanos", ""),
        distribution(fields, root, "sendLagNanos", ""),
        model,
        runTimes,
        probe,
        false);
  }

  private static String instant(JsonFields fields, JsonNode root, String field) throws IOException {
    String text = fields.text(root, field, "");
    try {
      Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw fields.problem(field, "expected an ISO-8601 instant, got \"" + text + "\"");
    }
    return text;
  }

  /** The 101 ascending percentiles {@code node.field}; {@code at} is the node's path. */
  static long[] distribution(JsonFields fields, JsonNode node, String field, String at)
      throws IOException {
    long[] p = fields.longs(node, field, at, 0);
    if (p.length != Calibration.PERCENTILES) {
      throw fields.problem(
          at + field,
          "expected " + Calibration.PERCENTILES + " percentiles (0 to 100), got " + p.length);
    }
    for (int i = 1; i < p.length; i++) {
      if (p[i] < p[i - 1]) {
        throw fields.problem(at + field + "[" + i + "]", "percentiles must not decrease");
      }
    }
    return p;
  }
}
