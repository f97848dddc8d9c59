package dev.tailor.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.Internal;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.DoublePredicate;

/**
 * Typed, validating access to the fields of a JSON tree read from a file. Every failure is an
 * {@link IOException} whose message names the file, the field's path (e.g. {@code
 * requests[3].sequentialNanos}) and what was expected, as {@code FILE: PATH: WHAT}.
 *
 * <p>A method takes the node holding the field, the field's name and {@code at}, the path to that
 * node with a trailing dot ({@code ""} at the root, {@code requests[3].} below), so that the path
 * of every field is spelt out without the reader keeping a stack.
 */
@Internal
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

  /** The tree read from the file, which must be an object. */
  public JsonNode root(JsonNode root) throws IOException {
    if (root == null || !root.isObject()) {
      throw problem("", "expected a JSON object");
    }
    return root;
  }

  /**
   * Checks the header every versioned Tailor file opens with: the tree is an object whose {@code
   * format} is {@code format} and whose {@code version} is one this Tailor reads.
   */
  public void header(JsonNode root, String format, int version) throws IOException {
    root(root);
    String f = text(root, "format", "");
    if (!format.equals(f)) {
      throw problem("format", "expected \"" + format + "\", got \"" + f + "\"");
    }
    int v = smallInteger(root, "version", "", 1);
    if (v != version) {
      throw problem("version", "this Tailor reads version " + version + ", got " + v);
    }
  }

  /**
   * Checks the header of a file whose older versions this Tailor still reads, and returns the
   * version: the tree is an object whose {@code format} is {@code format} and whose {@code version}
   * lies in {@code oldest..newest}.
   */
  public int version(JsonNode root, String format, int oldest, int newest) throws IOException {
    root(root);
    String f = text(root, "format", "");
    if (!format.equals(f)) {
      throw problem("format", "expected \"" + format + "\", got \"" + f + "\"");
    }
    int v = smallInteger(root, "version", "", 1);
    if (v < oldest || v > newest) {
      throw problem(
          "version", "this Tailor reads versions " + oldest + " to " + newest + ", got " + v);
    }
    return v;
  }

  /** The object {@code node.field}, or null if absent or null. */
  public JsonNode optionalObject(JsonNode node, String field, String at) throws IOException {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? null : object(node, field, at);
  }

  /** The array {@code node.field}. */
  public JsonNode array(JsonNode node, String field, String at) throws IOException {
    JsonNode v = node.get(field);
    if (v == null || !v.isArray()) {
      throw problem(at + field, "expected an array");
    }
    return v;
  }

  /** The element {@code i} of {@code array}, which must be an object; {@code at} is its path. */
  public JsonNode objectAt(JsonNode array, int i, String at) throws IOException {
    JsonNode v = array.get(i);
    if (v == null || !v.isObject()) {
      throw problem(at, "expected an object");
    }
    return v;
  }

  /** The boolean {@code node.field}. */
  public boolean bool(JsonNode node, String field, String at) throws IOException {
    JsonNode v = node.get(field);
    if (v == null || !v.isBoolean()) {
      throw problem(at + field, "expected true or false");
    }
    return v.booleanValue();
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
  public String optionalText(JsonNode node, String field, String at) throws IOException {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? null : text(node, field, at);
  }

  /** The whole number {@code node.field}, at least {@code min}. */
  public long integer(JsonNode node, String field, String at, long min) throws IOException {
    return wholeNumber(node.get(field), at + field, min);
  }

  /** The whole number {@code node.field}, between {@code min} and {@link Integer#MAX_VALUE}. */
  public int smallInteger(JsonNode node, String field, String at, int min) throws IOException {
    return smallWholeNumber(node.get(field), at + field, min);
  }

  /** The finite number {@code node.field}. */
  public double number(JsonNode node, String field, String at) throws IOException {
    JsonNode v = node.get(field);
    if (v == null || !v.isNumber() || !Double.isFinite(v.doubleValue())) {
      throw problem(at + field, "expected a finite number, got " + shown(v));
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
    return longs(node, field, at, 0);
  }

  /** The array of whole numbers {@code node.field}, each at least {@code min}. */
  public long[] longs(JsonNode node, String field, String at, long min) throws IOException {
    JsonNode v = array(node, field, at);
    long[] out = new long[v.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = wholeNumber(v.get(i), at + field + "[" + i + "]", min);
    }
    return out;
  }

  /**
   * The array of whole numbers {@code node.field}, each between {@code min} and {@link
   * Integer#MAX_VALUE}.
   */
  public int[] smallIntegers(JsonNode node, String field, String at, int min) throws IOException {
    JsonNode v = array(node, field, at);
    int[] out = new int[v.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = smallWholeNumber(v.get(i), at + field + "[" + i + "]", min);
    }
    return out;
  }

  /** The array of finite positive numbers {@code node.field}. */
  public double[] positiveNumbers(JsonNode node, String field, String at) throws IOException {
    return finiteNumbers(node, field, at, x -> x > 0, "> 0");
  }

  /** The array of finite numbers {@code node.field}, each at least 0. */
  public double[] nonNegativeNumbers(JsonNode node, String field, String at) throws IOException {
    return finiteNumbers(node, field, at, x -> x >= 0, ">= 0");
  }

  /**
   * The array of finite numbers {@code node.field}, each one {@code ok} accepts ({@code bound}).
   */
  private double[] finiteNumbers(
      JsonNode node, String field, String at, DoublePredicate ok, String bound) throws IOException {
    JsonNode v = array(node, field, at);
    double[] out = new double[v.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode e = v.get(i);
      if (!e.isNumber() || !ok.test(e.doubleValue()) || Double.isInfinite(e.doubleValue())) {
        throw problem(
            at + field + "[" + i + "]", "expected a finite number " + bound + ", got " + shown(e));
      }
      out[i] = e.doubleValue();
    }
    return out;
  }

  /** {@code v} as a whole number of at least {@code min}; {@code path} names it. */
  private long wholeNumber(JsonNode v, String path, long min) throws IOException {
    // canConvertToLong: a number beyond the long range would otherwise wrap silently.
    if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) {
      throw problem(path, "expected a whole number >= " + min + ", got " + shown(v));
    }
    if (v.longValue() < min) {
      throw problem(path, "must be >= " + min + ", got " + v.longValue());
    }
    return v.longValue();
  }

  /** {@code v} as a whole number between {@code min} and {@link Integer#MAX_VALUE}. */
  private int smallWholeNumber(JsonNode v, String path, int min) throws IOException {
    long n = wholeNumber(v, path, min);
    if (n > Integer.MAX_VALUE) {
      throw problem(path, "must be <= " + Integer.MAX_VALUE + ", got " + n);
    }
    return (int) n;
  }

  /** A value as a message shows it: its JSON, cut short, or "nothing" for a missing one. */
  static String shown(JsonNode v) {
    if (v == null || v.isMissingNode()) {
      return "nothing";
    }
    // A number as written (Jackson would quote an infinite one), anything else as JSON.
    String s = v.isNumber() ? v.asText() : v.toString();
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }
}
