package dev.tailor.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.core.io.AtomicFiles;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where a local cluster lives and how its nodes are set up: one OpenSearch home per node under
 * {@code ROOT/VERSION/node-N}, consecutive HTTP and transport ports from the given bases, one heap
 * size. {@code cluster up} records it in {@value #STATE_FILE} under the root, and the other
 * commands read it from there, so that they find the nodes {@code up} started.
 *
 * @param root the cluster's directory under the data directory ({@code DATA/opensearch})
 * @param version the OpenSearch version
 * @param name the cluster's name
 * @param nodes how many nodes, at least 1
 * @param httpPort the first node's HTTP port; node N listens on {@code httpPort + N - 1}
 * @param transportPort the first node's transport port, likewise
 * @param heap each node's heap, e.g. {@code 512m}
 * @param plugin whether Tailor's plugin was installed by {@code up}
 */
public record ClusterLayout(
    Path root,
    String version,
    String name,
    int nodes,
    int httpPort,
    int transportPort,
    String heap,
    boolean plugin) {

  /** The file recording the layout {@code cluster up} started, under the root. */
  public static final String STATE_FILE = "cluster.json";

  /** The OpenSearch version whose Lucene (10.5.0) Tailor's plugin is built against. */
  public static final String DEFAULT_VERSION = "3.8.0";

  /** The file under a node's home holding its process id. */
  static final String PID_FILE = "opensearch.pid";

  private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+\\.\\d+");
  private static final Pattern HEAP = Pattern.compile("[1-9]\\d*[mMgG]");
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]*");

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Checks the layout.
   *
   * @throws IllegalArgumentException naming the option and the value if one is out of range: a
   *     version that is not {@code X.Y.Z}, fewer than 1 node, ports outside 1024..65535 or
   *     overlapping, a heap that is not like {@code 512m} or {@code 1g}, a name OpenSearch refuses
   */
  public ClusterLayout {
    root = root.toAbsolutePath().normalize();
    if (!VERSION.matcher(version).matches()) {
      throw new IllegalArgumentException(
          "--opensearch-version: '"
              + version
              + "' is not an OpenSearch version (expected X.Y.Z, e.g. 3.8.0)");
    }
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "--cluster-name: '" + name + "' (expected lower-case letters, digits, '-' and '_')");
    }
    if (nodes < 1 || nodes > 9) {
      throw new IllegalArgumentException("--nodes: " + nodes + " (expected 1 to 9)");
    }
    checkPorts("--http-port", httpPort, nodes);
    checkPorts("--transport-port", transportPort, nodes);
    if (Math.abs(httpPort - transportPort) < nodes) {
      throw new IllegalArgumentException(
          "--http-port "
              + httpPort
              + " and --transport-port "
              + transportPort
              + " overlap for "
              + nodes
              + " nodes (each node takes the next port of both)");
    }
    if (!HEAP.matcher(heap).matches()) {
      throw new IllegalArgumentException(
          "--heap: '" + heap + "' (expected a size such as 512m or 1g)");
    }
  }

  private static void checkPorts(String option, int first, int nodes) {
    if (first < 1024 || first + nodes - 1 > 65535) {
      throw new IllegalArgumentException(
          option + ": " + first + " (expected 1024 to " + (65536 - nodes) + " for " + nodes + ")");
    }
  }

  /** The directory of this version: the cached distribution and the node homes. */
  public Path versionDir() {
    return root.resolve(version);
  }

  /** Node {@code n}'s name, {@code node-n} (from 1). */
  public String nodeName(int n) {
    return "node-" + n;
  }

  /** Node {@code n}'s OpenSearch home. */
  public Path home(int n) {
    return versionDir().resolve(nodeName(n));
  }

  /** Node {@code n}'s HTTP port. */
  public int httpPort(int n) {
    return httpPort + n - 1;
  }

  /** Node {@code n}'s transport port. */
  public int transportPort(int n) {
    return transportPort + n - 1;
  }

  /** Node {@code n}'s process id file. */
  public Path pidFile(int n) {
    return home(n).resolve(PID_FILE);
  }

  /** Node {@code n}'s main log, where OpenSearch writes why it stopped or did not start. */
  public Path log(int n) {
    return home(n).resolve("logs").resolve(name + ".log");
  }

  /** Every node's HTTP address. */
  public List<URI> httpAddresses() {
    List<URI> out = new ArrayList<>();
    for (int n = 1; n <= nodes; n++) {
      out.add(URI.create("http://127.0.0.1:" + httpPort(n)));
    }
    return out;
  }

  /** The same layout with the plugin recorded as installed or not. */
  public ClusterLayout withPlugin(boolean installed) {
    return new ClusterLayout(root, version, name, nodes, httpPort, transportPort, heap, installed);
  }

  /**
   * Records the layout in {@value #STATE_FILE} under the root, written beside and moved: every
   * component but the root, which is where the file lies.
   */
  public void write() throws IOException {
    ObjectNode json = JSON.valueToTree(this);
    json.remove("root");
    Files.createDirectories(root);
    AtomicFiles.writeString(
        root.resolve(STATE_FILE),
        JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n");
  }

  /**
   * The layout {@code cluster up} recorded under {@code root}.
   *
   * @throws IOException naming the file if there is none (no cluster was started there) or it is
   *     not a layout
   */
  public static ClusterLayout read(Path root) throws IOException {
    Path file = root.resolve(STATE_FILE);
    if (!Files.isRegularFile(file)) {
      throw new IOException(
          file + ": no cluster recorded here; start one with ./tailor cluster up");
    }
    JsonNode json;
    try {
      json = JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new IOException(file + ": not a cluster record: " + e.getMessage(), e);
    }
    for (RecordComponent c : ClusterLayout.class.getRecordComponents()) {
      if (!c.getName().equals("root") && (json == null || !json.hasNonNull(c.getName()))) {
        throw new IOException(file + ": not a cluster record: no field '" + c.getName() + "'");
      }
    }
    try {
      return new ClusterLayout(
          root,
          json.get("version").asText(),
          json.get("name").asText(),
          json.get("nodes").asInt(),
          json.get("httpPort").asInt(),
          json.get("transportPort").asInt(),
          json.get("heap").asText(),
          json.get("plugin").asBoolean());
    } catch (IllegalArgumentException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }
}
