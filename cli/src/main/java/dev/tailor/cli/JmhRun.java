package dev.tailor.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs JMH benchmarks from the {@code benchmarks} module's jar in a child JVM, with JMH's own
 * progress on the terminal, and reads back its JSON results.
 */
final class JmhRun {

  /** One benchmark method's primary result. */
  record Score(double score, double error, String unit) {}

  private JmhRun() {}

  /**
   * Runs the benchmarks matching {@code pattern}.
   *
   * @return the scores by method name, followed by {@code [param=value]} for each parameter
   * @throws IOException if JMH fails or its results cannot be read
   */
  static Map<String, Score> run(String pattern, boolean quick)
      throws IOException, InterruptedException {
    Path jar = TailorHome.built("benchmarks/target/benchmarks.jar");
    Path results = Files.createTempFile("tailor-jmh-", ".json");
    try {
      List<String> command =
          new ArrayList<>(
              List.of(
                  TailorHome.java(),
                  "-jar",
                  jar.toString(),
                  pattern,
                  "-rf",
                  "json",
                  "-rff",
                  results.toString()));
      if (quick) {
        command.addAll(List.of("-f", "1", "-wi", "2", "-i", "3", "-w", "1s", "-r", "1s"));
      }
      int status = new ProcessBuilder(command).inheritIO().start().waitFor();
      if (status != 0) {
        throw new IOException("JMH exited with status " + status + " running " + pattern);
      }
      return read(results);
    } finally {
      Files.deleteIfExists(results);
    }
  }

  static Map<String, Score> read(Path json) throws IOException {
    JsonNode root = new ObjectMapper().readTree(json.toFile());
    if (root == null || !root.isArray() || root.isEmpty()) {
      throw new IOException(json + ": JMH wrote no results");
    }
    Map<String, Score> scores = new LinkedHashMap<>();
    for (JsonNode result : root) {
      String benchmark = result.path("benchmark").asText();
      StringBuilder key = new StringBuilder(benchmark.substring(benchmark.lastIndexOf('.') + 1));
      result
          .path("params")
          .properties()
          .forEach(
              p ->
                  key.append('[')
                      .append(p.getKey())
                      .append('=')
                      .append(p.getValue().asText())
                      .append(']'));
      JsonNode primary = result.path("primaryMetric");
      scores.put(
          key.toString(),
          new Score(
              primary.path("score").asDouble(),
              primary.path("scoreError").asDouble(),
              primary.path("scoreUnit").asText()));
    }
    return scores;
  }
}
