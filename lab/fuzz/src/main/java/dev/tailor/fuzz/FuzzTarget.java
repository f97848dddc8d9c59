package dev.tailor.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A fuzz target: one {@code @FuzzTest} method of this module's tests, and the directory its seeds
 * and findings live in.
 *
 * @param name the target's name on the command line
 * @param testPackage the test class's package
 * @param testClass the test class's simple name
 * @param method the {@code @FuzzTest} method
 * @param about what it reads, e.g. "FM tables"
 */
public record FuzzTarget(
    String name, String testPackage, String testClass, String method, String about) {

  /** The targets, by name, in the order {@code all} runs them. */
  public static final Map<String, FuzzTarget> ALL = all();

  private static Map<String, FuzzTarget> all() {
    String fuzz = "dev.tailor.fuzz";
    Map<String, FuzzTarget> all = new LinkedHashMap<>();
    for (FuzzTarget t :
        List.of(
            new FuzzTarget("interval-table", fuzz, "TableFuzzTest", "intervalTable", "FM tables"),
            new FuzzTarget("threshold-table", fuzz, "TableFuzzTest", "thresholdTable", "TC tables"),
            new FuzzTarget("target-table", fuzz, "TableFuzzTest", "targetTable", "TPC tables"),
            new FuzzTarget("profile", fuzz, "ProfileFuzzTest", "demandProfile", "demand profiles"),
            new FuzzTarget("model", fuzz, "ModelFuzzTest", "predictorModel", "predictor models"),
            new FuzzTarget(
                "booster", "dev.tailor.predictor", "BoosterFuzzTest", "ubjson", "model boosters"),
            new FuzzTarget("trace-luceneutil", fuzz, "TraceFuzzTest", "luceneutil", "task files"),
            new FuzzTarget("trace-plain", fuzz, "TraceFuzzTest", "plain", "plain traces"),
            new FuzzTarget("trace-trec", fuzz, "TraceFuzzTest", "trec", "TREC topics"),
            new FuzzTarget("trace-nq", fuzz, "TraceFuzzTest", "nq", "NQ questions"),
            new FuzzTarget("trace-detect", fuzz, "TraceFuzzTest", "detect", "format detection"))) {
      all.put(t.name(), t);
    }
    return java.util.Collections.unmodifiableMap(all);
  }

  /** Surefire's selector for the one test method. */
  public String selector() {
    return testClass + "#" + method;
  }

  /** The directory Jazzer saves this target's findings to (and replays its seeds from). */
  public Path inputs(Path root) {
    return root.resolve("lab/fuzz/src/test/resources")
        .resolve(testPackage.replace('.', '/'))
        .resolve(testClass + "Inputs")
        .resolve(method);
  }

  /**
   * The inputs Jazzer saved as findings in {@code inputs}: libFuzzer names them by kind and hash.
   */
  public static Set<Path> findings(Path inputs) throws IOException {
    Set<Path> found = new TreeSet<>();
    if (!Files.isDirectory(inputs)) {
      return found;
    }
    try (Stream<Path> files = Files.list(inputs)) {
      files
          .filter(f -> f.getFileName().toString().matches("(crash|timeout|oom|leak)-.*"))
          .forEach(found::add);
    }
    return found;
  }
}
