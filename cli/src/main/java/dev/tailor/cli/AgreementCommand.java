package dev.tailor.cli;

import dev.tailor.load.report.Agreement;
import dev.tailor.load.report.Report;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tailor agreement A B}: whether two sweeps of the same configuration, run one after the
 * other, agree point by point ({@link Agreement}): the test of a sweep's statistics' power.
 */
@Command(
    name = "agreement",
    mixinStandardHelpOptions = true,
    description = {
      "Compare two reports of the same sweep point by point: each one's pooled P99 with its 95%%"
          + " interval, whether the intervals overlap, and their half-widths; then at how many"
          + " unsaturated points they overlap (goal: 90%%).",
      "Exit status: 0 when the overlap goal is met, 1 when it is missed."
    })
final class AgreementCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "A", description = "The first report's directory.")
  Path a;

  @Parameters(index = "1", paramLabel = "B", description = "The second report's directory.")
  Path b;

  @Override
  public Integer call() throws Exception {
    Agreement agreement = new Agreement(Report.readPoints(a), Report.readPoints(b));
    PrintWriter out = spec.commandLine().getOut();
    out.print(agreement.text());
    out.flush();
    return agreement.meetsOverlapGoal() ? 0 : 1;
  }
}
