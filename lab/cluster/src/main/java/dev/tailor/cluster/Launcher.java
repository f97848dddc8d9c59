package dev.tailor.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs OpenSearch's scripts the way OpenSearch accepts them. OpenSearch refuses to run as root, so
 * as root a node is started through a user namespace in which it is an ordinary user: {@code
 * unshare --user --map-user=1000 --map-group=1000} (util-linux), which maps that user to root
 * outside. The node's files stay root's outside the namespace, and it can still be stopped from
 * outside by its process id (a user namespace is not a process-id namespace). As any other user,
 * the command runs directly.
 */
final class Launcher {

  /** The user and group the node runs as inside the namespace, when started by root. */
  static final int NAMESPACE_ID = 1000;

  private final Path javaHome;
  private final boolean root;

  /**
   * A launcher.
   *
   * @param javaHome the JDK the nodes run on (OpenSearch 3 needs 21 or newer), as {@code
   *     OPENSEARCH_JAVA_HOME}
   * @param root whether this process runs as root
   */
  Launcher(Path javaHome, boolean root) {
    this.javaHome = javaHome;
    this.root = root;
  }

  /** Whether this process runs as root (user id 0). */
  static boolean runningAsRoot() {
    try {
      return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
    } catch (UnsupportedOperationException | LinkageError e) {
      return false; // not a Unix system: no root to refuse
    }
  }

  /**
   * The command that starts {@code command} as OpenSearch accepts it: through the user namespace as
   * root, else as it is.
   */
  List<String> command(List<String> command) {
    if (!root) {
      return List.copyOf(command);
    }
    List<String> out = new ArrayList<>();
    out.add("unshare");
    out.add("--user");
    out.add("--map-user=" + NAMESPACE_ID);
    out.add("--map-group=" + NAMESPACE_ID);
    out.addAll(command);
    return out;
  }

  /** The command that starts node {@code n} as a daemon that writes its process id. */
  List<String> startNode(ClusterLayout layout, int n) {
    return command(
        List.of(
            layout.home(n).resolve("bin").resolve("opensearch").toString(),
            "-d",
            "-p",
            layout.pidFile(n).toString()));
  }

  /**
   * The command that installs a plugin zip into a home without asking. It runs directly, as root
   * too: only the node refuses root, not its tools.
   */
  List<String> installPlugin(Path home, Path zip) {
    return List.of(
        home.resolve("bin").resolve("opensearch-plugin").toString(),
        "install",
        "--batch",
        zip.toAbsolutePath().toUri().toString());
  }

  /**
   * Runs one of OpenSearch's scripts in {@code dir} with OpenSearch's JDK and waits for it; its
   * output goes to {@code output}.
   *
   * @throws IOException if it cannot start or exits with a non-zero status, with the end of its
   *     output
   */
  void run(List<String> command, Path dir, Path output) throws IOException {
    Map<String, String> env = new HashMap<>();
    env.put("OPENSEARCH_JAVA_HOME", javaHome.toString());
    env.put("OPENSEARCH_PATH_CONF", null); // each node reads its own home's config
    run(command, dir, env, output);
  }

  /**
   * Runs a command in {@code dir} and waits for it; its output goes to {@code output}.
   *
   * @param env variables to set, or to remove where the value is null
   * @throws IOException if it cannot start or exits with a non-zero status, with the end of its
   *     output
   */
  static void run(List<String> command, Path dir, Map<String, String> env, Path output)
      throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    env.forEach(
        (k, v) -> {
          if (v == null) {
            pb.environment().remove(k);
          } else {
            pb.environment().put(k, v);
          }
        });
    Process p = pb.start();
    try {
      if (p.waitFor() == 0) {
        return;
      }
    } catch (InterruptedException e) {
      p.destroy();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running " + String.join(" ", command), e);
    }
    throw new IOException(
        "'"
            + String.join(" ", command)
            + "' failed with status "
            + p.exitValue()
            + ", its output ("
            + output
            + ") ends:\n"
            + tail(output, 20));
  }

  /** The last {@code lines} lines of a file, indented, or a note that it does not exist. */
  static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
      return "  " + String.join("\n  ", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "  (" + file + " cannot be read: " + e.getMessage() + ")";
    }
  }
}
