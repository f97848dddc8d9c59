package dev.tailor.bench;

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
 * Runs this module's JMH benchmarks from its shaded jar in a child JVM, with JMH's own progress on
 * the terminal, and reads back its JSON results. A child JVM, because JMH forks and needs the
 * self-contained jar on its class path, not the caller's.
 */
public final class JmhLauncher {

  /** Where the build puts the shaded JMH jar, relative to the project's root directory. */
  public static final String JAR = "benchmarks/target/benchmarks.jar";

  /** One benchmark method's primary result. */
  public record Score(double score, double error, String unit) {}

  private final Path jar;
  private final String java;

  /**
   * @param jar the shaded JMH jar ({@link #JAR} under the project's root)
   * @param java the {@code java} executable that runs it
   */
  public JmhLauncher(Path jar, String java) {
    this.jar = jar;
    this.java = java;
  }

  /**
   * Runs the benchmarks matching {@code pattern}; {@code quick} asks for one fork and few short
   * iterations: a rough figure in a fraction of the time.
   *
   * @return the scores by method name, followed by {@code [param=value]} for each parameter
   * @throws IOException if JMH fails or its results cannot be read
   */
  public Map<String, Score> run(String pattern, boolean quick)
      throws IOException, InterruptedException {
    if (!Files.isRegularFile(jar)) {
      throw new IOException(
          jar + ": no such file; build it with ./mvnw package -DskipTests -pl benchmarks -am");
    }
    Path results = Files.createTempFile("tailor-jmh-", ".json");
    try {
      List<String> command =
          new ArrayList<>(
              List.of(
                  java,
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

  /** Reads a JMH JSON result file into scores keyed as {@link #run} documents. */
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
