package dev.tailor.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code tailor} command line: one entry point for the pipeline from corpora to reports. The
 * {@code ./tailor} script finds a JDK, builds on first use and runs this class.
 */
@Command(
    name = "tailor",
    mixinStandardHelpOptions = true,
    versionProvider = TailorCommand.Version.class,
    description = {
      "Per-request, load-aware parallelism for Lucene search.",
      "Tailor decides, per request and moment by moment, how many threads work on it."
    },
    subcommands = {
      DemoCommand.class,
      PoliciesCommand.class,
      ProfileCommand.class,
      ServeCommand.class,
      ReplayCommand.class,
      ClusterCommand.class,
      SimulateCommand.class,
      AutoCommand.class,
      ClassesCommand.class,
      BalanceCommand.class,
      BudgetCommand.class,
      AggregateCommand.class,
      FidelityCommand.class,
      AgreementCommand.class,
      CalibrateCommand.class,
      PlanCommand.class,
      BenchCommand.class,
      TestCommand.class,
      FuzzCommand.class,
      CorpusCommand.class,
      IndexCommand.class,
      TraceCommand.class,
      TablesCommand.class,
      PredictorCommand.class,
      SoakCommand.class,
      CommandLine.HelpCommand.class
    })
public final class TailorCommand implements Runnable {

  @Spec CommandSpec spec;

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  static CommandLine commandLine() {
    return new CommandLine(new TailorCommand())
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setExecutionExceptionHandler(TailorCommand::report);
  }

  /**
   * Bad input (a missing file, a malformed argument, an unreachable server) is reported as its
   * message, which names the file, field or value; anything else with its stack trace.
   */
  private static int report(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
    Throwable cause =
        e instanceof CommandLine.ExecutionException && e.getCause() != null ? e.getCause() : e;
    if (cause instanceof IllegalArgumentException
        || cause instanceof IOException
        || cause instanceof UncheckedIOException
        || cause instanceof CommandLine.ExecutionException) {
      // The full name ("tailor trace check"), so a nested command's error says which one failed.
      cl.getErr().println(cl.getCommandSpec().qualifiedName() + ": " + reason(cause));
    } else {
      cause.printStackTrace(cl.getErr());
    }
    cl.getErr().flush();
    return 1;
  }

  /**
   * The exception's message, or for a file-system error, whose message is often the bare path, what
   * is wrong with the file.
   */
  static String reason(Throwable e) {
    Throwable cause = e instanceof UncheckedIOException && e.getCause() != null ? e.getCause() : e;
    return switch (cause) {
      case NoSuchFileException f -> "no such file: " + f.getFile();
      case AccessDeniedException f -> "permission denied: " + f.getFile();
      case NotDirectoryException f -> "not a directory: " + f.getFile();
      case FileAlreadyExistsException f -> "already exists: " + f.getFile();
      default -> e.getMessage();
    };
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** The version from the build, when run from a packaged jar. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = TailorCommand.class.getPackage().getImplementationVersion();
      return new String[] {"tailor " + (v == null ? "0.1.0-SNAPSHOT" : v)};
    }
  }
}
