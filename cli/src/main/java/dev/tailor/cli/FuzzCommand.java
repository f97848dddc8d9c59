package dev.tailor.cli;

import dev.tailor.core.Durations;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Fuzzes Tailor's file readers with Jazzer: runs one {@code @FuzzTest} of the {@code fuzz} module
 * in fuzzing mode ({@code JAZZER_FUZZ=1}) through Maven on this JDK, for a given time per target,
 * one target after another, and prints each target's executions, rate and findings.
 *
 * <p>Jazzer fuzzes one test per JVM, so each target is its own Maven run ({@code -pl fuzz -am}, so
 * that the readers are the worktree's, and instrumented: Jazzer instruments class directories, not
 * jars). A finding stops its target; Jazzer saves the input to the target's inputs directory under
 * {@code fuzz/src/test/resources}, where the default test run then replays it until it is fixed.
 * The corpus grown while fuzzing is kept in {@code fuzz/.cifuzz-corpus} and resumed by the next
 * run. Each run's full output goes to {@code fuzz/target/fuzz-logs/TARGET.log}.
 */
@Command(
    name = "fuzz",
    mixinStandardHelpOptions = true,
    description = {
      "Fuzz a file reader with Jazzer (coverage-guided) and print executions and findings.",
      "Each target runs for --time; 'all' runs every target in turn. A finding's input is saved"
          + " under fuzz/src/test/resources/.../<Test>Inputs/<method>/, where ./tailor test"
          + " replays it."
    })
final class FuzzCommand implements Callable<Integer> {

  /** A fuzz target: a {@code @FuzzTest} method and where its inputs live. */
  record Target(String name, String testPackage, String testClass, String method, String about) {

    /** Surefire's selector for the one test method. */
    String selector() {
      return testClass + "#" + method;
    }

    /** The directory Jazzer saves this target's findings to (and replays its seeds from). */
    Path inputs(Path root) {
      return root.resolve("fuzz/src/test/resources")
          .resolve(testPackage.replace('.', '/'))
          .resolve(testClass + "Inputs")
          .resolve(method);
    }
  }

  /** The targets, by name, in the order {@code all} runs them. */
  static final Map<String, Target> TARGETS = new LinkedHashMap<>();

  static {
    String fuzz = "dev.tailor.fuzz";
    for (Target t :
        List.of(
            new Target("interval-table", fuzz, "TableFuzzTest", "intervalTable", "FM tables"),
            new Target("threshold-table", fuzz, "TableFuzzTest", "thresholdTable", "TC tables"),
            new Target("target-table", fuzz, "TableFuzzTest", "targetTable", "TPC tables"),
            new Target("profile", fuzz, "ProfileFuzzTest", "demandProfile", "demand profiles"),
            new Target("model", fuzz, "ModelFuzzTest", "predictorModel", "predictor models"),
            new Target(
                "booster", "dev.tailor.predictor", "BoosterFuzzTest", "ubjson", "model boosters"),
            new Target("trace-luceneutil", fuzz, "TraceFuzzTest", "luceneutil", "task files"),
            new Target("trace-plain", fuzz, "TraceFuzzTest", "plain", "plain traces"),
            new Target("trace-trec", fuzz, "TraceFuzzTest", "trec", "TREC topics"),
            new Target("trace-nq", fuzz, "TraceFuzzTest", "nq", "NQ questions"),
            new Target("trace-detect", fuzz, "TraceFuzzTest", "detect", "format detection"))) {
      TARGETS.put(t.name(), t);
    }
  }

  /**
   * What Jazzer instruments for coverage: Tailor's classes and the parsers its readers use, so that
   * the fuzzer learns their grammars too (JSON, query syntax, compressed streams).
   */
  static final String INSTRUMENT =
      "dev.tailor.**,com.fasterxml.jackson.core.**,org.apache.lucene.queryparser.**,"
          + "org.apache.commons.compress.**";

