package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.fuzz.FuzzTarget;
import dev.tailor.fuzz.JazzerRun;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tailor fuzz}: fuzzes Tailor's file readers with Jazzer ({@link JazzerRun}), one {@link
 * FuzzTarget} after another for a given time each, and prints each target's executions, rate and
 * findings. Each run's full output goes to {@code lab/fuzz/target/fuzz-logs/TARGET.log}.
 */
@Command(
    name = "fuzz",
    mixinStandardHelpOptions = true,
    description = {
      "Fuzz a file reader with Jazzer (coverage-guided) and print executions and findings.",
      "A finding's input is saved under lab/fuzz/src/test/resources, where ./tailor test replays it."
    })
final class FuzzCommand implements Callable<Integer> {

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
      description = "An input taking longer is a finding (a hang) (default ${DEFAULT-VALUE}).")
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

  @Override
  public Integer call() throws Exception {
    List<FuzzTarget> targets = targets();
    JazzerRun jazzer = jazzer();
    Path root = TailorHome.root();
    Path logs = Files.createDirectories(root.resolve("lab/fuzz/target/fuzz-logs"));
    Path javaHome = Path.of(TailorHome.java()).getParent().getParent();
    PrintWriter out = spec.commandLine().getOut();
    List<JazzerRun.Outcome> outcomes = new ArrayList<>();
    for (FuzzTarget t : targets) {
      Path log = logs.resolve(t.name() + ".log");
      out.printf(
          "== fuzz %s (%s: %s) for %ds; log %s%n",
          t.name(), t.about(), t.selector(), jazzer.seconds(), log);
      out.flush();
      outcomes.add(jazzer.run(t, root, javaHome, log, out));
    }
    JazzerRun.print(outcomes, out);
    return outcomes.stream().allMatch(o -> o.status().equals("ok")) ? 0 : 1;
  }

  /** The run the options ask for. */
  JazzerRun jazzer() {
    long seconds = seconds(time, "--time");
    long timeoutSeconds = Math.max(1, seconds(timeout, "--timeout"));
    if (maxLen < 1 || keepGoing < 1) {
      throw new ParameterException(spec.commandLine(), "--max-len and --keep-going must be >= 1");
    }
    return new JazzerRun(seconds, timeoutSeconds, maxLen, keepGoing, offline);
  }

  private List<FuzzTarget> targets() {
    if ("all".equals(target)) {
      return List.copyOf(FuzzTarget.ALL.values());
    }
    FuzzTarget t = FuzzTarget.ALL.get(target);
    if (t == null) {
      throw new ParameterException(
          spec.commandLine(),
          "unknown target '"
              + target
              + "'; expected all or one of "
              + String.join(", ", FuzzTarget.ALL.keySet()));
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

  /** The target names, for help and completion. */
  static final class Names implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      List<String> names = new ArrayList<>(FuzzTarget.ALL.keySet());
      names.add("all");
      return names.iterator();
    }
  }
}
