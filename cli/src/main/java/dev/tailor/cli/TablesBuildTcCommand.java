package dev.tailor.cli;

import dev.tailor.core.table.Digests;
import dev.tailor.core.table.ThresholdTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.model.LogNormalProfile;
import dev.tailor.tables.TableText;
import dev.tailor.tables.TcTableBuilder;
import dev.tailor.tables.WorkDistribution;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tailor tables build tc}: tail-control's threshold table, by the paper's Fig. 3. */
@Command(
    name = "tc",
    mixinStandardHelpOptions = true,
    description = {
      "Build a tail-control threshold table (Li et al., PPoPP'16, §4.1, Fig. 3): for each number"
          + " of active requests 1..q_max, the work past which a request is serialized, the one"
          + " that minimises the requests expected to miss --target during a pileup at --rps on"
          + " --cores cores.",
      "The work distribution is the profile's sequential times, binned (--bins), or a generated"
          + " log-normal workload (--lognormal, the paper's synthetic one). Serve it with tc:FILE."
    })
final class TablesBuildTcCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  static final class Source {
    @Option(names = "--profile", paramLabel = "FILE", description = "A demand profile.")
    Path profile;

    @Option(
        names = "--lognormal",
        paramLabel = "MEAN,SD",
        description = "A generated log-normal workload of this mean and SD, e.g. 10ms,13ms.")
    String lognormal;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Source source;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The table JSON.")
  Path out;

  @Option(
      names = "--target",
      required = true,
      paramLabel = "DURATION",
      converter = LatencyTarget.class,
      description = "The target latency, e.g. 20ms.")
  long targetNanos;

  @Option(
      names = "--rps",
      required = true,
      paramLabel = "RATE",
      description = "The expected arrival rate, requests per second.")
  double rps;

  @Option(
      names = "--cores",
      defaultValue = "16",
      paramLabel = "N",
      description = "The server's cores, m (default ${DEFAULT-VALUE}).")
  int cores;

  @Option(
      names = "--bins",
      defaultValue = "1000",
      paramLabel = "N",
      description =
          "At most N bins of the work distribution, log-spaced (default ${DEFAULT-VALUE}).")
  int bins;

  @Option(
      names = "--q-max",
      defaultValue = "0",
      paramLabel = "N",
      description = "Rows for 1..N active requests (default: the paper's heuristic, >= 4 x cores).")
  int qMax;

  @Option(
      names = "--requests",
      defaultValue = "100000",
      paramLabel = "N",
      description = "Requests of a --lognormal workload (default ${DEFAULT-VALUE}).")
  int requests;

  @Option(
      names = "--seed",
      defaultValue = "1",
      description = "Seed of a --lognormal workload (default ${DEFAULT-VALUE}).")
  long seed;

  @Override
  public Integer call() throws IOException {
    if (bins < 1 || qMax < 0 || cores < 1 || !(rps > 0) || requests < 1) {
      throw new ParameterException(
          spec.commandLine(),
          "need --bins >= 1, --q-max >= 0, --cores >= 1, --rps > 0 and --requests >= 1");
    }
    DemandProfile profile;
    TcTableBuilder.Source from;
    if (source.profile != null) {
      profile = DemandProfile.read(source.profile);
      from = new TcTableBuilder.Source(source.profile.toString(), Digests.sha256(source.profile));
    } else {
      LogNormalProfile.Shape shape;
      try {
        shape = LogNormalProfile.Shape.parse(source.lognormal);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--lognormal: " + e.getMessage(), e);
      }
      profile = LogNormalProfile.generate(shape, requests, 1, seed);
      from =
          new TcTableBuilder.Source(
              shape.describe() + ", " + requests + " requests, seed " + seed, null);
    }
    WorkDistribution distribution = WorkDistribution.of(TcTableBuilder.works(profile), bins);
    ThresholdTable table;
    try {
      table = TcTableBuilder.build(distribution, from, targetNanos, rps, cores, qMax);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    table.write(out);
    PrintWriter o = spec.commandLine().getOut();
    o.printf("work distribution: %s%n", distribution);
    TableText.print(table, o);
    o.printf("wrote %s%n", out);
    o.flush();
    return 0;
  }
}
