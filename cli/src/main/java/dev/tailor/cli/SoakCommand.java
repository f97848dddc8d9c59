package dev.tailor.cli;

import dev.tailor.bench.soak.FaultSoak;
import dev.tailor.bench.soak.SoakReport;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tailor soak}: a fault soak of the runtime ({@link FaultSoak}). Prints what it checked and
 * measured, and exits with status 1 if a check failed.
 */
@Command(
    name = "soak",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    description = {
      "Run many requests of every troublesome kind through one scheduler under a policy whose"
          + " table files are swapped for good and corrupt ones, and check that every request"
          + " completes exactly once and no thread is lost; exit status 1 if a check failed."
    })
final class SoakCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--requests", defaultValue = "1000000", description = "Requests to run.")
  long requests;

  @Option(names = "--workers", defaultValue = "4", description = "The scheduler's threads.")
  int workers;

  @Option(
      names = "--callers",
      defaultValue = "2",
      description = "Threads running a tenth themselves.")
  int callers;

  @Option(
      names = "--sample-every",
      defaultValue = "100000",
      description = "Requests a heap sample.")
  long sampleEvery;

  @Option(names = "--swap-every", defaultValue = "10000", description = "Requests a table swap.")
  long swapEvery;

  @Option(names = "--seed", defaultValue = "20261123", description = "Seed of the plans.")
  long seed;

  @Override
  public Integer call() throws Exception {
    FaultSoak.Options options =
        new FaultSoak.Options(requests, workers, callers, sampleEvery, swapEvery, seed);
    PrintWriter err = spec.commandLine().getErr();
    SoakReport report = FaultSoak.run(options, line -> err.printf("%s%n", line).flush());
    PrintWriter out = spec.commandLine().getOut();
    report.lines().forEach(out::println);
    out.flush();
    return report.passed() ? 0 : 1;
  }
}
