package dev.tailor.opensearch;

import java.util.Collection;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * {@code ./tailor bench decider}: runs {@link DeciderBenchmark} under JMH (a forked JVM on this
 * class path) and prints the decider's cost per shard request beside its goal of 5 µs.
 */
public final class DeciderBench {

  private static final double GOAL_NANOS = 5_000;

  private DeciderBench() {}

  /** Arguments: {@code --quick} for one fork and short iterations. */
  public static void main(String[] args) throws RunnerException {
    boolean quick = args.length > 0 && args[0].equals("--quick");
    ChainedOptionsBuilder options =
        new OptionsBuilder()
            .include(DeciderBenchmark.class.getName())
            .forks(quick ? 1 : 3)
            .warmupIterations(quick ? 2 : 5)
            .warmupTime(TimeValue.seconds(1))
            .measurementIterations(quick ? 3 : 5)
            .measurementTime(TimeValue.seconds(1))
            .jvmArgsAppend("-Dtests.security.manager=false");
    Collection<RunResult> results = new Runner(options.build()).run();
    for (RunResult r : results) {
      double score = r.getPrimaryResult().getScore();
      double error = r.getPrimaryResult().getScoreError();
      System.out.printf(
          Locale.ROOT,
          "decider: %.0f ns per shard request (± %.0f, %s), goal < %.0f ns: %s%n",
          score,
          error,
          quick ? "1 fork × 3 iterations" : "3 forks × 5 iterations",
          GOAL_NANOS,
          score + error < GOAL_NANOS ? "met" : score < GOAL_NANOS ? "met at the mean" : "MISSED");
    }
  }
}
