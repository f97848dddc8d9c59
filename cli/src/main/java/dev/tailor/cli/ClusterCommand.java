package dev.tailor.cli;

import dev.tailor.cli.cluster.Cluster;
import dev.tailor.cli.cluster.ClusterLayout;
import dev.tailor.cli.cluster.Distribution;
import dev.tailor.cli.cluster.Launcher;
import dev.tailor.cli.cluster.NodeSettings;
import dev.tailor.core.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tailor cluster up|load|down|status}: a local cluster of real OpenSearch node processes
 * ({@link dev.tailor.cli.cluster}), loaded with a corpus and swept with the open-loop client.
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

  /** The OpenSearch version whose Lucene (10.5.0) the plugin is built against. */
  static final String DEFAULT_VERSION = "3.8.0";

  /** Where the plugin module's build leaves its zip, under the checkout. */
  static final String PLUGIN_TARGET = "opensearch-plugin/target";

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

  /** The JDK the nodes run on: the one this command runs on, as ./tailor found it. */
  static Path javaHome(Path given) {
    if (given != null) {
      return given.toAbsolutePath();
    }
    return Path.of(TailorHome.java()).toAbsolutePath().getParent().getParent();
  }

  static Cluster recorded(DataOptions data, Path javaHome, PrintWriter err) throws IOException {
    ClusterLayout layout = ClusterLayout.read(clusterRoot(data));
    return new Cluster(
        layout, new Launcher(javaHome(javaHome), Launcher.runningAsRoot()), printer(err));
  }

  /**
   * The plugin zip: the one given, else the one the plugin module's build left.
   *
   * @throws IOException if there is none, saying how to build it
   */
  static Path pluginZip(Path given, Path projectRoot) throws IOException {
    if (given != null) {
      if (!Files.isRegularFile(given)) {
        throw new IOException("--plugin " + given + ": no such file");
      }
      return given.toAbsolutePath();
    }
    Path dir = projectRoot.resolve(PLUGIN_TARGET);
    List<Path> found = new ArrayList<>();
    if (Files.isDirectory(dir)) {
      try (DirectoryStream<Path> zips = Files.newDirectoryStream(dir, "tailor-opensearch-*.zip")) {
        zips.forEach(found::add);
      }
    }
    if (found.size() != 1) {
      throw new IOException(
          (found.isEmpty()
                  ? "no plugin zip (tailor-opensearch-VERSION.zip) in " + dir
                  : "several plugin zips in " + dir + ": " + found)
              + "; build it with ./mvnw -pl opensearch-plugin -am package, or give one with --plugin"
              + " FILE, or start OpenSearch without it (--no-plugin)");
    }
    return found.get(0);
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
        defaultValue = DEFAULT_VERSION,
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
        description = "Tailor's plugin zip (default: the one in " + PLUGIN_TARGET + ").")
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
      PrintWriter err = spec.commandLine().getErr();
      Duration wait = Duration.ofNanos(Durations.parseNanos(timeout));
      ClusterLayout layout =
          new ClusterLayout(
              clusterRoot(data), version, name, nodes, httpPort, transportPort, heap, !noPlugin);
      if (noPlugin && plugin != null) {
        throw new ParameterException(spec.commandLine(), "--plugin and --no-plugin contradict");
      }
      NodeSettings.opensearchYml(layout, 1, tailorWorkers, tailorQueue); // checks them now
      Path pluginZip = noPlugin ? null : pluginZip(plugin, TailorHome.root());
      Path root = clusterRoot(data);
      if (Files.isRegularFile(root.resolve(ClusterLayout.STATE_FILE))) {
        Cluster earlier = recorded(data, javaHome, err);
        if (!earlier.running().isEmpty()) {
          throw new IOException(
              "nodes "
                  + earlier.running()
                  + " of the cluster recorded in "
                  + root.resolve(ClusterLayout.STATE_FILE)
                  + " are running; stop them first (./tailor cluster down)");
        }
      }
      Cluster cluster =
          new Cluster(
              layout, new Launcher(javaHome(javaHome), Launcher.runningAsRoot()), printer(err));
      Path zip = Distribution.fetch(layout, TailorHome.root(), printer(err));
      cluster.prepare(zip, pluginZip, fresh, tailorWorkers, tailorQueue);
      layout.write();
      cluster.start(wait);
      PrintWriter out = spec.commandLine().getOut();
      cluster.status().forEach(out::println);
      if (pluginZip != null) {
        out.println(
            "plugins: "
                + cluster.client(1, Duration.ofSeconds(10)).get("/_cat/plugins?format=json"));
      }
      out.flush();
      return 0;
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
            "How long a node may take to stop before it is killed (default" + " ${DEFAULT-VALUE}).")
    String timeout;

    @Override
    public Integer call() throws Exception {
      Cluster cluster = recorded(data, null, spec.commandLine().getErr());
      PrintWriter out = spec.commandLine().getOut();
      cluster.stop(Duration.ofNanos(Durations.parseNanos(timeout))).forEach(out::println);
      out.flush();
      return 0;
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
      Cluster cluster = recorded(data, null, spec.commandLine().getErr());
      PrintWriter out = spec.commandLine().getOut();
      ClusterLayout layout = cluster.layout();
      out.printf(
          "cluster %s: OpenSearch %s, %d nodes, Tailor's plugin %s%n",
          layout.name(),
          layout.version(),
          layout.nodes(),
          !layout.plugin()
              ? "not installed"
              : cluster.pluginEnabled() ? "installed" : "set aside (an interrupted load)");
      cluster.status().forEach(out::println);
      try {
        out.println("health: " + cluster.client(1, Duration.ofSeconds(3)).get("/_cluster/health"));
      } catch (IOException e) {
        out.println("health: no answer from node-1");
      }
      out.flush();
      return cluster.running().size() == layout.nodes() ? 0 : 1;
    }
  }
}