  /** libFuzzer's summary line: {@code Done 35858 runs in 61 second(s)}. */
  private static final Pattern DONE = Pattern.compile("Done (\\d+) runs in (\\d+) second");

  /** The lines of Jazzer's and Maven's output worth showing while a target runs. */
  private static final Pattern SHOWN =
      Pattern.compile(
          "^#\\d+\\s+(pulse|DONE)|^Done \\d+ runs|== Java Exception|Test unit written|"
              + "FuzzTestFinding|^\\[ERROR\\]|BUILD (SUCCESS|FAILURE)");

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "TARGET",
      completionCandidates = Names.class,
      description = "What to fuzz: ${COMPLETION-CANDIDATES}.")
  String target;

  @Option(
      names = "--time",
      defaultValue = "10m",
      description = "How long to fuzz each target, e.g. 30s or 10m (default ${DEFAULT-VALUE}).")
  String time;

  @Option(
      names = "--max-len",
      defaultValue = "16384",
      description = "The largest input the fuzzer tries, in bytes (default ${DEFAULT-VALUE}).")
  int maxLen;

  @Option(
      names = "--timeout",
      defaultValue = "10s",
      description =
          "An input taking longer than this is a finding (a hang), e.g. 10s (default"
              + " ${DEFAULT-VALUE}).")
  String timeout;

  @Option(
      names = "--keep-going",
      defaultValue = "1",
      description = "Stop a target after this many distinct findings (default ${DEFAULT-VALUE}).")
  int keepGoing;

  @Option(
      names = "--offline",
      description = "Run Maven offline (-o): every dependency is already downloaded.")
  boolean offline;

  /** What one target's run did. */
  record Outcome(Target target, long executions, long seconds, List<Path> findings, int exit) {

    String status() {
      if (!findings.isEmpty()) {
        return "FINDING";
      }
      if (executions < 0) {
        return "FAILED (exit " + exit + ", no fuzzing summary; see the log)";
      }
      return exit == 0 ? "ok" : "FAILED (exit " + exit + "; see the log)";
    }
  }

  @Override
  public Integer call() throws Exception {
    List<Target> targets = targets();
    long seconds = seconds(time, "--time");
    long timeoutSeconds = Math.max(1, seconds(timeout, "--timeout"));
    if (maxLen < 1 || keepGoing < 1) {
      throw new ParameterException(spec.commandLine(), "--max-len and --keep-going must be >= 1");
    }
    Path root = TailorHome.root();
    Path logs = root.resolve("fuzz/target/fuzz-logs");
    Files.createDirectories(logs);
    PrintWriter out = spec.commandLine().getOut();
    List<Outcome> outcomes = new ArrayList<>();
    for (Target t : targets) {
      out.printf(
          "== fuzz %s (%s: %s) for %ds; log %s%n",
          t.name(), t.about(), t.selector(), seconds, logs.resolve(t.name() + ".log"));
      out.flush();
      outcomes.add(run(t, root, seconds, timeoutSeconds, logs.resolve(t.name() + ".log"), out));
    }
    print(outcomes, out);
    return outcomes.stream().allMatch(o -> o.status().equals("ok")) ? 0 : 1;
  }

  private List<Target> targets() {
    if ("all".equals(target)) {
      return List.copyOf(TARGETS.values());
    }
    Target t = TARGETS.get(target);
    if (t == null) {
      throw new ParameterException(
          spec.commandLine(),
          "unknown target '"
              + target
              + "'; expected all or one of "
              + String.join(", ", TARGETS.keySet()));
    }
    return List.of(t);
  }

  private long seconds(String text, String option) {
    try {
      long nanos = Durations.parseNanos(text);
      if (nanos < 1_000_000_000L) {
        throw new IllegalArgumentException("'" + text + "' is shorter than a second");
      }
      return nanos / 1_000_000_000L;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage());
    }
  }

  /** The Maven command line that fuzzes {@code t} for {@code seconds}. */
  List<String> command(Target t, long seconds, long timeoutSeconds) {
    List<String> command = new ArrayList<>(List.of("./mvnw", "-B"));
    if (offline) {
      command.add("-o");
    }
    command.addAll(
        List.of(
            "test",
            "-pl",
            "fuzz",
            "-am",
            "-Dtest=" + t.selector(),
            "-Dsurefire.failIfNoSpecifiedTests=false",
            "-Dspotless.check.skip=true",
            "-Djazzer.max_duration=" + seconds + "s",
            "-Djazzer.instrument=" + INSTRUMENT,
            "-Djazzer.keep_going=" + keepGoing,
            // libFuzzer's own flags, which Jazzer's JUnit integration takes as these parameters
            // (the first is the program name).
            "-Djazzer.internal.arg.0=tailor-fuzz",
            "-Djazzer.internal.arg.1=-timeout=" + timeoutSeconds,
            "-Djazzer.internal.arg.2=-max_len=" + maxLen,
            // A slow input is no finding unless it passes the timeout (then it is one); libFuzzer
            // would otherwise save every input over 10 s among the seeds the test run replays.
            "-Djazzer.internal.arg.3=-report_slow_units=" + (timeoutSeconds + 1)));
    return command;
  }

  private Outcome run(
      Target t, Path root, long seconds, long timeoutSeconds, Path log, PrintWriter out)
      throws IOException, InterruptedException {
    Path inputs = t.inputs(root);
    Set<Path> before = findings(inputs);
    ProcessBuilder pb =
        new ProcessBuilder(command(t, seconds, timeoutSeconds))
            .directory(root.toFile())
            .redirectErrorStream(true);
    pb.environment()
        .put("JAVA_HOME", Path.of(TailorHome.java()).getParent().getParent().toString());
    pb.environment().put("JAZZER_FUZZ", "1");
    Process p = pb.start();
    long executions = -1;
    long ran = 0;
    try (BufferedReader in =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Writer file = Files.newBufferedWriter(log)) {
      String line;
      while ((line = in.readLine()) != null) {
        file.write(line);
        file.write('\n');
        Matcher done = DONE.matcher(line);
        if (done.find()) {
          executions = Long.parseLong(done.group(1));
          ran = Long.parseLong(done.group(2));
        }
        if (SHOWN.matcher(line).find()) {
          out.println("  " + line);
          out.flush();
        }
      }
    }
    int exit = p.waitFor();
    List<Path> found = new ArrayList<>(findings(inputs));
    found.removeAll(before);
    return new Outcome(t, executions, ran, found, exit);
  }

  /** The inputs Jazzer saved as findings: libFuzzer names them by kind and hash. */
  static Set<Path> findings(Path inputs) throws IOException {
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

  private static void print(List<Outcome> outcomes, PrintWriter out) {
    out.println();
    out.printf(
        Locale.ROOT,
        "%-18s %14s %8s %10s %9s  %s%n",
        "target",
        "executions",
        "seconds",
        "exec/s",
        "findings",
        "status");
    long total = 0;
    long seconds = 0;
    int findings = 0;
    for (Outcome o : outcomes) {
      long n = Math.max(0, o.executions());
      total += n;
      seconds += o.seconds();
      findings += o.findings().size();
      out.printf(
          Locale.ROOT,
          "%-18s %14d %8d %10.0f %9d  %s%n",
          o.target().name(),
          n,
          o.seconds(),
          o.seconds() > 0 ? (double) n / o.seconds() : 0.0,
          o.findings().size(),
          o.status());
    }
    out.printf(
        Locale.ROOT,
        "%-18s %14d %8d %10.0f %9d%n",
        "total",
        total,
        seconds,
        seconds > 0 ? (double) total / seconds : 0.0,
        findings);
    for (Outcome o : outcomes) {
      for (Path f : o.findings()) {
        out.println("finding of " + o.target().name() + ": " + f);
      }
    }
    out.flush();
  }

  /** The target names, for help and completion. */
  static final class Names implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      List<String> names = new ArrayList<>(TARGETS.keySet());
      names.add("all");
      return names.iterator();
    }
  }
}
