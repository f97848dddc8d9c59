package dev.tailor.server;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tailor.core.Durations;
import dev.tailor.core.policy.PriorityClass;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One search request's fields, checked: from a query string ({@code q=...&k=...}) or a JSON object.
 * Anything wrong is a {@link Problem} with status 400 that names the field, quotes the value and
 * says what was expected.
 *
 * @param text the query text, not blank, at most the options' length
 * @param k how many hits, 1 to the options' limit
 * @param timeout the search's deadline, or null for none
 * @param label the client's class label, or null
 * @param priority the request's priority class ({@code class}: {@code interactive}, the default, or
 *     {@code background})
 */
record SearchRequest(String text, int k, Duration timeout, String label, PriorityClass priority) {

  private static final Set<String> FIELDS = Set.of("q", "k", "timeout", "label", "class");

  /** Checks the fields of a request. */
  static SearchRequest of(Map<String, String> fields, SearchServer.Options options) throws Problem {
    for (String name : fields.keySet()) {
      if (!FIELDS.contains(name)) {
        throw new Problem(
            400,
            "unknown field " + Problem.quote(name) + ": expected q, k, timeout, label or class");
      }
    }
    String text = fields.get("q");
    if (text == null || text.isBlank()) {
      throw new Problem(400, "missing query: give q");
    }
    if (text.length() > options.maxQueryChars()) {
      throw new Problem(
          400,
          "query too long: " + text.length() + " characters, limit " + options.maxQueryChars());
    }
    return new SearchRequest(
        text,
        hits(fields.get("k"), options.maxHits()),
        timeout(fields.get("timeout")),
        label(fields),
        priority(fields.get("class")));
  }

  private static PriorityClass priority(String name) throws Problem {
    if (name == null) {
      return PriorityClass.INTERACTIVE;
    }
    for (PriorityClass c : PriorityClass.values()) {
      if (c.label().equals(name)) {
        return c;
      }
    }
    throw new Problem(400, "class must be interactive or background, got " + Problem.quote(name));
  }

  private static int hits(String k, int max) throws Problem {
    if (k == null) {
      return Math.min(10, max);
    }
    int hits;
    try {
      hits = Integer.parseInt(k.trim());
    } catch (NumberFormatException e) {
      hits = -1;
    }
    if (hits < 1 || hits > max) {
      throw new Problem(
          400, "k must be a whole number from 1 to " + max + ", got " + Problem.quote(k));
    }
    return hits;
  }

  private static Duration timeout(String timeout) throws Problem {
    if (timeout == null) {
      return null;
    }
    long nanos;
    try {
      nanos = Durations.parseNanos(timeout);
    } catch (IllegalArgumentException e) {
      nanos = 0;
    }
    if (nanos <= 0) {
      throw new Problem(
          400,
          "timeout must be a positive duration with a unit (ns, us, ms, s, m), such as 100ms, got "
              + Problem.quote(timeout));
    }
    return Duration.ofNanos(nanos);
  }

  private static String label(Map<String, String> fields) throws Problem {
    if (!fields.containsKey("label")) {
      return null;
    }
    String why = LabelGroups.invalid(fields.get("label"));
    if (why != null) {
      throw new Problem(400, why);
    }
    return fields.get("label");
  }

  /**
   * The fields of a raw (still %-encoded) query string; null or empty gives none. A repeated field
   * keeps its last value.
   */
  static Map<String, String> fromQueryString(String raw) throws Problem {
    Map<String, String> fields = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return fields;
    }
    for (String pair : raw.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      fields.put(
          decode(eq < 0 ? pair : pair.substring(0, eq)),
          eq < 0 ? "" : decode(pair.substring(eq + 1)));
    }
    return fields;
  }

  private static String decode(String encoded) throws Problem {
    try {
      return URLDecoder.decode(encoded, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      // The JDK's server parses the request line as a URI first and answers a bad escape itself,
      // so this is a second line of defence, for a server that does not.
      throw new Problem(
          400,
          "malformed %-escape in "
              + Problem.quote(encoded)
              + ": expected % and two hexadecimal digits");
    }
  }

  /** The fields of a JSON object body; each field must be a string, number or boolean. */
  static Map<String, String> fromJson(byte[] body, ObjectMapper json) throws Problem {
    JsonNode node;
    try {
      node = json.readTree(body);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      throw new Problem(
          400,
          "body is not JSON"
              + (at == null
                  ? ""
                  : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")")
              + ": expected an object such as {\"q\": \"lucene\", \"k\": 10}");
    } catch (IOException e) {
      throw new Problem(400, "body is not JSON: expected an object such as {\"q\": \"lucene\"}");
    }
    if (node == null || !node.isObject()) {
      throw new Problem(
          400, "body must be a JSON object with a field q, such as {\"q\": \"lucene\"}");
    }
    Map<String, String> fields = new HashMap<>();
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      JsonNode value = field.getValue();
      if (!value.isValueNode() || value.isNull()) {
        throw new Problem(
            400,
            "field "
                + Problem.quote(field.getKey())
                + " must be a string or a number, got "
                + value.getNodeType().name().toLowerCase(Locale.ROOT));
      }
      fields.put(field.getKey(), value.asText());
    }
    return fields;
  }
}
