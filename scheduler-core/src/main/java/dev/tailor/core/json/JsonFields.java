package dev.tailor.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Typed, validating access to the fields of a JSON tree read from a file. Every failure is an
 * {@link IOException} whose message names the file, the field's path (e.g. {@code
 * requests[3].sequentialNanos}) and what was expected.
 */
public final class JsonFields {

  private final Path file;

  /** Fields of a tree read from {@code file}. */
  public JsonFields(Path file) {
    this.file = file;
  }

  /** A problem with a field, as an exception naming the file and the field. */
  public IOException problem(String field, String what) {
    return new IOException(file + (field.isEmpty() ? "" : ": " + field) + ": " + what);
  }

  /** The object {@code node.field}; {@code at} is the path to {@code node}, e.g. {@code a.b.}. */
  public JsonNode object(JsonNode node, String field, String at) throws IOException {
    JsonNode v = node.get(field);
    if (v == null || !v.isObject()) {
      throw problem(at + field, "expected an object");
    }
    return v;
  }

  /** The string {@code node.field}. */
  public String text(JsonNode node, String field, String at) throws IOException {
    JsonNode v = node.get(field);
    if (v == null || !v.isTextual()) {
      throw problem(at + field, "expected a string");
    }
    return v.textValue();
  }

  /** The string {@code node.field}, or null if absent or null. */
  public String optionalText(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  /** The whole number {@code node.field}, at least {@code min}. */
  public long integer(JsonNode node, String field, String at, long min) throws IOException {
    JsonNode v = node.get(field);
    if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) {
      throw problem(at + field, "expected a whole number");
    }
    if (v.longValue() < min) {
      throw problem(at + field, "must be >= " + min + ", got " + v.longValue());
    }
    return v.longValue();
  }

  /** The finite number {@code node.field}. */
  public double number(JsonNode node, String field, String at) throws IOException {
    JsonNode v = node.get(field);
    if (v == null || !v.isNumber() || !Double.isFinite(v.doubleValue())) {
      throw problem(at + field, "expected a number");
    }
    return v.doubleValue();
  }

  /** The finite number {@code node.field}, at least 0. */
  public double nonNegative(JsonNode node, String field, String at) throws IOException {
    double v = number(node, field, at);
    if (v < 0) {
      throw problem(at + field, "must be >= 0, got " + v);
    }
    return v;
  }

  /** The array of whole numbers {@code node.field}, each at least 0. */
  public long[] longs(JsonNode node, String field, String at) throws IOException {
    JsonNode v = node.get(field);
    if (v == null || !v.isArray()) {
      throw problem(at + field, "expected an array of whole numbers");
    }
    long[] out = new long[v.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode e = v.get(i);
      if (!e.isIntegralNumber() || e.longValue() < 0) {
        throw problem(at + field + "[" + i + "]", "expected a whole number >= 0");
      }
      out[i] = e.longValue();
    }
    return out;
  }

  /** The array of finite positive numbers {@code node.field}. */
  public double[] positiveNumbers(JsonNode node, String field, String at) throws IOException {
    JsonNode v = node.get(field);
    if (v == null || !v.isArray()) {
      throw problem(at + field, "expected an array of numbers");
    }
    double[] out = new double[v.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode e = v.get(i);
      if (!e.isNumber() || !(e.doubleValue() > 0) || Double.isInfinite(e.doubleValue())) {
        throw problem(at + field + "[" + i + "]", "expected a positive number");
      }
      out[i] = e.doubleValue();
    }
    return out;
  }
}
