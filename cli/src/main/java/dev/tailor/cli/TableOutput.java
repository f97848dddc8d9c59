package dev.tailor.cli;

import dev.tailor.studies.StudyRunner;
import dev.tailor.studies.Table;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** How a study's tables are printed: Markdown, or CSV with {@code --csv}. */
final class TableOutput {

  @Option(names = "--csv", description = "Print the tables as CSV, each after a # line naming it.")
  boolean csv;

  /** A runner printing to the command's standard output. */
  StudyRunner runner(CommandSpec spec) {
    return new StudyRunner(
        csv ? Table.Format.CSV : Table.Format.MARKDOWN, spec.commandLine().getOut());
  }
}
