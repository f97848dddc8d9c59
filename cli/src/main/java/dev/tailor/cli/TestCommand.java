package dev.tailor.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Runs the test suite as {@code ./tailor test} does: {@code ./mvnw -B verify}, then every module's
 * tests again on a Java 21. The {@code ./tailor} script runs it itself, without building the
 * command line first; this command hands over to it.
 */
@Command(
    name = "test",
    mixinStandardHelpOptions = true,
    description = "Run the test suite (./mvnw verify), then its tests again on Java 21.")
final class TestCommand implements Callable<Integer> {

  @Parameters(
      arity = "0..*",
      paramLabel = "ARG",
      description = "Passed on to ./tailor test: --no-jdk21 first, then Maven's arguments.")
  List<String> args = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    List<String> command = new ArrayList<>(List.of("./tailor", "test"));
    command.addAll(args);
    return new ProcessBuilder(command)
        .directory(TailorHome.root().toFile())
        .inheritIO()
        .start()
        .waitFor();
  }
}
