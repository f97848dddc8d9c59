package dev.tailor.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
  public static final String JAR = "lab/benchmarks/target/benchmarks.jar";

  /**
   * One benchmark method's result: its score over every fork, and each fork's median iteration.
   *
   * @param forks each fork's median, in the order JMH ran them; empty if JMH gave no raw data
   */
  public record Score(double score, double error, String unit, List<Double> forks) {

    /** A score without its forks' figures. */
    public Score(double score, double error, String unit) {
      this(score, error, unit, List.of());
    }

    /** Copies {@code forks}. */
    public Score {
      forks = List.copyOf(forks);
    }

    /** The score and its error in whole nanoseconds, such as {@code 1115±85 ns}. */
    public String nanos() {
      return String.format("%.0f±%.0f ns", score, error);
    }
  }

  /**
   * The score of {@code key} among {@link #run}'s results: a method name followed by {@code
   * [param=value]} for each parameter, in any order.
   *
   * @throws IOException naming the key and what there is, if the results lack it
   */
  public static Score score(Map<String, Score> results, String key) throws IOException {
    Score score = results.get(key);
    if (score == null) {
      String wanted = normalized(key);
      for (Map.Entry<String, Score> e : results.entrySet()) {
        if (normalized(e.getKey()).equals(wanted)) {
          return e.getValue();
        }
      }
      throw new IOException("JMH results lack " + key + "; got " + results.keySet());
    }
    return score;
  }

  /** A key with its parameters in sorted order. */
  private static String normalized(String key) {
    int bracket = key.indexOf('[');
    if (bracket < 0) {
      return key;
    }
    String[] params = key.substring(bracket + 1, key.length() - 1).split("\\]\\[");
    Arrays.sort(params);
    return key.substring(0, bracket) + "[" + String.join("][", params) + "]";
  }

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
   * @param options more of JMH's options, e.g. {@code -prof gc} for a profiler
   * @return the scores by method name, followed by {@code [param=value]} for each parameter; a
   *     profiler's figures under that key, {@code :} and the figure's name (e.g. {@code
   *     run[metrics=none]:gc.alloc.rate.norm})
   * @throws IOException if JMH fails or its results cannot be read
   */
  public Map<String, Score> run(String pattern, boolean quick, String... options)
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
      command.addAll(List.of(options));
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
      scores.put(key.toString(), score(result.path("primaryMetric")));
      result
          .path("secondaryMetrics")
          .properties()
          .forEach(m -> scores.put(key + ":" + secondaryName(m.getKey()), score(m.getValue())));
    }
    return scores;
  }

  private static Score score(JsonNode metric) {
    List<Double> forks = new ArrayList<>();
    for (JsonNode fork : metric.path("rawData")) {
      double[] iterations = new double[fork.size()];
      for (int i = 0; i < iterations.length; i++) {
        iterations[i] = fork.get(i).asDouble();
      }
      if (iterations.length > 0) {
        Arrays.sort(iterations);
        int mid = iterations.length / 2;
        forks.add(
            iterations.length % 2 == 1
                ? iterations[mid]
                : (iterations[mid - 1] + iterations[mid]) / 2);
      }
    }
    return new Score(
        metric.path("score").asDouble(),
        metric.path("scoreError").asDouble(),
        metric.path("scoreUnit").asText(),
        forks);
  }

  /** A secondary metric's name without the {@code ·} some JMH versions put before a profiler's. */
  private static String secondaryName(String name) {
    return name.startsWith("\u00b7") ? name.substring(1) : name;
  }
}
