package dev.tailor.fuzz;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fuzzes one {@link FuzzTarget} with Jazzer: runs its {@code @FuzzTest} in fuzzing mode ({@code
 * JAZZER_FUZZ=1}) through Maven, and reports its executions and findings.
 *
 * <p>Jazzer fuzzes one test per JVM, so each target is its own Maven run ({@code -pl fuzz -am}, so
 * that the readers are the worktree's, and instrumented: Jazzer instruments class directories, not
 * jars). A finding stops its target; Jazzer saves the input to the target's inputs directory, where
 * the default test run then replays it until it is fixed. The corpus grown while fuzzing is kept in
 * {@code lab/fuzz/.cifuzz-corpus} and resumed by the next run.
 *
 * @param seconds how long to fuzz
 * @param timeoutSeconds an input taking longer is a finding (a hang)
 * @param maxLen the largest input tried, in bytes
 * @param keepGoing distinct findings after which a target stops
 * @param offline whether Maven runs offline
 */
public record JazzerRun(
    long seconds, long timeoutSeconds, int maxLen, int keepGoing, boolean offline) {

  /**
   * What Jazzer instruments for coverage: Tailor's classes and the parsers its readers use, so that
   * the fuzzer learns their grammars too (JSON, query syntax, compressed streams).
   */
  public static final String INSTRUMENT =
      "dev.tailor.**,com.fasterxml.jackson.core.**,org.apache.lucene.queryparser.**,"
          + "org.apache.commons.compress.**";

  /** libFuzzer's summary line: {@code Done 35858 runs in 61 second(s)}. */
  private static final Pattern DONE = Pattern.compile("Done (\\d+) runs in (\\d+) second");

  /** The lines of Jazzer's and Maven's output worth showing while a target runs. */
  private static final Pattern SHOWN =
      Pattern.compile(
          "^#\\d+\\s+(pulse|DONE)|^Done \\d+ runs|== Java Exception|Test unit written|"
              + "FuzzTestFinding|^\\[ERROR\\]|BUILD (SUCCESS|FAILURE)");

  /**
   * What one target's run did.
   *
   * @param executions the inputs run, or -1 if Jazzer printed no summary
   * @param findings the findings it saved
   * @param exit Maven's exit status
   */
  public record Outcome(
      FuzzTarget target, long executions, long seconds, List<Path> findings, int exit) {

    /** {@code ok}, {@code FINDING} or why the run failed. */
    public String status() {
      if (!findings.isEmpty()) {
        return "FINDING";
      }
      if (executions < 0) {
        return "FAILED (exit " + exit + ", no fuzzing summary; see the log)";
      }
      return exit == 0 ? "ok" : "FAILED (exit " + exit + "; see the log)";
    }
  }

  /** The Maven command line that fuzzes {@code t}. */
  public List<String> command(FuzzTarget t) {
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

  /**
   * Fuzzes {@code t} in the worktree {@code root} on the JDK at {@code javaHome}, its whole output
   * written to {@code log} and the lines worth showing to {@code out}.
   */
  public Outcome run(FuzzTarget t, Path root, Path javaHome, Path log, PrintWriter out)
      throws IOException, InterruptedException {
    Path inputs = t.inputs(root);
    Set<Path> before = FuzzTarget.findings(inputs);
    ProcessBuilder pb =
        new ProcessBuilder(command(t)).directory(root.toFile()).redirectErrorStream(true);
    pb.environment().put("JAVA_HOME", javaHome.toString());
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
    List<Path> found = new ArrayList<>(FuzzTarget.findings(inputs));
    found.removeAll(before);
    return new Outcome(t, executions, ran, found, exit);
  }

  /** Prints a table of the outcomes, one row a target and their total, then every finding. */
  public static void print(List<Outcome> outcomes, PrintWriter out) {
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
      out.println(
          counts(o.target().name(), n, o.seconds(), o.findings().size()) + "  " + o.status());
    }
    out.println(counts("total", total, seconds, findings));
    for (Outcome o : outcomes) {
      for (Path f : o.findings()) {
        out.println("finding of " + o.target().name() + ": " + f);
      }
    }
    out.flush();
  }

  /** A row's name, executions, seconds, executions per second and findings, in columns. */
  private static String counts(String name, long executions, long seconds, int findings) {
    return String.format(
        Locale.ROOT,
        "%-18s %14d %8d %10.0f %9d",
        name,
        executions,
        seconds,
        seconds > 0 ? (double) executions / seconds : 0.0,
        findings);
  }
}
