package dev.tailor.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Runs the test suite: {@code ./mvnw -B verify} on this JDK. The {@code ./tailor} script runs it
 * directly, without building the command line first.
 */
@Command(
    name = "test",
    mixinStandardHelpOptions = true,
    description = "Run the test suite (./mvnw verify) on a suitable JDK.")
final class TestCommand implements Callable<Integer> {

  @Parameters(arity = "0..*", paramLabel = "MAVEN_ARG", description = "Passed on to Maven.")
  List<String> mavenArgs = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    List<String> command = new ArrayList<>(List.of("./mvnw", "-B", "verify"));
    command.addAll(mavenArgs);
    ProcessBuilder pb = new ProcessBuilder(command).directory(TailorHome.root().toFile());
    pb.environment()
        .put(
            "JAVA_HOME",
            java.nio.file.Path.of(TailorHome.java()).getParent().getParent().toString());
    return pb.inheritIO().start().waitFor();
  }
}
