package dev.tailor.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.io.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A local cluster of real OpenSearch node processes, one per home of a {@link ClusterLayout}:
 * prepared (unpacked, configured, the plugin installed), started as daemons and waited for until
 * green, stopped by their process ids. Tailor's plugin can be set aside while the nodes are down,
 * so that the same homes also run OpenSearch as it ships ({@link ClusterLoad} does so).
 *
 * <p>{@link #up} starts one and records its layout under the layout's root; {@link #recorded} finds
 * it there again, for the commands that stop, describe or load it. The nodes are ordinary processes
 * that outlive this one: they run until {@link #stop}.
 */
public final class Cluster {

  /** The plugin's name, its directory under {@code plugins}. */
  static final String PLUGIN = "tailor";

  /** Where a set-aside plugin waits, under a node's home. */
  static final String PLUGINS_SET_ASIDE = "plugins-set-aside";

  private static final Duration POLL = Duration.ofSeconds(1);
  private static final Duration PID_FILE_GRACE = Duration.ofSeconds(60);
  private static final int LOG_LINES = 25;

  private final ClusterLayout layout;
  private final Launcher launcher;
  private final Consumer<String> log;

  /**
   * A cluster.
   *
   * @param log hears what is done, a line at a time
   */
  Cluster(ClusterLayout layout, Launcher launcher, Consumer<String> log) {
    this.layout = layout;
    this.launcher = launcher;
    this.log = log;
  }

  /**
   * The cluster {@link #up} recorded under {@code root}, whose nodes may or may not be running.
   *
   * @param javaHome the JDK the nodes run on when they are restarted
   * @param log hears what is done, a line at a time
   * @throws IOException naming the file if no cluster was started there, or its record is broken
   */
  public static Cluster recorded(Path root, Path javaHome, Consumer<String> log)
      throws IOException {
    return new Cluster(
        ClusterLayout.read(root), new Launcher(javaHome, Launcher.runningAsRoot()), log);
  }

  /**
   * Starts the cluster {@code setup} describes: OpenSearch fetched from Maven Central (or taken
   * from the cache under the layout's root), every node's home prepared, the layout recorded, the
   * nodes started and waited for until green.
   *
   * @param javaHome the JDK the nodes run on (OpenSearch 3 needs 21 or newer)
   * @param projectRoot the checkout, whose Maven wrapper fetches OpenSearch and whose plugin module
   *     builds the plugin zip
   * @param timeout how long the nodes may take to be green
   * @param log hears what is done, a line at a time
   * @throws IOException if nodes of a cluster recorded there are running, there is no plugin zip,
   *     the fetch fails, or the nodes do not start or are not green in time (with each log's end)
   */
  public static Cluster up(
      ClusterSetup setup, Path javaHome, Path projectRoot, Duration timeout, Consumer<String> log)
      throws IOException {
    ClusterLayout layout = setup.layout();
    Path pluginZip = setup.pluginZip(projectRoot);
    Path state = layout.root().resolve(ClusterLayout.STATE_FILE);
    if (Files.isRegularFile(state)) {
      List<String> earlier = recorded(layout.root(), javaHome, log).running();
      if (!earlier.isEmpty()) {
        throw new IOException(
            "nodes "
                + earlier
                + " of the cluster recorded in "
                + state
                + " are running; stop them first (./tailor cluster down)");
      }
    }
    Cluster cluster = new Cluster(layout, new Launcher(javaHome, Launcher.runningAsRoot()), log);
    Path zip = Distribution.fetch(layout, projectRoot, log);
    cluster.prepare(zip, pluginZip, setup.fresh(), setup.tailorWorkers(), setup.tailorQueue());
    layout.write();
    cluster.start(timeout);
    return cluster;
  }

  /** The layout. */
  public ClusterLayout layout() {
    return layout;
  }

  /** A client of node {@code n}. */
  RestClient client(int n, Duration timeout) {
    return new RestClient(layout.httpAddresses().get(n - 1), timeout);
  }

  /**
   * Makes every node's home ready to start: unpacked from {@code zip} if it does not exist (or
   * {@code fresh}, which deletes it and its data first), its configuration written, Tailor's plugin
   * installed from {@code pluginZip} (replacing an earlier install, so that a rebuilt plugin is
   * taken) or, when {@code pluginZip} is null, removed.
   *
   * @throws IllegalStateException if a node is running: its home must not change under it
   */
  void prepare(Path zip, Path pluginZip, boolean fresh, Integer tailorWorkers, Integer tailorQueue)
      throws IOException {
    if (!running().isEmpty()) {
      throw new IllegalStateException(
          "nodes " + running() + " are running; stop them first (./tailor cluster down)");
    }
    String yml1 = NodeSettings.opensearchYml(layout, 1, tailorWorkers, tailorQueue); // checks
    for (int n = 1; n <= layout.nodes(); n++) {
      Path home = layout.home(n);
      if (fresh && Files.exists(home)) {
        log.accept(layout.nodeName(n) + ": deleting " + home + " (--fresh)");
        AtomicFiles.deleteTree(home);
      }
      if (!Files.exists(home)) {
        log.accept(layout.nodeName(n) + ": unpacking into " + home);
        Distribution.unpack(zip, home);
      }
      String yml =
          n == 1 ? yml1 : NodeSettings.opensearchYml(layout, n, tailorWorkers, tailorQueue);
      AtomicFiles.writeString(home.resolve("config").resolve("opensearch.yml"), yml);
      Path options = Files.createDirectories(home.resolve("config").resolve("jvm.options.d"));
      AtomicFiles.writeString(
          options.resolve(NodeSettings.JVM_OPTIONS_FILE), NodeSettings.jvmOptions(layout));
      AtomicFiles.deleteTree(home.resolve("plugins").resolve(PLUGIN));
      AtomicFiles.deleteTree(home.resolve(PLUGINS_SET_ASIDE));
      AtomicFiles.deleteTree(home.resolve("config").resolve(PLUGIN));
      if (pluginZip != null) {
        log.accept(layout.nodeName(n) + ": installing " + pluginZip.getFileName());
        Files.createDirectories(home.resolve("logs"));
        launcher.run(
            launcher.installPlugin(home, pluginZip),
            home,
            home.resolve("logs").resolve("plugin-install.out"));
      }
    }
  }

  /**
   * Sets Tailor's plugin aside (out of {@code plugins}) or puts it back, on every node. The nodes
   * must be down: a node reads its plugins when it starts.
   *
   * @throws IllegalStateException if a node is running or the plugin was never installed
   */
  void setPluginEnabled(boolean enabled) throws IOException {
    if (!layout.plugin()) {
      throw new IllegalStateException("the cluster was started without Tailor's plugin");
    }
    if (!running().isEmpty()) {
      throw new IllegalStateException("nodes " + running() + " are running");
    }
    for (int n = 1; n <= layout.nodes(); n++) {
      Path active = layout.home(n).resolve("plugins").resolve(PLUGIN);
      Path aside = layout.home(n).resolve(PLUGINS_SET_ASIDE).resolve(PLUGIN);
      Path from = enabled ? aside : active;
      Path to = enabled ? active : aside;
      if (Files.exists(from)) {
        Files.createDirectories(to.getParent());
        Files.move(from, to);
      } else if (!Files.exists(to)) {
        throw new IOException(
            layout.nodeName(n)
                + ": Tailor's plugin is neither in "
                + active
                + " nor in "
                + aside
                + "; run ./tailor cluster up again");
      }
    }
    log.accept("Tailor's plugin " + (enabled ? "enabled" : "set aside") + " on every node");
  }

  /** Whether Tailor's plugin is in place to be loaded at the next start (on node 1). */
  boolean pluginEnabled() {
    return Files.isDirectory(layout.home(1).resolve("plugins").resolve(PLUGIN));
  }

  /**
   * Starts every node as a daemon and waits until the cluster has them all and is green.
   *
   * @throws IllegalStateException if a node is running already
   * @throws IOException if a node does not start, dies, or the cluster is not green in time, with
   *     the end of each node's log
   */
  void start(Duration timeout) throws IOException {
    if (!running().isEmpty()) {
      throw new IllegalStateException(
          "nodes " + running() + " are running already (./tailor cluster status)");
    }
    for (int n = 1; n <= layout.nodes(); n++) {
      Files.deleteIfExists(layout.pidFile(n)); // a stale one from a killed node
      Path logs = Files.createDirectories(layout.home(n).resolve("logs"));
      List<String> cmd = launcher.startNode(layout, n);
      log.accept(layout.nodeName(n) + ": " + String.join(" ", cmd));
      try {
        launcher.run(cmd, layout.home(n), logs.resolve("launch.out"));
      } catch (IOException e) {
        throw new IOException(e.getMessage() + "\n" + logTails(), e);
      }
    }
    awaitGreen(timeout);
  }

  /**
   * Waits until every node is in the cluster and its health is green.
   *
   * @throws IOException if a node's process is gone, or the time is up, with each log's end
   */
  void awaitGreen(Duration timeout) throws IOException {
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    String last = "no answer yet";
    RestClient client = client(1, Duration.ofSeconds(10));
    while (true) {
      for (int n = 1; n <= layout.nodes(); n++) {
        Optional<ProcessHandle> p = process(n);
        boolean late = System.nanoTime() - start > PID_FILE_GRACE.toNanos();
        if ((Files.exists(layout.pidFile(n)) || late) && p.isEmpty()) {
          throw new IOException(
              layout.nodeName(n) + " is not running (it stopped or never started)\n" + logTails());
        }
      }
      try {
        JsonNode health =
            client.get(
                "/_cluster/health?wait_for_status=green&wait_for_nodes="
                    + layout.nodes()
                    + "&timeout=1s");
        last = health.path("status").asText() + ", " + health.path("number_of_nodes") + " nodes";
        if (!health.path("timed_out").asBoolean(true)) {
          log.accept("cluster " + layout.name() + " is green with " + layout.nodes() + " nodes");
          return;
        }
      } catch (IOException e) {
        last = e.getMessage(); // not listening yet, or 408 while it waits
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(
            "cluster "
                + layout.name()
                + " not green with "
                + layout.nodes()
                + " nodes within "
                + timeout.toSeconds()
                + " s (last: "
                + last
                + ")\n"
                + logTails());
      }
      pause(POLL);
    }
  }

  /**
   * Stops every running node (SIGTERM, then SIGKILL after {@code timeout}) and waits for each to
   * exit.
   *
   * @return a line per node saying what happened to it
   */
  public List<String> stop(Duration timeout) throws IOException {
    List<String> out = new ArrayList<>();
    ProcessHandle[] stopping = new ProcessHandle[layout.nodes() + 1];
    for (int n = 1; n <= layout.nodes(); n++) {
      stopping[n] = process(n).orElse(null);
      if (stopping[n] != null) {
        stopping[n].destroy(); // SIGTERM: OpenSearch shuts down cleanly
      }
    }
    for (int n = 1; n <= layout.nodes(); n++) {
      if (stopping[n] == null) {
        out.add(layout.nodeName(n) + ": not running");
      } else {
        out.add(layout.nodeName(n) + ": " + awaitExit(stopping[n], timeout));
      }
      Files.deleteIfExists(layout.pidFile(n));
    }
    return out;
  }

  /** Waits for a stopping node to exit, killing it if it takes longer than {@code timeout}. */
  private static String awaitExit(ProcessHandle h, Duration timeout) throws IOException {
    try {
      try {
        h.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return "stopped (pid " + h.pid() + ")";
      } catch (TimeoutException e) {
        h.destroyForcibly();
        h.onExit().get(30, TimeUnit.SECONDS);
        return "killed (pid " + h.pid() + "; it did not stop within " + timeout.toSeconds() + " s)";
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while stopping process " + h.pid(), e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException("process " + h.pid() + " did not exit even when killed", e);
    }
  }

  /**
   * What {@code tailor cluster status} shows: the cluster's version, nodes and plugin, a line per
   * node (its process, address and answer), the plugins node 1 has loaded where Tailor's was
   * installed, and the cluster's health. A node that does not answer is said so, not thrown.
   */
  public List<String> describe() {
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            "cluster %s: OpenSearch %s, %d nodes, Tailor's plugin %s",
            layout.name(),
            layout.version(),
            layout.nodes(),
            !layout.plugin()
                ? "not installed"
                : pluginEnabled() ? "installed" : "set aside (an interrupted load)"));
    out.addAll(status());
    RestClient client = client(1, Duration.ofSeconds(10));
    if (layout.plugin()) {
      out.add("plugins: " + answer(client, "/_cat/plugins?format=json"));
    }
    out.add("health: " + answer(client, "/_cluster/health"));
    return out;
  }

  private static String answer(RestClient client, String path) {
    try {
      return client.get(path).toString();
    } catch (IOException e) {
      return "no answer from " + client.node();
    }
  }

  /** The names of the nodes whose processes are alive. */
  public List<String> running() {
    List<String> out = new ArrayList<>();
    for (int n = 1; n <= layout.nodes(); n++) {
      if (process(n).isPresent()) {
        out.add(layout.nodeName(n));
      }
    }
    return out;
  }

  /** Node {@code n}'s process, if its pid file names one that is alive. */
  Optional<ProcessHandle> process(int n) {
    return readPid(n).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive);
  }

  private Optional<Long> readPid(int n) {
    try {
      String text = Files.readString(layout.pidFile(n), StandardCharsets.UTF_8).trim();
      return Optional.of(Long.parseLong(text));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty(); // no pid file (not started, or stopped cleanly), or half written
    }
  }

  /** A line per node: its process, its address, whether it answers and as what. */
  List<String> status() {
    List<String> out = new ArrayList<>();
    for (int n = 1; n <= layout.nodes(); n++) {
      String pid = process(n).map(h -> "pid " + h.pid()).orElse("not running");
      String answer;
      try {
        JsonNode root = client(n, Duration.ofSeconds(10)).get("/");
        answer = "OpenSearch " + root.path("version").path("number").asText();
      } catch (IOException e) {
        answer = "no answer";
      }
      out.add(
          String.format(
              "%s: %s, http://127.0.0.1:%d (%s), home %s",
              layout.nodeName(n), pid, layout.httpPort(n), answer, layout.home(n)));
    }
    return out;
  }

  /** The end of every node's log and launch output, for an error message. */
  String logTails() {
    StringBuilder out = new StringBuilder();
    for (int n = 1; n <= layout.nodes(); n++) {
      Path launch = layout.home(n).resolve("logs").resolve("launch.out");
      out.append(layout.nodeName(n)).append(": ").append(layout.log(n)).append(" ends:\n");
      out.append(Launcher.tail(layout.log(n), LOG_LINES)).append('\n');
      if (Files.exists(launch)) {
        out.append(layout.nodeName(n)).append(": ").append(launch).append(" ends:\n");
        out.append(Launcher.tail(launch, LOG_LINES / 2)).append('\n');
      }
    }
    return out.toString();
  }

  private static void pause(Duration d) throws IOException {
    try {
      Thread.sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
