package dev.tailor.cli;

import dev.tailor.cluster.Cluster;
import dev.tailor.cluster.ClusterLayout;
import dev.tailor.cluster.ClusterSetup;
import dev.tailor.core.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tailor cluster up|load|down|status}: a local cluster of real OpenSearch node processes
 * ({@link dev.tailor.cluster}), loaded with a corpus and swept with the open-loop client.
 */
@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    description = {
      "Real OpenSearch nodes on 127.0.0.1, with Tailor's plugin: start them, load an index and"
          + " sweep the load through them for seq, OpenSearch's own concurrent search and Tailor's"
          + " policies, stop them."
    },
    subcommands = {
      ClusterCommand.Up.class,
      ClusterLoadCommand.class,
      ClusterCommand.Down.class,
      ClusterCommand.Status.class
    })
final class ClusterCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The cluster's directory under the data directory. */
  static Path clusterRoot(DataOptions data) {
    return data.dataDir().resolve("opensearch");
  }

  static Consumer<String> printer(PrintWriter err) {
    return line -> {
      err.println(line);
      err.flush();
    };
  }

  /** The JDK the nodes run on: the one given, else the one this command runs on. */
  static Path javaHome(Path given) {
    return given != null
        ? given.toAbsolutePath()
        : Path.of(TailorHome.java()).toAbsolutePath().getParent().getParent();
  }

  /** The cluster {@code up} recorded under the data directory. */
  static Cluster recorded(DataOptions data, PrintWriter err) throws IOException {
    return Cluster.recorded(clusterRoot(data), javaHome(null), printer(err));
  }

  /** Prints the lines on standard output and returns {@code status}. */
  static int print(CommandSpec spec, List<String> lines, int status) {
    PrintWriter out = spec.commandLine().getOut();
    lines.forEach(out::println);
    out.flush();
    return status;
  }

  /** {@code tailor cluster up}. */
  @Command(
      name = "up",
      mixinStandardHelpOptions = true,
      description = {
        "Fetch the OpenSearch distribution (Maven Central, cached under the data directory),"
            + " unpack it into one home per node, install Tailor's plugin, configure the nodes on"
            + " 127.0.0.1 and start them, then wait until the cluster is green.",
        "As root the nodes run through a user namespace (unshare --user), since OpenSearch"
            + " refuses to run as root."
      })
  static final class Up implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Mixin DataOptions data;

    @Option(
        names = "--opensearch-version",
        defaultValue = ClusterLayout.DEFAULT_VERSION,
        description = "The OpenSearch version (default ${DEFAULT-VALUE}, the plugin's).")
    String version;

    @Option(
        names = "--nodes",
        defaultValue = "2",
        description = "Nodes (default ${DEFAULT-VALUE}).")
    int nodes;

    @Option(
        names = "--cluster-name",
        defaultValue = "tailor",
        description = "The cluster's name (default ${DEFAULT-VALUE}).")
    String name;

    @Option(
        names = "--http-port",
        defaultValue = "9200",
        description =
            "The first node's HTTP port; the next nodes take the next ones (default"
                + " ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(
        names = "--transport-port",
        defaultValue = "9300",
        description = "The first node's transport port, likewise (default ${DEFAULT-VALUE}).")
    int transportPort;

    @Option(
        names = "--heap",
        defaultValue = "512m",
        description = "Each node's heap (default ${DEFAULT-VALUE}).")
    String heap;

    @Option(
        names = "--plugin",
        paramLabel = "ZIP",
        description =
            "Tailor's plugin zip (default: the one in " + ClusterSetup.PLUGIN_TARGET + ").")
    Path plugin;

    @Option(names = "--no-plugin", description = "Run OpenSearch as it ships, without the plugin.")
    boolean noPlugin;

    @Option(
        names = "--tailor-workers",
        paramLabel = "N",
        description = "The plugin's thread budget per node (tailor.workers; default: its own).")
    Integer tailorWorkers;

    @Option(
        names = "--tailor-queue",
        paramLabel = "N",
        description = "The plugin's queue capacity (tailor.queue_capacity; default: its own).")
    Integer tailorQueue;

    @Option(
        names = "--fresh",
        description = "Delete the node homes (and their data) and unpack them again.")
    boolean fresh;

    @Option(
        names = "--java-home",
        paramLabel = "DIR",
        description = "The JDK (21+) the nodes run on (default: the one ./tailor runs on).")
    Path javaHome;

    @Option(
        names = "--timeout",
        defaultValue = "180s",
        description = "How long to wait for green (default ${DEFAULT-VALUE}).")
    String timeout;

    @Override
    public Integer call() throws Exception {
      ClusterLayout layout =
          new ClusterLayout(
              clusterRoot(data), version, name, nodes, httpPort, transportPort, heap, !noPlugin);
      ClusterSetup setup = new ClusterSetup(layout, plugin, fresh, tailorWorkers, tailorQueue);
      Duration wait = Duration.ofNanos(Durations.parseNanos(timeout));
      PrintWriter err = spec.commandLine().getErr();
      Cluster cluster =
          Cluster.up(setup, javaHome(javaHome), TailorHome.root(), wait, printer(err));
      return print(spec, cluster.describe(), 0);
    }
  }

  /** {@code tailor cluster down}. */
  @Command(
      name = "down",
      mixinStandardHelpOptions = true,
      description = "Stop the cluster's nodes and wait for them to exit.")
  static final class Down implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Mixin DataOptions data;

    @Option(
        names = "--timeout",
        defaultValue = "60s",
        description =
            "How long a node may take to stop before it is killed (default ${DEFAULT-VALUE}).")
    String timeout;

    @Override
    public Integer call() throws Exception {
      Duration wait = Duration.ofNanos(Durations.parseNanos(timeout));
      return print(spec, recorded(data, spec.commandLine().getErr()).stop(wait), 0);
    }
  }

  /** {@code tailor cluster status}. */
  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description = "Each node's process, address and answer, and the cluster's health.")
  static final class Status implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Mixin DataOptions data;

    @Override
    public Integer call() throws Exception {
      Cluster cluster = recorded(data, spec.commandLine().getErr());
      boolean up = cluster.running().size() == cluster.layout().nodes();
      return print(spec, cluster.describe(), up ? 0 : 1);
    }
  }
}
