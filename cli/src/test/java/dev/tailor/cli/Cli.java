package dev.tailor.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs {@code tailor} commands in this process and keeps what they printed. */
final class Cli {

  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  /** Runs one command line; returns its exit code. */
  int run(String... args) {
    CommandLine cl = TailorCommand.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return cl.execute(args);
  }

  String out() {
    return out.toString();
  }

  String err() {
    return err.toString();
  }
}
